"""The class pool on a PostgreSQL server: one class served by several servers (a JupyterHub).

psycopg 3 in autocommit mode, every write in an explicit transaction. The schema is created
when missing by whichever server comes first, under a transaction-scoped advisory lock so that
servers starting together do not race. The tables live in the connection's search_path (add
`?options=-csearch_path%3Dmyschema` to the URL to keep several classes apart in one database).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from henkit.checks import whole
from henkit.classpool.base import (
    ADD_FRESH_SQL,
    ADD_PLAYERS_SQL,
    TALLIES_TABLE,
    TALLY_STATEMENTS,
    SQLStore,
    StoreError,
    schema_sql,
)

ADVISORY_LOCK = 0x68656E6B6974  # "henkit": the lock servers take to create the schema
URL = re.compile(r"postgres(ql)?://.*", re.DOTALL)
TALLY_TRIGGER = (
    "CREATE OR REPLACE FUNCTION henkit_tally() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    + "; ".join(TALLY_STATEMENTS) + "; RETURN NULL; END $$",
    ("CREATE OR REPLACE TRIGGER henkit_tally AFTER INSERT ON henkit_records"
     " FOR EACH ROW EXECUTE FUNCTION henkit_tally()"),
)
"""The trigger that keeps the board's tallies (PostgreSQL 14 or later)."""
_HAS_COLUMN = ("SELECT count(*) > 0 FROM information_schema.columns WHERE table_schema ="
               " current_schema() AND table_name = 'henkit_records' AND column_name = '{}'")
PLAYERS_READY = _HAS_COLUMN.format("players")
"""Whether the store has schema 3 (draws keep their game's player count)."""
FRESH_READY = _HAS_COLUMN.format("fresh")
"""Whether the store has schema 4 (records say whether their seed was fresh; the pages' clicks
too fast): made last."""


def hide_password(url: str) -> str:
    """A PostgreSQL URL with its password (if any) replaced by ***."""
    if not isinstance(url, str):
        raise ValueError(f"a PostgreSQL URL is text, not {url!r}"[:300])
    return re.sub(r"^(postgres(?:ql)?://[^/@:]*):[^/@]*@", r"\1:***@", url)


class PostgresStore(SQLStore):
    """A class pool in a PostgreSQL database given by a `postgresql://...` URL."""

    paramstyle = "%s"
    single_statement = True

    def __init__(self, url: str, *, connect_timeout: int = 5) -> None:
        if not isinstance(url, str) or not URL.fullmatch(url):
            raise ValueError(f"a PostgreSQL class pool is a postgresql://... URL, not {url!r}")
        connect_timeout = whole(connect_timeout, "connect_timeout (whole seconds)", 1, 600)
        super().__init__()
        self.url = url
        self.location = hide_password(url)
        self.connect_timeout = connect_timeout

    def __repr__(self) -> str:
        return f"PostgresStore({self.location!r})"

    def _connect(self) -> Any:
        """Connect (autocommit) and create the schema and first session when missing."""
        # Imported here: psycopg takes a kernel 0.15 s to import, and most pools are SQLite.
        try:
            import psycopg
        except ImportError:  # pragma: no cover - henkit's kit installs it
            raise StoreError("the PostgreSQL class pool needs psycopg: pip install "
                             "'psycopg[binary]'") from None
        self.driver_errors = (psycopg.Error,)
        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
        try:
            # Whether each record's seed was fresh came last (schema 4, with the trigger that
            # tallies it and the table of clicks too fast).
            if not conn.execute(FRESH_READY).fetchone()[0]:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK,))
                    cur = conn.cursor()
                    cur.execute("SELECT to_regclass('henkit_records') IS NOT NULL")
                    if cur.fetchone()[0]:
                        if not cur.execute(PLAYERS_READY).fetchone()[0]:
                            for statement in ADD_PLAYERS_SQL:  # a store made before schema 3
                                cur.execute(statement)
                        if not cur.execute(FRESH_READY).fetchone()[0]:
                            for statement in ADD_FRESH_SQL:  # a store made before schema 4
                                cur.execute(statement)
                    for statement in (*schema_sql(
                            "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"),
                            TALLIES_TABLE, *TALLY_TRIGGER):
                        cur.execute(statement)
                    self._fill_tallies(cur)
                    self._first_session(cur)
        except BaseException:
            conn.close()
            raise
        return conn

    @contextmanager
    def _write(self, conn: Any) -> Iterator[Any]:
        """One write transaction (committed when the block ends without an exception)."""
        with conn.transaction():
            yield conn.cursor()

    def _broken(self, conn: Any) -> bool:
        """Whether the connection is closed or lost (then it is reopened on the next call)."""
        return bool(conn.closed or conn.broken)
