"""Fixtures of the class pool tests: a real PostgreSQL server, one store of each kind, records.

The PostgreSQL server is a throwaway one (henkit.classpool.server), started once per test
session in a temporary folder and stopped at the end whether the tests passed or not.
Each test gets a schema of its own in that server, so tests never see each other's records.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
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
from henkit.classpool.server import PostgresServer, postgres_bindir, throwaway_postgres
from henkit.henpen.dice import FACES
from henkit.hens.cards import CARDS
from henkit.hens.scoring import STEPS


def require_postgres() -> Path:
    """PostgreSQL's server programs, or fail the test (never skip: a skip would hide a store
    nobody tested)."""
    try:
        return postgres_bindir()
    except RuntimeError as e:
        pytest.fail(f"the class pool tests need a PostgreSQL server: {e}", pytrace=False)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the tests' own, started once and stopped at the end."""
    require_postgres()
    with throwaway_postgres() as server:
        yield server


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
        players = int(rng.integers(2, 5))
        # One draw in ten kept without its player count, as a store made before schema 3 has.
        source = "deck" if rng.random() < 0.7 else int(rng.integers(0, players))
        return DrawRecord(source, CARDS[int(rng.integers(len(CARDS)))].code,
                          None if rng.random() < 0.1 else players, **stamps)
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
    """The function that finds PostgreSQL's server programs (or fails the test)."""
    return require_postgres
