"""Fixtures of the class pool tests: a real PostgreSQL server, one store of each kind, records.

The PostgreSQL server is a throwaway one, started once per test session with Debian's initdb
and pg_ctl (/usr/lib/postgresql/*/bin, which `make test` installs) in a temporary folder, on
127.0.0.1 and a free port (its Unix socket in the same folder), and stopped at the end (pg_ctl
stop -m fast) whether the tests passed or not. PostgreSQL refuses to run as root: as root the
server runs as the `postgres` user Debian's package creates (the folder is chowned to it).
Each test gets a schema of its own in that server, so tests never see each other's records.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from henkit.classpool import (
    BarnyardRecord,
    ClassStore,
    DrawRecord,
    Record,
    RollRecord,
    TurnRecord,
    new_page_id,
    open_store,
)
from henkit.henpen.dice import FACES
from henkit.hens.cards import CARDS
from henkit.hens.scoring import STEPS

POSTGRES_USER = "postgres"


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PostgresServer:
    """A throwaway PostgreSQL server: where it is, and how to stop and start it again."""

    bindir: Path
    folder: Path
    port: int
    run_as: list[str]

    @property
    def data(self) -> Path:
        """The server's data folder."""
        return self.folder / "data"

    def url(self, schema: str | None = None) -> str:
        """A URL of the server's `postgres` database, with `schema` first in its search_path."""
        url = f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/postgres"
        return url if schema is None else f"{url}?options=-csearch_path%3D{schema}"

    def pg_ctl(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Run pg_ctl on this server's data folder (as the server's user)."""
        return subprocess.run([*self.run_as, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                               *args], capture_output=True, text=True, timeout=timeout,
                              check=False)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c max_connections=100 -c synchronous_commit=off")
        done = self.pg_ctl("-l", str(self.folder / "server.log"), "-o", options, "-w",
                           "-t", "60", "start")
        if done.returncode != 0:
            log = (self.folder / "server.log")
            raise RuntimeError(f"pg_ctl start failed: {done.stdout}{done.stderr}\n"
                               f"{log.read_text() if log.exists() else ''}")

    def stop(self) -> None:
        """Stop the server (fast: open connections are closed)."""
        self.pg_ctl("-m", "fast", "-w", "-t", "60", "stop")

    def running(self) -> bool:
        """Whether the server is running."""
        return self.pg_ctl("status").returncode == 0


def postgres_bindir() -> Path:
    """Debian's PostgreSQL server programs (the newest version installed); fail if missing."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[3]) if Path(p).parts[3].isdigit() else 0)
    if not found or not os.access(Path(found[-1]).parent / "initdb", os.X_OK):
        pytest.fail("the class pool tests need a PostgreSQL server: /usr/lib/postgresql/*/bin/"
                    "initdb and pg_ctl are missing. Install Debian's postgresql (make test does: "
                    "apt-get install postgresql)", pytrace=False)
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the tests' own, started once and stopped at the end."""
    bindir = postgres_bindir()
    folder = Path(tempfile.mkdtemp(prefix="henkit-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(POSTGRES_USER)
        except KeyError:
            pytest.fail(f"PostgreSQL refuses to run as root and there is no {POSTGRES_USER!r} "
                        "user (Debian's postgresql package creates it)", pytrace=False)
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", POSTGRES_USER, "--"]
    server = PostgresServer(bindir, folder, free_port(), run_as)
    try:
        done = subprocess.run(
            [*run_as, str(bindir / "initdb"), "-D", str(server.data), "-U", POSTGRES_USER,
             "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            pytest.fail(f"initdb failed: {done.stdout}{done.stderr}", pytrace=False)
        for attempt in range(3):  # another program may take the free port first
            try:
                server.start()
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                server.port = free_port()
        yield server
    finally:
        if server.data.exists():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's class pool is: a fresh SQLite file, or a fresh schema in the PostgreSQL
    server (started on first use)."""
    if request.param == "sqlite":
        return str(tmp_path / "data" / "class.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    schema = f"t_{secrets.token_hex(6)}"
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return server.url(schema)


@pytest.fixture
def store(target: str) -> Iterator[ClassStore]:
    """An open class pool of each kind (closed after the test)."""
    s = open_store(target)
    yield s
    s.close()


def random_record(rng: np.random.Generator, page: str | None = None,
                  seq: int | None = None) -> Record:
    """A random valid record of any kind (rolls most often, as in class)."""
    kind = rng.choice(["roll", "roll", "roll", "turn", "draw", "barnyard"])
    stamps: dict[str, Any] = {"page": page, "seq": seq}
    if kind == "roll":
        taken = frozenset(int(f) for f in FACES if rng.random() < 0.25) if rng.random() < 0.6 \
            else frozenset()
        if len(taken) == len(FACES):
            taken = frozenset(list(taken)[:3])
        dice = int(rng.integers(1, 9 - len(taken)))
        counts = tuple(int(c) for c in rng.multinomial(dice, [1 / 6] * 6))
        bust = all(c == 0 or f in taken for f, c in zip(FACES, counts, strict=True))
        return RollRecord(dice, counts, taken, bust, **stamps)
    if kind == "turn":
        who = str(rng.choice(["student", "greedy", "optimal", "threshold 25"]))
        total = int(rng.integers(0, 41))
        if total >= 21 and rng.random() < 0.6:
            return TurnRecord(who, total, None, int(rng.integers(21, min(total, 36) + 1)),
                              **stamps)
        return TurnRecord(who, total, str(rng.choice(["bust", "no worm", "no serving"])), None,
                          **stamps)
    if kind == "draw":
        source = "deck" if rng.random() < 0.7 else int(rng.integers(0, 4))
        return DrawRecord(source, CARDS[int(rng.integers(len(CARDS)))].code, **stamps)
    lines = tuple((s, int(rng.integers(-3, 12))) for s in STEPS if rng.random() < 0.8)
    return BarnyardRecord(str(rng.choice(["student", "greedy"])), lines,
                          sum(p for _, p in lines), **stamps)


@pytest.fixture
def make_records() -> Callable[..., list[Record]]:
    """A function making n random records from a seed, spread over `pages` random pages."""

    def make(n: int, seed: int = 0, pages: int = 5) -> list[Record]:
        rng = np.random.default_rng(seed)
        ids = [new_page_id() for _ in range(pages)]
        seqs = dict.fromkeys(ids, 0)
        out = []
        for _ in range(n):
            page = ids[int(rng.integers(pages))]
            out.append(random_record(rng, page, seqs[page]))
            seqs[page] += 1
        return out

    return make


def wait_for(check: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll `check` until it is true or `timeout` seconds pass; its last answer."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def find_postgres() -> Callable[[], Path]:
    """The function that finds PostgreSQL's server programs (or fails the test session)."""
    return postgres_bindir
