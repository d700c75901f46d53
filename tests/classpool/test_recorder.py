"""The Recorder: stamps, keeps records while the class pool is unreachable (an unwritable SQLite
file, a locked one, a stopped PostgreSQL server), writes them exactly once when it is back."""

from __future__ import annotations

import multiprocessing as mp
import os
import pwd
import shutil
import socket
import sqlite3
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from henkit.classpool import (
    ClassStore,
    DrawRecord,
    PostgresStore,
    Recorder,
    RollRecord,
    SQLiteStore,
    open_store,
)

FORK = mp.get_context("fork")
ROLL = RollRecord(8, (1, 2, 0, 0, 3, 2), (), False)


def seqs(store: ClassStore, page: str) -> Counter:
    """How many times each seq of a page is stored."""
    return Counter(r.seq for r in store.records() if r.page == page)


def test_a_recorder_stamps_its_page_and_numbers(store: ClassStore) -> None:
    """Every record gets the recorder's page and the next number; the store stamps the rest."""
    rec = Recorder(store)
    for _ in range(3):
        rec.record(ROLL)
    rec.record_many([DrawRecord("deck", "Pa3", 2), DrawRecord(1, "Ce6", 2, page=rec.page)])
    assert rec.online and rec.pending == 0 and rec.written == 5
    stored = list(store.records())
    assert [(r.page, r.seq) for r in stored] == [(rec.page, i) for i in range(5)]
    assert {r.session for r in stored} == {store.current_session()}
    other = Recorder(store)
    assert other.page != rec.page
    with pytest.raises(ValueError, match="writes page"):
        other.record(DrawRecord("deck", "Pa3", 2, page=rec.page))
    with pytest.raises(ValueError, match="RollRecord"):
        rec.record({"kind": "roll"})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Recorder(store, limit=0)
    with pytest.raises(ValueError):
        Recorder("mysql://nope")
    assert len(list(store.records())) == 5
    rec.close()
    with pytest.raises(ValueError, match="closed"):
        rec.record(ROLL)


