"""Many writers at once, and a writer killed in the middle: nothing lost, nothing doubled, the
SQLite file intact.

Writers are forked processes, each with its own connection, writing the way widgets do: one
record per roll, each in its own transaction.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sqlite3
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from henkit.classpool import RollRecord, SQLiteStore, new_page_id, open_store

WRITERS = 30
RECORDS = 1_000
FORK = mp.get_context("fork")


def first_roll(rng: np.random.Generator, page: str, seq: int) -> RollRecord:
    """A first roll of 8 dice, as a dice tray records it."""
    counts = tuple(int(c) for c in rng.multinomial(8, [1 / 6] * 6))
    return RollRecord(8, counts, (), False, page=page, seq=seq)


def write_rolls(target: str, page: str, start: object, n: int) -> None:
    """A writer process: wait for the start, then roll and write n times, one transaction each
    (a dice tray writes each roll as it happens)."""
    store = open_store(target)
    rng = np.random.default_rng(int(page, 16) % 2**32)
    store.current_session()  # connect before the start, as an open page has
    start.wait()  # type: ignore[attr-defined]
    for i in range(n):
        store.add(first_roll(rng, page, i))
    store.close()


@pytest.mark.slow
def test_thirty_writers_at_once_lose_and_double_nothing(target: str) -> None:
    """30 processes x 1,000 records, one transaction each, all at once: exactly 30,000 records,
    each (page, seq) once."""
    store = open_store(target)
    store.current_session()
    pages = [new_page_id() for _ in range(WRITERS)]
    start = FORK.Barrier(WRITERS + 1)
    writers = [FORK.Process(target=write_rolls, args=(target, p, start, RECORDS)) for p in pages]
    for w in writers:
        w.start()
    start.wait(timeout=120)
    began = time.perf_counter()
    for w in writers:
        w.join(timeout=300)
    took = time.perf_counter() - began
    assert [w.exitcode for w in writers] == [0] * WRITERS
    print(f"\n{type(store).__name__}: {WRITERS} x {RECORDS} records in {took:.1f} s "
          f"({WRITERS * RECORDS / took:.0f} records/s)")
    stored = Counter((r.page, r.seq) for r in store.records())
    assert sum(stored.values()) == WRITERS * RECORDS
    assert max(stored.values()) == 1, "a record was written twice"
    assert set(stored) == {(p, i) for p in pages for i in range(RECORDS)}, "a record was lost"
    summary = store.summary()
    assert (summary.pages, summary.rolls) == (WRITERS, WRITERS * RECORDS)
    assert sum(store.roll_tallies().values()) == WRITERS * RECORDS
    store.close()


def write_until_killed(path: str, page: str, report: int, batch: int) -> None:
    """A writer that reports, through a pipe, how many records it has committed before each
    new transaction, and writes until it is killed."""
    store = SQLiteStore(path)
    rng = np.random.default_rng(int(page, 16) % 2**32)
    committed = 0
    while True:
        os.write(report, f"{committed}\n".encode())
        records = [first_roll(rng, page, committed + i) for i in range(batch)]
        if batch == 1:
            store.add(records[0])
        else:
            store.add_many(records)
        committed += batch


def read_reports(fd: int, until: int | None = None, last: int = 0, timeout: float = 60) -> int:
    """The last number a writer reported (`last` if none more): read until it reports `until`
    or more, or (None) until the pipe closes because the writer is dead. Each report is one
    short write, which a pipe delivers whole."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        chunk = os.read(fd, 65536)
        if not chunk:
            return last
        last = int(chunk.split()[-1])
        if until is not None and last >= until:
            return last
    raise AssertionError("the writer reported too little in time")


@pytest.mark.slow
@pytest.mark.parametrize("batch", [1, 50])
def test_writer_killed_mid_write_leaves_sqlite_intact(tmp_path: Path, batch: int) -> None:
    """SIGKILL while writing: integrity_check ok, every committed record readable, and the
    record (or batch) in flight either whole or absent."""
    path = str(tmp_path / "class.sqlite3")
    with SQLiteStore(path) as store:
        store.current_session()  # creates the file
    rng = np.random.default_rng(batch)
    pages = []
    for _ in range(4):
        page = new_page_id()
        pages.append(page)
        read, write = os.pipe()
        writer = FORK.Process(target=write_until_killed, args=(path, page, write, batch))
        writer.start()
        os.close(write)
        early = read_reports(read, until=20 * batch)  # well into its writing loop, then more
        time.sleep(0.05 + 0.2 * rng.random())
        os.kill(writer.pid, signal.SIGKILL)
        writer.join()
        reported = read_reports(read, last=early)
        os.close(read)
        assert writer.exitcode == -signal.SIGKILL
        assert reported >= 20 * batch
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            seqs = [s for (s,) in conn.execute(
                "SELECT seq FROM henkit_records WHERE page = ? ORDER BY seq", (page,))]
        # Reported means committed; the transaction after the last report may have committed
        # too (killed before it could report), but only whole.
        assert seqs in (list(range(reported)), list(range(reported + batch))), (
            f"page {page}: reported {reported}, stored {len(seqs)}")
    with SQLiteStore(path) as store:  # every record reads back through the store
        stored = Counter(r.page for r in store.records())
        assert set(stored) == set(pages)
        assert store.summary().rolls == sum(stored.values())
