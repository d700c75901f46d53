"""The class pool in an SQLite file: the embedded default, for a class served by one server.

WAL mode lets the board read while widgets write; writers take the lock at the start of their
transaction (BEGIN IMMEDIATE) and wait for each other up to `timeout` seconds (SQLite's busy
timeout), so thirty kernels writing at once queue instead of failing. `synchronous=NORMAL`: a
commit survives the writing process being killed (it is in the WAL file when the call returns);
a power cut may lose the last commits, which a class pool can afford.

A pool file deleted or replaced under a running server (`rm`, a copy put in its place) is
noticed: the store remembers the file it opened (device and inode) and compares before every
write and every board read. An open connection would go on writing into the deleted file, and
a new page would make a new, empty pool, both silently; instead the store stops for good
(`StoreReplaced`, a StoreError: a Recorder keeps its records in memory and says so), logs it on
the server's log, saves what the deleted file held beside it (`rescue_path`, written once per
lost file, from the connection that still holds it) and tells the board.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from henkit.classpool.base import (
    ADD_FRESH_SQL,
    ADD_PLAYERS_SQL,
    AGGREGATES,
    BOARD_SQL,
    RECORDS_BOARD_SQL,
    TALLIES_TABLE,
    TALLY_STATEMENTS,
    SQLStore,
    StoreError,
    StoreReplaced,
    schema_sql,
)

LOG = logging.getLogger("henkit.classpool")
SCHEMA_VERSION = 4
"""The schema this henkit writes (SQLite's `PRAGMA user_version`): 2 added the board's tallies
(a store of schema 1 gets them, filled from its records, when first opened), 3 each draw's
player count (`ADD_PLAYERS_SQL`), 4 whether a record's seed was fresh and the pages' clicks too
fast (`ADD_FRESH_SQL`, `TOO_FAST_TABLE`)."""
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
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file opened
        self.replaced: str | None = None
        """Why the store stopped (its file deleted or replaced), or None."""
        self.rescue_path: Path | None = None
        """Where what the lost file held was saved (None when nothing was saved)."""

    def __repr__(self) -> str:
        return f"SQLiteStore({self.location!r})"

    def _file_identity(self) -> tuple[int, int] | None:
        """The pool file's (device, inode) now, or None when there is no file."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def _connect(self) -> sqlite3.Connection:
        """Open the file (and its folder, schema and first session if missing) in WAL mode."""
        if self.replaced is not None:
            raise StoreReplaced(self.replaced)
        if self._identity is not None and self._file_identity() != self._identity:
            # Opening again would make a new, empty pool (or another file's) without a word.
            self._stop_replaced(None)
        wal = self.path.with_name(self.path.name + "-wal")
        if self._identity is None and not self.path.exists() and wal.exists():
            # No pool file but its write-ahead log: the file was deleted while writers had it
            # open (SQLite keeps the log of a deleted file). A new pool here would start empty
            # without a word, and the old log, not its own, would be read into it.
            lost = sorted(self.path.parent.glob(f"{self.path.name}.lost-*"))
            self.replaced = (
                f"the class pool file {self.location} is missing but its write-ahead log {wal} "
                "is there: the file was deleted while a server had it open. Nothing is written. "
                f"To start a new pool, move {wal.name} and {self.path.name}-shm away; to go on "
                "with the old one, put its file back"
                + (f" (a copy of what it held: {lost[-1]})." if lost else "."))
            LOG.error("%s", self.replaced)
            raise StoreReplaced(self.replaced)
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
                    if columns and "fresh" not in columns:
                        # Before schema 4: the trigger and indexes pool every record.
                        for statement in (*ADD_FRESH_SQL, "DROP TRIGGER IF EXISTS henkit_tally"):
                            cur.execute(statement)
                    for statement in (*schema_sql("id INTEGER PRIMARY KEY"), TALLIES_TABLE,
                                      TALLY_TRIGGER):
                        cur.execute(statement)
                    self._fill_tallies(cur)
                    self._first_session(cur)
                    cur.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            identity = self._file_identity()
        except BaseException:
            conn.close()
            raise
        if self._identity is None:
            self._identity = identity
        return conn

    def _check_same(self, conn: Any) -> None:
        """StoreReplaced if the pool file is no longer the one this store opened."""
        if self.replaced is not None:
            raise StoreReplaced(self.replaced)
        if self._identity is not None and self._file_identity() != self._identity:
            self._stop_replaced(conn)

    _check_writable = _check_same

    def _stop_replaced(self, conn: Any) -> None:
        """Stop for good: save what the lost file holds (from `conn`, which still has it open),
        log it, and raise StoreReplaced."""
        gone = self._file_identity() is None
        what = "deleted" if gone else "replaced by another file"
        saved = ""
        if conn is not None:
            dev, ino = self._identity or (0, 0)
            rescue = self.path.with_name(f"{self.path.name}.lost-{dev}-{ino}")
            try:
                # One copy per lost file, whichever of the server's writers comes first ("x").
                with open(rescue, "x"):
                    pass
                target = sqlite3.connect(rescue)
                try:
                    conn.backup(target)
                finally:
                    target.close()
                self.rescue_path = rescue
                saved = f"; what it held is saved in {rescue}"
            except FileExistsError:
                self.rescue_path = rescue
                saved = f"; what it held is saved in {rescue}"
            except (sqlite3.Error, OSError) as e:
                saved = f"; what it held could not be saved ({e})"
        if conn is None and self._identity is not None:
            saved = "; what it held could not be saved (no connection had it open)"
        self.replaced = (f"the class pool file {self.location} was {what} while the server "
                         f"was running{saved}: nothing more is written to it. Restart the "
                         "server to use the pool file now in its place.")
        LOG.error("%s (noticed %s)", self.replaced, time.strftime("%H:%M:%S"))
        self._drop()
        raise StoreReplaced(self.replaced)

    def _read_board(self, sql: str, session: str | None) -> Any:
        """A board read, refused once the pool file is gone (it would show a lost pool)."""
        with self._connection() as conn:
            self._check_same(conn)
        return super()._read_board(sql, session)

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
