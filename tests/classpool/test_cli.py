"""`henkit class new | status | export --csv` as functions (henkit.cli wires them), and the pool
they act on: the one the running server serves, unless the teacher names another.

A "server" here is a real process that records its pool with `announce_served_pool` (as
dashboards/voila_server.py does when it starts) and waits; the tests stop it, or kill it hard.
Every test has a data folder of its own (XDG_DATA_HOME): a server running on this machine for
real never counts.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.classpool import ENV, open_store, read_csv
from henkit.classpool import cli as class_cli
from henkit.classpool.cli import (
    ServedPool,
    add_class_arguments,
    announce_served_pool,
    hide_passwords,
    pool_words,
    run_class,
    served_pools,
    withdraw_served_pool,
)
from henkit.classpool.server import PostgresServer

from ..fuzz_values import junk, only_value_error

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-Kq7s3cr3t"
"""A password the tests give in URLs: no output may hold it (nor its tail)."""
SERVER = """
import sys
from henkit.classpool.cli import announce_served_pool
print(announce_served_pool(sys.argv[1] if len(sys.argv) > 1 else None,
                           "http://192.0.2.7:8866/"), flush=True)
sys.stdin.read()  # until the test closes it: then atexit removes the record
"""


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """henkit's data folder of this test alone, and no HENKIT_CLASS_DB."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(ENV, raising=False)
    return tmp_path / "xdg" / "henkit"