def test_the_oldest_are_dropped_beyond_the_limit(tmp_path: Path) -> None:
    """While offline at most `limit` records wait; the oldest go, counted; the rest arrive."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should be")
    rec = Recorder(blocker / "class.sqlite3", limit=10, retry_interval=0)
    for i in range(25):
        rec.record(DrawRecord("deck", i, 2))
    assert not rec.online and rec.pending == 10 and rec.dropped == 15
    blocker.unlink()
    assert rec.flush() and rec.online
    assert sorted(seqs(rec.store, rec.page)) == list(range(15, 25))  # type: ignore[arg-type]
    rec.close()


def unwritable_sqlite(folder: str) -> dict[str, Any]:
    """As a user without root's powers: a recorder whose SQLite file (and folder) cannot be
    written, then can again. Returns what was seen (run in a child process when root)."""
    pool = Path(folder) / "pool"
    path = pool / "class.sqlite3"
    with SQLiteStore(path, timeout=0.2) as store:
        store.current_session()  # creates the file
    seen: dict[str, Any] = {}
    os.chmod(path, 0o444)
    os.chmod(pool, 0o555)
    try:
        rec = Recorder(path, retry_interval=0)
        for _ in range(5):
            rec.record(ROLL)
        seen["offline"] = (rec.online, rec.pending, rec.written, rec.last_error)
        seen["flush_while_unwritable"] = rec.flush()
    finally:
        os.chmod(pool, 0o755)
        os.chmod(path, 0o644)
    rec.record(ROLL)  # the next record finds the pool back and writes all six
    seen["online"] = (rec.online, rec.pending, rec.written, rec.last_error)
    seen["flush"] = rec.flush()
    with SQLiteStore(path) as store:
        seen["seqs"] = dict(seqs(store, rec.page))
    rec.close()
    return seen


def as_user(user: str, call: Callable[[str], dict], folder: str) -> dict:
    """Run call(folder) in a forked child as `user` (root ignores file permissions)."""
    entry = pwd.getpwnam(user)
    os.chown(folder, entry.pw_uid, entry.pw_gid)
    out = FORK.Queue()

    def child() -> None:
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
        try:
            out.put(call(folder))
        except BaseException:  # noqa: BLE001 - reported to the test, which fails with it
            out.put({"error": traceback.format_exc()})

    p = FORK.Process(target=child)
    p.start()
    result = out.get(timeout=60)
    p.join(timeout=60)
    return result


def test_an_unwritable_sqlite_file_keeps_records_until_it_is_writable() -> None:
    """File and folder made read-only: records kept, online False with the reason; writable
    again: the next record writes them all, each exactly once."""
    folder = tempfile.mkdtemp(prefix="henkit-ro-")
    try:
        if os.geteuid() == 0:
            seen = as_user("postgres", unwritable_sqlite, folder)
        else:
            seen = unwritable_sqlite(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert "error" not in seen, seen["error"]
    online, pending, written, error = seen["offline"]
    assert (online, pending, written) == (False, 5, 0)
    assert "cannot be used" in error and "class.sqlite3" in error
    assert seen["flush_while_unwritable"] is False
    assert seen["online"] == (True, 0, 6, None)
    assert seen["flush"] is True
    assert seen["seqs"] == dict.fromkeys(range(6), 1)


def test_a_locked_sqlite_file_keeps_records_until_it_is_free(tmp_path: Path) -> None:
    """Another process holding the write lock past the busy timeout: offline, records kept;
    lock released: flushed, exactly once each."""
    path = tmp_path / "class.sqlite3"
    store = SQLiteStore(path, timeout=0.1)
    rec = Recorder(store, retry_interval=0)
    rec.record(ROLL)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        for _ in range(4):
            rec.record(ROLL)
        assert not rec.online and rec.pending == 4 and "locked" in (rec.last_error or "")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert rec.flush() and rec.online and rec.pending == 0
    assert seqs(store, rec.page) == dict.fromkeys(range(5), 1)
    store.close()


def test_a_stopped_postgresql_server_keeps_records_until_it_is_back(
        postgres_server: Any) -> None:
    """PostgreSQL stopped under a working recorder: records kept, online False; the server back:
    one flush writes them (a new connection in place of the broken one), exactly once each."""
    import psycopg

    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS stopped CASCADE")
        conn.execute("CREATE SCHEMA stopped")
    store = PostgresStore(postgres_server.url("stopped"), connect_timeout=2)
    rec = Recorder(store, retry_interval=0)
    rec.record(ROLL)
    assert rec.online and rec.written == 1
    postgres_server.stop()
    try:
        assert not postgres_server.running()
        for _ in range(5):
            rec.record(ROLL)
        assert not rec.online and rec.pending == 5
        assert rec.flush() is False
    finally:
        postgres_server.start()
    assert rec.flush() and rec.online and rec.pending == 0 and rec.written == 6
    assert seqs(store, rec.page) == dict.fromkeys(range(6), 1)
    store.close()


def test_offline_retries_wait_for_the_retry_interval(tmp_path: Path) -> None:
    """While offline, a record tries the store again only once retry_interval has passed."""
    now = [0.0]
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    rec = Recorder(blocker / "class.sqlite3", retry_interval=5, clock=lambda: now[0])
    rec.record(ROLL)
    assert not rec.online
    blocker.unlink()
    rec.record(ROLL)  # too soon: kept
    assert rec.pending == 2
    now[0] = 5.0
    rec.record(ROLL)
    assert rec.online and rec.pending == 0 and rec.written == 3
    rec.close()


def test_a_background_recorder_never_waits_for_a_hanging_server(tmp_path: Path) -> None:
    """A server that accepts connections and never answers: with background=True, record()
    returns at once while the recorder's thread waits out the connection timeout, then says
    offline and keeps every record."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)  # connections complete in the kernel and then hang: nobody accepts
    port = listener.getsockname()[1]
    try:
        store = PostgresStore(f"postgresql://nobody@127.0.0.1:{port}/class", connect_timeout=2)
        rec = Recorder(store, background=True, retry_interval=60)
        began = time.perf_counter()
        for _ in range(20):
            rec.record(ROLL)
        assert time.perf_counter() - began < 0.5
        deadline = time.monotonic() + 10
        while rec.online and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not rec.online and rec.pending == 20
    finally:
        listener.close()
    rec.close()


def test_a_background_recorder_writes_everything(target: str) -> None:
    """background=True: records written by the recorder's thread, each once, all by close."""
    store = open_store(target)
    rec = Recorder(store, background=True)
    for i in range(200):
        rec.record(DrawRecord("deck", i % 48, 2))
    rec.close()
    assert rec.online and rec.pending == 0 and rec.written == 200
    assert seqs(store, rec.page) == dict.fromkeys(range(200), 1)
    store.close()
