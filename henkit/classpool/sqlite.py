"""The class pool in an SQLite file: the embedded default, for a class served by one server.

WAL mode lets the board read while widgets write; writers take the lock at the start of their
transaction (BEGIN IMMEDIATE) and wait for each other up to `timeout` seconds (SQLite's busy
timeout), so thirty kernels writing at once queue instead of failing. `synchronous=NORMAL`: a
commit survives the writing process being killed (it is in the WAL file when the call returns);
a power cut may lose the last commits, which a class pool can afford.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from henkit.classpool.base import (
    ADD_PLAYERS_SQL,
    AGGREGATES,
    BOARD_SQL,
    RECORDS_BOARD_SQL,
    TALLIES_TABLE,
    TALLY_STATEMENTS,
    SQLStore,
    StoreError,
    schema_sql,
)

SCHEMA_VERSION = 3
"""The schema this henkit writes (SQLite's `PRAGMA user_version`): 2 added the board's tallies
(a store of schema 1 gets them, filled from its records, when first opened), 3 each draw's
player count (`ADD_PLAYERS_SQL`)."""
TALLY_TRIGGER = ("CREATE TRIGGER IF NOT EXISTS henkit_tally AFTER INSERT ON henkit_records BEGIN "
                 + "; ".join(TALLY_STATEMENTS) + "; END")


class SQLiteStore(SQLStore):
    """A class pool in one SQLite file (created with its folder and schema when missing)."""

    paramstyle = "?"
    driver_errors = (sqlite3.Error, OSError)

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        if isinstance(path, bytes) or not isinstance(path, str | os.PathLike) or not str(path):
            raise ValueError(f"an SQLite class pool is a file path, not {path!r}")
        if not isinstance(timeout, int | float | np.integer | np.floating) or isinstance(
                timeout, bool | np.bool_) or not 0 <= timeout <= 3600:
            raise ValueError(f"timeout is a number of seconds from 0 to 3600, not {timeout!r}")
        try:
            resolved = Path(path).expanduser().absolute()
        except (RuntimeError, OSError) as e:  # "~nobody/x": no such user's home
            raise ValueError(f"an SQLite class pool is a file path, not {path!r}: {e}") from None
        super().__init__()
        self.path = resolved
        self.location = str(self.path)
        self.timeout = float(timeout)

    def __repr__(self) -> str:
        return f"SQLiteStore({self.location!r})"

    def _connect(self) -> sqlite3.Connection:
        """Open the file (and its folder, schema and first session if missing) in WAL mode."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None,
                               check_same_thread=False)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"the class pool at {self.location} was made by a newer henkit "
                                 f"(schema {version}; this one knows {SCHEMA_VERSION})")
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            if version < SCHEMA_VERSION:
                with self._write(conn) as cur:
                    columns = {row[1] for row in cur.execute(
                        "PRAGMA table_info(henkit_records)").fetchall()}
                    if columns and "players" not in columns:
                        # A store made before schema 3: its trigger tallies draws the old way.
                        for statement in (*ADD_PLAYERS_SQL, "DROP TRIGGER IF EXISTS henkit_tally"):
                            cur.execute(statement)
                    for statement in (*schema_sql("id INTEGER PRIMARY KEY"), TALLIES_TABLE,
                                      TALLY_TRIGGER):
                        cur.execute(statement)
                    self._fill_tallies(cur)
                    self._first_session(cur)
                    cur.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            conn.close()
            raise
        return conn

    @contextmanager
    def _write(self, conn: Any) -> Iterator[Any]:
        """One write transaction, holding the write lock from its start (BEGIN IMMEDIATE)."""
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            yield cur
            cur.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _broken(self, conn: Any) -> bool:
        """Any error: reopen the file next time (cheap, and it notices a replaced file)."""
        return True

    def query_plan(self, name: str = "board") -> list[str]:
        """SQLite's plan (EXPLAIN QUERY PLAN details) for an aggregate, "records board" for them
        all, or "board" for the board's read of the tallies."""
        queries = {"board": BOARD_SQL, "records board": RECORDS_BOARD_SQL, **AGGREGATES}
        if not isinstance(name, str) or name not in queries:
            raise ValueError(f"a query is one of {', '.join(queries)}, not {name!r}")
        sql = queries[name]
        with self._connection() as conn:
            rows = conn.execute(f"EXPLAIN QUERY PLAN {sql}", (None,) * sql.count("?")).fetchall()
        return [row[-1] for row in rows]