def run(*argv: str) -> tuple[int, str, str]:
    """Parse argv as `henkit class` would and run it; (exit code, stdout, stderr)."""
    parser = argparse.ArgumentParser(prog="henkit class")
    add_class_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    code = run_class(parser.parse_args(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@contextmanager
def server(pool: str | None = None, env: dict[str, str] | None = None) -> Iterator[
        subprocess.Popen[str]]:
    """A process that announces `pool` (None: its HENKIT_CLASS_DB, else the default pool) as
    a server does, until the block ends (then it stops as a server stops)."""
    proc = subprocess.Popen([sys.executable, "-c", SERVER, *([pool] if pool else [])],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, cwd=ROOT)
    try:
        proc.record = Path(proc.stdout.readline().strip())  # type: ignore[attr-defined]
        assert proc.record.is_file(), "the server did not announce its pool"  # type: ignore
        yield proc
    finally:
        if proc.poll() is None:
            proc.stdin.close()
            proc.wait(timeout=30)


def test_new_status_export(target: str, make_records: Callable) -> None:
    """new starts a session that becomes current; status lists sessions with their records;
    export --csv writes every record (or one session's) as CSV that reads back."""
    with open_store(target) as store:
        store.add_many(make_records(30, seed=1))
        first = store.current_session()
    code, out, _ = run("new", "--db", target)
    assert code == 0 and out.startswith("new class session ")
    second = out.split()[3]
    with open_store(target) as store:
        assert store.current_session() == second
        store.add_many(make_records(12, seed=2))
        records = list(store.records())
    code, out, _ = run("status", "--db", target)
    assert code == 0
    assert f"  {first}  " in out and "30 records" in out
    assert f"* {second}  " in out and "12 records" in out
    code, out, _ = run("export", "--csv", "--db", target)
    assert code == 0 and list(read_csv(io.StringIO(out))) == records
    code, out, _ = run("export", "--csv", "--session", second, "--db", target)
    assert code == 0 and list(read_csv(io.StringIO(out))) == records[30:]


def test_the_default_pool_is_in_the_data_folder(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """No server running: HENKIT_CLASS_DB, else class.sqlite3 in --data-dir, else in henkit's
    data folder; the line on stderr says which and how to name another."""
    code, out, err = run("status", "--data-dir", str(tmp_path / "served"))
    assert code == 0 and str(tmp_path / "served" / "class.sqlite3") in out
    assert err == (f"henkit class: acting on the pool in --data-dir: SQLite file "
                   f"{tmp_path / 'served' / 'class.sqlite3'} (no henkit server is running)\n")
    monkeypatch.setenv(ENV, str(tmp_path / "env.sqlite3"))
    code, out, err = run("status", "--data-dir", str(tmp_path / "served"))
    assert code == 0 and str(tmp_path / "env.sqlite3") in out
    assert "the pool $HENKIT_CLASS_DB names" in err
    monkeypatch.delenv(ENV)
    code, out, err = run("status")
    default = tmp_path / "xdg" / "henkit" / "class.sqlite3"
    assert code == 0 and str(default) in out
    assert err == (f"henkit class: no henkit server is running (none recorded in "
                   f"{default.parent / 'servers'}); acting on the default pool: SQLite file "
                   f"{default}; another pool: --db <file or postgresql:// URL> or --data-dir "
                   "<folder>\n")


@pytest.mark.parametrize("how", ["DATA", "HENKIT_CLASS_DB"])
def test_the_cli_acts_on_the_served_pool(tmp_path: Path, own_data_folder: Path, how: str) -> None:
    """`make serve DATA=/srv/henkit` (serve.sh hands the server DATA/class.sqlite3 as
    HENKIT_CLASS_DB) or HENKIT_CLASS_DB=<file> elsewhere: `henkit class new`, typed with
    neither, starts the session in the served pool, not in the default one, and says so."""
    pool = tmp_path / ("srv/henkit/class.sqlite3" if how == "DATA" else "elsewhere.sqlite3")
    pool.parent.mkdir(parents=True, exist_ok=True)
    with open_store(pool) as store:
        first = store.current_session()  # serve.sh makes the pool before the server starts
    with server(env={ENV: str(pool)}) as proc:
        # The real command, as the teacher types it, in a shell without HENKIT_CLASS_DB.
        done = subprocess.run([sys.executable, "-m", "henkit", "class", "new"], cwd=ROOT,
                              check=False, capture_output=True, text=True, timeout=120,
                              env={k: v for k, v in os.environ.items() if k != ENV})
        assert done.returncode == 0, done.stderr
        session = done.stdout.split()[3]
        assert done.stdout == f"new class session {session} in SQLite file {pool}\n"
        assert done.stderr == (f"henkit class: acting on the pool the running henkit server "
                               f"serves (pid {proc.pid}): SQLite file {pool}; another pool: "
                               "--db <file or postgresql:// URL>\n")
        with open_store(pool) as store:
            assert store.current_session() == session != first
        assert not (own_data_folder / "class.sqlite3").exists()  # the default pool: untouched
        code, out, _ = run("export", "--csv")
        assert code == 0 and out.startswith("kind,session,")
        code, out, _ = run("status")
        assert code == 0 and f"* {session}" in out and f"  {first}" in out
    # Stopped as a server stops: its record goes, and the CLI is back on the default pool.
    assert not proc.record.exists()
    code, _, err = run("status")
    assert code == 0 and err.startswith("henkit class: no henkit server is running (none "
                                        f"recorded in {own_data_folder / 'servers'}); acting on "
                                        f"the default pool: SQLite file {own_data_folder}")


def test_naming_another_pool_says_it_is_not_the_served_one(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """--db, HENKIT_CLASS_DB or --data-dir act on the pool they name; the line says whether it is
    the served one, and if not which is and how to get to it."""
    served = tmp_path / "srv" / "class.sqlite3"
    other = tmp_path / "other.sqlite3"
    with server(str(served)) as proc:
        code, _, err = run("new", "--db", str(other))
        assert code == 0
        assert err == (f"henkit class: acting on the pool --db names: SQLite file {other}, NOT "
                       f"the pool the running henkit server serves (SQLite file {served} (pid "
                       f"{proc.pid})): leave out --db to act on that one\n")
        code, _, err = run("status", "--data-dir", str(served.parent))
        assert code == 0
        assert err == (f"henkit class: acting on the pool in --data-dir: SQLite file {served}, "
                       "the pool the running henkit server serves\n")
        monkeypatch.setenv(ENV, str(other))
        code, _, err = run("status", "--db", str(other))
        assert code == 0 and err.endswith(
            ": leave out --db and unset HENKIT_CLASS_DB to act on that one\n")
        code, out, err = run("status")
        assert code == 0 and f"class pool: {other}" in out
        assert "acting on the pool $HENKIT_CLASS_DB names" in err
        assert err.endswith("unset HENKIT_CLASS_DB to act on that one\n")
        with open_store(served) as store:
            assert len(store.status().sessions) == 1  # nothing above touched the served pool


def test_a_server_killed_hard_leaves_a_record_that_does_not_count(tmp_path: Path,
                                                                  own_data_folder: Path) -> None:
    """SIGKILL: the record stays (nothing could remove it), but its process is gone, so the CLI
    ignores it; so it does a record whose pid now belongs to another process."""
    with server(str(tmp_path / "gone.sqlite3")) as proc:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.record.exists()
        assert served_pools() == []
        code, _, err = run("status")
        assert code == 0 and "no henkit server is running" in err
    # A record naming a live process (this one) that started at another time: a reused pid.
    folder = own_data_folder / "servers"
    (folder / f"{os.getpid()}.json").write_text(json.dumps({
        "pool": str(tmp_path / "reused.sqlite3"), "pid": os.getpid(), "process_start": "1",
        "since": "2026-01-01T00:00:00+00:00", "url": None}))
    (folder / "123.json").write_text("{half a record")
    (folder / "notes.json").write_text(json.dumps({"pool": "x", "pid": "many"}))
    assert served_pools() == []
    code, _, err = run("status")
    assert code == 0 and "no henkit server is running" in err


def test_two_servers_on_two_pools_must_be_told_apart(tmp_path: Path) -> None:
    """Two servers on different pools: naming neither is a ValueError naming both; two servers
    on one pool are that pool."""
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    with server(str(a)), server(str(b)):
        with pytest.raises(ValueError, match=r"2 henkit servers are running, on different pools: "
                                             r"SQLite file .*a\.sqlite3 .*b\.sqlite3.*--db"):
            run("new")
        assert not a.exists() and not b.exists()
    with server(str(a)) as first, server(str(a)) as second:
        code, _, err = run("new")
        pids = err.partition("(pid ")[2].partition(")")[0]
        assert code == 0 and sorted(pids.split(", ")) == sorted([str(first.pid), str(second.pid)])
        assert f"SQLite file {a}" in err


def test_a_served_postgres_pool_is_recorded_and_used_without_its_password(
        postgres_server: PostgresServer, tmp_path: Path) -> None:
    """HENKIT_CLASS_DB=postgresql://user:password@...: the record holds the URL without the
    password, the CLI still reaches the pool (the test server trusts its user; a real one takes
    PGPASSWORD or ~/.pgpass), and nothing it prints holds the password."""
    url = postgres_server.url("served_pg").replace("postgres@", f"postgres:{PASSWORD}@")
    import psycopg

    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS served_pg")
    with server(env={ENV: url}) as proc:
        record = proc.record.read_text()
        assert PASSWORD not in record and json.loads(record)["pool"] == \
            postgres_server.url("served_pg")
        outputs = [run("new"), run("status"), run("export", "--csv")]
        assert all(code == 0 for code, _, _ in outputs)
        session = outputs[0][1].split()[3]
        assert f"* {session}" in outputs[1][1]
        where = f"PostgreSQL database 127.0.0.1:{postgres_server.port}/postgres, schema served_pg"
        assert outputs[0][2] == (f"henkit class: acting on the pool the running henkit server "
                                 f"serves (pid {proc.pid}): {where}; another pool: --db <file "
                                 "or postgresql:// URL>\n")
        assert not any(PASSWORD[3:] in out + err for _, out, err in outputs)
        with open_store(url) as store:
            assert store.current_session() == session
        # Named with its password in the CLI's environment: the same pool, said so.
        os.environ[ENV] = url
        try:
            code, out, err = run("status")
        finally:
            del os.environ[ENV]
        assert code == 0 and "the pool the running henkit server serves" in err
        assert PASSWORD[3:] not in out + err


def test_an_unreachable_pool_is_an_error_line_and_exit_1() -> None:
    """A pool that cannot be reached: the pool line and one error line on stderr, exit code 1,
    nothing on stdout, no password."""
    code, out, err = run("status", "--db", f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class")
    assert code == 1 and out == ""
    line, error = err.strip().splitlines()
    assert line == ("henkit class: acting on the pool --db names: PostgreSQL database "
                    "127.0.0.1:9/class (no henkit server is running)")
    assert error.startswith("henkit class status: error: the class pool at "
                            "postgresql://teacher:***@127.0.0.1:9/class cannot be used:")
    assert PASSWORD[3:] not in err


def test_a_served_postgres_pool_out_of_reach_says_where_the_password_goes(tmp_path: Path) -> None:
    """The served pool's record has no password: when its PostgreSQL cannot be reached, the
    error says how to give one (and shows none)."""
    with server(f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class"):
        code, out, err = run("status")
    assert code == 1 and out == "" and PASSWORD[3:] not in err
    assert "PGPASSWORD or ~/.pgpass" in err and "acting on the pool the running" in err


@pytest.mark.parametrize(("text", "hidden"), [
    (f"postgresql://teacher:{PASSWORD}@db:5432/class", "postgresql://teacher:***@db:5432/class"),
    (f"'postgres://t:{PASSWORD}@db/c' refused", "'postgres://t:***@db/c' refused"),
    (f"postgresql://db/class?sslmode=require&password={PASSWORD}",
     "postgresql://db/class?sslmode=require&password=***"),
    (f"host=db password={PASSWORD} user=t", "host=db password=*** user=t"),
    (f"mysql://t:a/b@{PASSWORD}@db/c", "mysql://t:***@db/c"),
    ("postgresql://teacher@db/class and /srv/henkit/class.sqlite3",
     "postgresql://teacher@db/class and /srv/henkit/class.sqlite3"),
])
def test_hide_passwords(text: str, hidden: str) -> None:
    """URL user info and password= settings lose their password, whatever it holds."""
    assert hide_passwords(text) == hidden


def test_hide_passwords_hides_a_known_password_wherever_it_is() -> None:
    """A driver may quote the password alone (psycopg: 'unexpected spaces found in "..."'):
    the passwords of the pools named are hidden anywhere in the text, raw or decoded."""
    url = "postgresql://t:pw%20Kq7%2Fs3cr3t x@[::1/db"
    message = 'unexpected spaces found in "pw Kq7/s3cr3t x", use %20'
    assert hide_passwords(message, url) == 'unexpected spaces found in "***", use %20'
    assert hide_passwords("a b c", "postgresql://t:a@h/d") == "a b c"  # too short to hunt alone


@pytest.mark.parametrize(("target", "words"), [
    (f"postgresql://teacher:{PASSWORD}@db.school:5432/henkit?options=-csearch_path%3Dclass7",
     "PostgreSQL database db.school:5432/henkit, schema class7"),
    (f"postgresql://db.school/henkit?password={PASSWORD}", "PostgreSQL database db.school/henkit"),
    ("postgresql:///henkit?host=/run/postgresql", "PostgreSQL database /run/postgresql/henkit"),
    ("/srv/henkit/class.sqlite3", "SQLite file /srv/henkit/class.sqlite3"),
])
def test_pool_words(target: str, words: str) -> None:
    """A pool in words: no user, no password."""
    assert pool_words(target) == words


def test_the_record_is_withdrawn_and_only_by_its_process(tmp_path: Path,
                                                         own_data_folder: Path) -> None:
    """announce_served_pool writes this process's record (file mode 600), served_pools finds it,
    withdraw_served_pool removes it; another process's record is left alone."""
    path = announce_served_pool(str(tmp_path / "p.sqlite3"), "http://192.0.2.7:8866/")
    try:
        assert path == own_data_folder / "servers" / f"{os.getpid()}.json"
        assert path.stat().st_mode & 0o077 == 0
        assert served_pools() == [ServedPool(str(tmp_path / "p.sqlite3"), os.getpid(),
                                             served_pools()[0].since, "http://192.0.2.7:8866/",
                                             path)]
    finally:
        withdraw_served_pool(path)
    assert not path.exists() and served_pools() == []
    other = own_data_folder / "servers" / "1.json"
    other.write_text("{}")
    withdraw_served_pool(other)
    assert other.exists()


FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])


@FAST
@given(x=junk(), where=st.integers(0, 4))
def test_bad_input_to_the_new_names_is_a_value_error(x: object, where: int,
                                                     tmp_path_factory: pytest.TempPathFactory,
                                                     ) -> None:
    """The names this module added take junk as every henkit function does: ValueError only."""
    folder = tmp_path_factory.mktemp("junk")
    os.environ["XDG_DATA_HOME"] = str(folder)  # the autouse fixture restores it
    only_value_error(hide_passwords, x)
    only_value_error(hide_passwords, "text", x)
    only_value_error(pool_words, x)
    only_value_error(withdraw_served_pool, x)
    args: list[object] = [str(folder / "p.sqlite3"), "http://192.0.2.7:8866/"]
    args[where % 2] = x
    path = only_value_error(announce_served_pool, *args)
    if path is not None:
        withdraw_served_pool(path)
    fields: list[object] = [str(folder / "p.sqlite3"), 1, "", None, folder]
    fields[where] = x
    only_value_error(ServedPool, *fields)
    assert class_cli.served_pools() == []


@pytest.mark.parametrize(("argv", "words"), [
    (("export",), "add --csv"),
    (("status", "--csv"), "export only"),
    (("new", "--session", "20250114-093000-3fa2c1"), "export only"),
    (("export", "--csv", "--session", "monday"), "class session id"),
    (("export", "--csv", "--session", "20000101-000000-000000"), "has no session"),
    (("status", "--db", "mysql://school/class"), "postgresql://"),
])
def test_bad_input_is_a_value_error(tmp_path: Path, argv: tuple[str, ...], words: str) -> None:
    """Bad input found after parsing: ValueError naming what is allowed."""
    if "--db" not in argv:
        argv = (*argv, "--db", str(tmp_path / "class.sqlite3"))
    with pytest.raises(ValueError, match=words):
        run(*argv)


def test_the_actions_are_checked() -> None:
    """run_class with an action argparse would not give: ValueError."""
    with pytest.raises(ValueError, match="new, status, export"):
        run_class(argparse.Namespace(action="drop"))
