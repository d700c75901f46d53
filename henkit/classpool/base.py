"""The class pool's store: one interface (`ClassStore`) and the SQL both databases share (`SQLStore`).

Schema (the same in SQLite and PostgreSQL, `schema_sql`):

- `henkit_sessions(id, started)`: the class sessions; the current one is the latest started.
- `henkit_records`: one row per record, every kind in one table. The columns are the record's
  fields, typed (no JSON payload to pick apart: only a barnyard's score lines are JSON text), so
  the database checks them too, and a kind leaves the others' columns NULL (free in both
  databases). One table keeps "every record, in the order written" (export, status, the
  `(page, seq)` rule that makes writes idempotent) one query, and each board aggregate reads one
  partial covering index made for it, so the mixed kinds never cost a board query anything:

  | index                   | columns                         | rows             | serves          |
  |-------------------------|---------------------------------|------------------|-----------------|
  | henkit_records_session  | session, page, kind             | all              | status, pages   |
  | henkit_first_rolls      | session, dice, worms (+ kind,   | fresh rolls,     | roll_tallies    |
  |                         | taken, fresh)                   | taken = 0        |                 |
  | henkit_roll_busts       | session, dice, n_taken, bust    | fresh rolls      | bust_tallies    |
  | henkit_turn_endings     | session, who, failure, total    | fresh turns      | turn_endings    |
  | henkit_card_draws       | session, source, players, card  | fresh draws      | draw_tallies    |
  | henkit_barnyards        | session, who, total             | barnyards        | summary         |
  | henkit_replayed         | session, kind, fresh            | not fresh        | summary         |
  | (unique)                | page, seq                       | all              | exactly once    |
  | henkit_sessions_started | started, id (henkit_sessions)   | all sessions     | current session |

  (The partial indexes also end with `kind`, and taken and fresh, to cover their queries.)
  `fresh` is 0 for a record of a typed, replayed or pinned seed: stored, counted in the summary,
  left out of the four pooled parts (schema 4). The summary
  counts each kind on its kind's index and the distinct pages by hopping along
  henkit_records_session from page to page (one index search per page, not per record).

  Every aggregate is one statement that reads only its index (the tests check SQLite's query
  plans); all of them in one statement (UNION ALL) is `RECORDS_BOARD_SQL`.
- `henkit_tallies(session, part, i1, i2, t1, t2, n1, n2)`: the board's running counts, one row
  per counter, kept by a trigger on henkit_records (only rows really inserted count). `board()`
  reads them in one statement, one primary-key range: its cost does not grow with the records
  (the tests check that the tallies always equal the aggregates over the records).
- `henkit_too_fast(session, page, kind, n)`: how many records of each kind each page dropped,
  faster than a person can click (`henkit.classpool.limits`): the page's running total.
- Times are whole microseconds since 1970 (UTC); `taken` is a bit mask of the faces taken (bit
  face-1) beside its size `n_taken`; `bust` is 0 or 1; a draw's `source` is -1 for the deck,
  its `players` the game's player count (NULL in a store made before schema 3 kept it).

A record whose `(page, seq)` is already stored is not written again (ON CONFLICT DO NOTHING):
a recorder that cannot tell whether its last write arrived sends it again, and the store keeps
one. Viewers never reach a store: widgets write through a `Recorder`, the class board reads
aggregates (counts, never rows), and only the server's command line exports rows.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Self, TextIO

from henkit.checks import whole
from henkit.classpool.records import (
    COUNT_COLUMNS,
    DECK,
    KINDS,
    BarnyardRecord,
    DrawRecord,
    Record,
    RollRecord,
    TurnRecord,
    check_page,
    check_record,
    check_session,
    write_csv,
)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
DECK_SOURCE = -1
"""How the records table writes a draw from the deck in its `source` column."""

COLUMNS = ("kind", "session", "page", "seq", "time", "dice", *COUNT_COLUMNS, "taken", "n_taken",
           "bust", "who", "total", "failure", "serving", "source", "card", "lines", "players",
           "fresh")
"""The columns of henkit_records besides its `id` (the order records were written)."""


class StoreError(Exception):
    """The class pool cannot be reached or written (file not writable, server down, ...).

    Not bad input (that is ValueError): the same call may work later. A `Recorder` keeps the
    records it could not write and tries again.
    """


class StoreReplaced(StoreError):
    """The class pool's file was deleted or replaced while the store had it open: the store
    writes no more (restart the server to use the file now in its place)."""


@dataclass(frozen=True)
class SessionCount:
    """One class session: its id, when it started, how many records it holds."""

    id: str
    started: datetime
    records: int

    def __post_init__(self) -> None:
        check_session(self.id)
        object.__setattr__(self, "started", check_aware(self.started, "a session's start"))
        object.__setattr__(self, "records", whole(self.records, "a session's records", 0))


@dataclass(frozen=True)
class StoreStatus:
    """Where a store is, its current session, and every session with its number of records."""

    location: str
    current: str
    sessions: tuple[SessionCount, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.location, str):
            raise ValueError(f"a store's location is text, not {self.location!r}"[:300])
        check_session(self.current)
        if isinstance(self.sessions, str | bytes) or not isinstance(self.sessions, Sequence) or \
                not all(isinstance(x, SessionCount) for x in self.sessions):
            raise ValueError(f"sessions are a list of SessionCount, not {self.sessions!r}"[:300])
        object.__setattr__(self, "sessions", tuple(self.sessions))

    def __str__(self) -> str:
        lines = [f"class pool: {self.location}", f"current session: {self.current}"]
        for s in self.sessions:
            mark = "*" if s.id == self.current else " "
            lines.append(f"{mark} {s.id}  started {s.started:%Y-%m-%d %H:%M:%S} UTC  "
                         f"{s.records} record{'' if s.records == 1 else 's'}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Summary:
    """How much a session holds: distinct pages (students' pages), and records of each kind.

    `rolls` ... `barnyards` count every record stored, pooled or not. Two counts say what the
    pooled chances leave out: `replayed`, records stored from games of a typed, replayed or
    pinned seed (`Record.fresh` False); `too_fast`, records the pages dropped because they came
    faster than a person can click (`henkit.classpool.limits`), never stored.
    """

    pages: int = 0
    rolls: int = 0
    turns: int = 0
    draws: int = 0
    barnyards: int = 0
    replayed: int = 0
    too_fast: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, whole(getattr(self, f.name), f"a summary's {f.name}",
                                                   0))

    @property
    def records(self) -> int:
        """Records of every kind stored (pooled or left out as replayed)."""
        return self.rolls + self.turns + self.draws + self.barnyards

    @property
    def left_out(self) -> int:
        """Records left out of the pooled chances: replayed seeds and clicks too fast."""
        return self.replayed + self.too_fast


@dataclass(frozen=True)
class Board:
    """Everything the class board shows of a session, read in one statement (`ClassStore.board`).

    - `first_rolls`: (dice rolled, worms shown) -> how many first rolls of a turn (nothing taken);
    - `busts`: (dice rolled, faces taken before) -> (busts, rolls);
    - `endings`: (who, ending) -> turns; an ending is the total of a turn that took a serving,
      else its failure reason;
    - `draws`: ("deck" or "pile", card code, the game's player count or None when the store
      did not record it) -> draws;
    - `left_out`: (why, kind) -> records left out of the four above, why being "replayed" (a
      typed, replayed or pinned seed: stored, marked) or "too fast" (dropped by its page).

    The four pooled parts count fresh records only (`Record.fresh`).
    """

    session: str | None = None
    """The session read (None when only an aggregate other than the summary was read)."""
    summary: Summary = Summary()
    first_rolls: dict[tuple[int, int], int] = field(default_factory=dict)
    busts: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    endings: dict[tuple[str, int | str], int] = field(default_factory=dict)
    draws: dict[tuple[str, str, int | None], int] = field(default_factory=dict)
    left_out: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.session is not None:
            check_session(self.session)
        if not isinstance(self.summary, Summary):
            raise ValueError(f"a board's summary is a Summary, not {self.summary!r}"[:300])
        for name in ("first_rolls", "busts", "endings", "draws", "left_out"):
            if not isinstance(getattr(self, name), dict):
                raise ValueError(f"a board's {name} is a dict, not {getattr(self, name)!r}"[:300])


def now_us() -> int:
    """The time now in whole microseconds since 1970 (UTC): the store's timestamps."""
    return time.time_ns() // 1000


def check_aware(t: object, what: str = "a time") -> datetime:
    """`t` if it is a timezone-aware datetime, else ValueError."""
    if not isinstance(t, datetime) or t.utcoffset() is None:
        raise ValueError(f"{what} is a timezone-aware datetime, not {t!r}"[:300])
    return t


def to_us(t: datetime) -> int:
    """An aware datetime as whole microseconds since 1970 (UTC), exactly."""
    return (check_aware(t) - EPOCH) // timedelta(microseconds=1)


FIRST_US = to_us(datetime.min.replace(tzinfo=UTC))
"""The earliest time a store timestamp can be (year 1)."""
LAST_US = to_us(datetime.max.replace(tzinfo=UTC))
"""The latest time a store timestamp can be (the end of year 9999)."""


def to_datetime(us: int) -> datetime:
    """A store timestamp (microseconds since 1970) as an aware UTC datetime, exactly."""
    us = whole(us, "a store timestamp (microseconds since 1970)", FIRST_US, LAST_US)
    return EPOCH + timedelta(microseconds=us)


def new_session_id(started_us: int) -> str:
    """A class session id for a session starting at `started_us`: its start and 6 random hex."""
    # From 1970 on: the id's date has four digits (and sessions start now).
    started = whole(started_us, "a session's start (microseconds since 1970)", 0, LAST_US)
    return f"{to_datetime(started):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def record_values(record: Record, session: str | None, time_us: int) -> tuple[Any, ...]:
    """A stamped record as the values of COLUMNS (session None: the store's current one)."""
    check_record(record)
    if session is not None:
        check_session(session)
    time_us = whole(time_us, "a record's time (microseconds since 1970)", FIRST_US, LAST_US)
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(kind=record.kind, session=session, page=record.page, seq=record.seq, time=time_us,
               fresh=int(record.fresh))
    if isinstance(record, RollRecord):
        row.update(zip(COUNT_COLUMNS, record.counts, strict=True))
        row.update(dice=record.dice, taken=sum(1 << (f - 1) for f in record.taken),
                   n_taken=len(record.taken), bust=int(record.bust))
    elif isinstance(record, TurnRecord):
        row.update(who=record.who, total=record.total, failure=record.failure,
                   serving=record.serving)
    elif isinstance(record, DrawRecord):
        row.update(source=DECK_SOURCE if record.source == DECK else record.source,
                   card=record.card, players=record.players)
    elif isinstance(record, BarnyardRecord):
        row.update(who=record.who, total=record.total, lines=json.dumps(record.lines))
    return tuple(row[c] for c in COLUMNS)


def record_from_values(values: Sequence[Any]) -> Record:
    """The record a row of COLUMNS holds; ValueError if the row is not one."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or len(
            values) != len(COLUMNS):
        raise ValueError(f"a row of the records table has the {len(COLUMNS)} values of COLUMNS, "
                         f"not {values!r}"[:300])
    try:
        return _record_from_row(dict(zip(COLUMNS, values, strict=True)))
    except (TypeError, KeyError, AttributeError, OverflowError, json.JSONDecodeError) as e:
        # A row no store writes (the table's columns are typed): say so as bad input.
        raise ValueError(f"not a row of the records table: {e}") from None


def _record_from_row(row: dict[str, Any]) -> Record:
    stamps = {"page": row["page"], "seq": row["seq"], "session": row["session"],
              "time": to_datetime(row["time"]), "fresh": row["fresh"] != 0}
    kind = row["kind"]
    if kind == "roll":
        taken = frozenset(f for f in range(1, 7) if row["taken"] >> (f - 1) & 1)
        return RollRecord(row["dice"], tuple(row[c] for c in COUNT_COLUMNS), taken,
                          bool(row["bust"]), **stamps)
    if kind == "turn":
        return TurnRecord(row["who"], row["total"], row["failure"], row["serving"], **stamps)
    if kind == "draw":
        source = DECK if row["source"] == DECK_SOURCE else row["source"]
        return DrawRecord(source, row["card"], row["players"], **stamps)
    return BarnyardRecord(row["who"], json.loads(row["lines"]), row["total"], **stamps)


def schema_sql(id_column: str) -> tuple[str, ...]:
    """The statements that create the class pool's tables and indexes when missing
    (`id_column`: the database's own words for the row id column, e.g. "id INTEGER PRIMARY KEY")."""
    if not isinstance(id_column, str) or not id_column.startswith("id "):
        raise ValueError(f"id_column is the SQL of the id column, starting 'id ', not "
                         f"{id_column!r}"[:300])
    return (
        ("CREATE TABLE IF NOT EXISTS henkit_sessions ("
        " id TEXT PRIMARY KEY, started BIGINT NOT NULL)"),
        ("CREATE INDEX IF NOT EXISTS henkit_sessions_started"
        " ON henkit_sessions (started, id)"),
        (f"CREATE TABLE IF NOT EXISTS henkit_records ({id_column},"
        " kind TEXT NOT NULL CHECK (kind IN ('roll', 'turn', 'draw', 'barnyard')),"
        " session TEXT NOT NULL, page TEXT NOT NULL, seq BIGINT, time BIGINT NOT NULL,"
        " dice INTEGER, ones INTEGER, twos INTEGER, threes INTEGER, fours INTEGER,"
        " fives INTEGER, worms INTEGER, taken INTEGER, n_taken INTEGER,"
        " bust INTEGER CHECK (bust IN (0, 1)),"
        " who TEXT, total INTEGER, failure TEXT, serving INTEGER, source INTEGER, card TEXT,"
        " lines TEXT, players INTEGER CHECK (players BETWEEN 2 AND 4),"
        f" {FRESH_COLUMN},"
        " UNIQUE (page, seq))"),
        ("CREATE INDEX IF NOT EXISTS henkit_records_session"
        " ON henkit_records (session, page, kind)"),
        # The partial indexes end with the columns of their WHERE so that they cover their
        # queries (SQLite reads the table for a column the index lacks, even a fixed one).
        ("CREATE INDEX IF NOT EXISTS henkit_first_rolls"
        " ON henkit_records (session, dice, worms, kind, taken, fresh)"
        " WHERE kind = 'roll' AND taken = 0 AND fresh = 1"),
        ("CREATE INDEX IF NOT EXISTS henkit_roll_busts"
        " ON henkit_records (session, dice, n_taken, bust, kind, fresh)"
        " WHERE kind = 'roll' AND fresh = 1"),
        ("CREATE INDEX IF NOT EXISTS henkit_turn_endings"
        " ON henkit_records (session, who, failure, total, kind, fresh)"
        " WHERE kind = 'turn' AND fresh = 1"),
        ("CREATE INDEX IF NOT EXISTS henkit_card_draws"
        " ON henkit_records (session, source, players, card, kind, fresh)"
        " WHERE kind = 'draw' AND fresh = 1"),
        ("CREATE INDEX IF NOT EXISTS henkit_replayed"
        " ON henkit_records (session, kind, fresh) WHERE fresh = 0"),
        TOO_FAST_TABLE,
        ("CREATE INDEX IF NOT EXISTS henkit_barnyards"
        " ON henkit_records (session, who, total, kind) WHERE kind = 'barnyard'"),
    )


FRESH_COLUMN = "fresh INTEGER NOT NULL DEFAULT 1 CHECK (fresh IN (0, 1))"
"""Whether a record's game came from a fresh random seed (1) or a typed, replayed or pinned one
(0: stored, left out of the pooled chances). A store made before it reads 1 for its records."""
TOO_FAST_TABLE = (
    "CREATE TABLE IF NOT EXISTS henkit_too_fast ("
    " session TEXT NOT NULL, page TEXT NOT NULL,"
    " kind TEXT NOT NULL CHECK (kind IN ('roll', 'turn', 'draw', 'barnyard')),"
    " n BIGINT NOT NULL CHECK (n >= 0), PRIMARY KEY (session, page, kind))")
"""How many records of each kind each page dropped because they came faster than a person can
click (`henkit.classpool.limits`): one row per page and kind, the page's running total."""
ADD_FRESH_SQL = (
    f"ALTER TABLE henkit_records ADD COLUMN {FRESH_COLUMN}",
    "DROP INDEX IF EXISTS henkit_first_rolls",
    "DROP INDEX IF EXISTS henkit_roll_busts",
    "DROP INDEX IF EXISTS henkit_turn_endings",
    "DROP INDEX IF EXISTS henkit_card_draws",
)
"""Schema 4 on a store made before it: records say whether their seed was fresh (the old ones
were all pooled: 1), and the pooled aggregates' indexes cover it (`schema_sql` makes them again).
The tallies need nothing: every record they counted was a pooled one."""

ADD_PLAYERS_SQL = (
    "ALTER TABLE henkit_records ADD COLUMN players INTEGER CHECK (players BETWEEN 2 AND 4)",
    "DROP INDEX IF EXISTS henkit_card_draws",
)
"""Schema 3 on a store made before it: draws keep their game's player count (the old rows keep
NULL: not recorded), and the draws' index covers it; `schema_sql` then makes the index again.
The tallies need nothing: an old draw's counter has the key a draw without a count gets."""

CURRENT_SESSION_SQL = "SELECT id, started FROM henkit_sessions ORDER BY started DESC, id DESC LIMIT 1"

# The session an aggregate reads: the one given, else the current one, inside the same statement.
_SESSION = "COALESCE(CAST(? AS TEXT), (SELECT id FROM henkit_sessions ORDER BY started DESC, id DESC LIMIT 1))"

# Distinct pages without reading every record: hop from page to page along the (session, page)
# index (a "loose index scan"), one index search per page.
_PAGES = (
    "WITH RECURSIVE hop(page) AS ("
    f"SELECT min(page) FROM henkit_records WHERE session = {_SESSION}"
    " UNION ALL SELECT (SELECT min(page) FROM henkit_records"
    f" WHERE session = {_SESSION} AND page > hop.page)"
    " FROM hop WHERE hop.page IS NOT NULL)"
    " SELECT count(page) FROM hop"
)

# The clicks too fast of a session, by kind (one row per page and kind: a few rows at most).
_TOO_FAST = (
    "SELECT 'too fast', CAST(NULL AS INTEGER), CAST(NULL AS INTEGER), kind, CAST(NULL AS TEXT),"
    " CAST(sum(n) AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT),"
    " CAST(0 AS BIGINT)"
    f" FROM henkit_too_fast WHERE session = {_SESSION} GROUP BY kind")

# Every aggregate returns rows of the same shape (part, i1, i2, t1, t2, n1..n5) so that the
# board can read them all as one UNION ALL.
_I = "CAST(NULL AS INTEGER)"
_T = "CAST(NULL AS TEXT)"
_Z = "CAST(0 AS BIGINT)"
AGGREGATES: dict[str, str] = {
    "roll_tallies":
        f"SELECT 'first', dice, worms, {_T}, {_T}, count(*), {_Z}, {_Z}, {_Z}, {_Z}"
        f" FROM henkit_records WHERE kind = 'roll' AND taken = 0 AND fresh = 1"
        f" AND session = {_SESSION}"
        " GROUP BY dice, worms",
    "bust_tallies":
        f"SELECT 'bust', dice, n_taken, {_T}, {_T}, count(*), sum(bust), {_Z}, {_Z}, {_Z}"
        f" FROM henkit_records WHERE kind = 'roll' AND fresh = 1 AND session = {_SESSION}"
        " GROUP BY dice, n_taken",
    "turn_endings":
        f"SELECT 'turn', total, {_I}, who, failure, count(*), {_Z}, {_Z}, {_Z}, {_Z}"
        f" FROM henkit_records WHERE kind = 'turn' AND fresh = 1 AND session = {_SESSION}"
        " GROUP BY who, failure, total",
    "draw_tallies":
        f"SELECT 'draw', source, players, card, {_T}, count(*), {_Z}, {_Z}, {_Z}, {_Z}"
        f" FROM henkit_records WHERE kind = 'draw' AND fresh = 1 AND session = {_SESSION}"
        " GROUP BY source, players, card",
    "summary":
        f"SELECT 'summary', {_I}, {_I}, {_SESSION}, {_T}, ({_PAGES}),"
        + ", ".join(f"(SELECT count(*) FROM henkit_records WHERE kind = '{kind}'"
                    f" AND session = {_SESSION})" for kind in KINDS)
        # What the pooled parts leave out, by kind: records of replayed seeds, and clicks too
        # fast (dropped by the pages, counted in henkit_too_fast).
        + f" UNION ALL SELECT 'replayed', {_I}, {_I}, kind, {_T}, count(*), {_Z}, {_Z}, {_Z}, {_Z}"
        f" FROM henkit_records WHERE fresh = 0 AND session = {_SESSION} GROUP BY kind"
        + " UNION ALL " + _TOO_FAST,
}
"""Each aggregate query of the class board; its parameters: the session (None: the current), as
many times as it has "?"."""
# The class board reads running tallies, not the records: each record adds one to a few
# counters (a database trigger, so every writer keeps them, and only rows really inserted count:
# a (page, seq) written again adds nothing). A refresh then reads a few hundred rows whatever
# the number of records: over 100,000 records the aggregates above took 32 ms of CPU per refresh
# on SQLite and 65 ms on PostgreSQL (30 boards every 2 s: half a core, a whole core); the
# tallies take well under a millisecond (benchmarks/bench_classpool.py).
# Each tally: its part, its key (two numbers, two texts; -9 and '' where a part has none), what
# it adds to its two counts, and which records it counts. Written once, used for the trigger
# ({r} = "NEW.") and for filling the tallies of a store made before them ({r} = "").
NO_NUMBER, NO_TEXT = -9, "''"
TALLIES: tuple[tuple[str, str, str, str, str, str | None, str], ...] = (
    ("kind", "-9", "-9", "{r}kind", "''", None, "TRUE"),
    ("page", "-9", "-9", "{r}page", "''", None, "TRUE"),
    ("first", "{r}dice", "{r}worms", "''", "''", None,
     "{r}kind = 'roll' AND {r}taken = 0 AND {r}fresh = 1"),
    ("bust", "{r}dice", "{r}n_taken", "''", "''", "{r}bust", "{r}kind = 'roll' AND {r}fresh = 1"),
    ("turn", "{r}total", "-9", "{r}who", "COALESCE({r}failure, '')", None,
     "{r}kind = 'turn' AND {r}fresh = 1"),
    ("draw", "{r}source", "COALESCE({r}players, -9)", "{r}card", "''", None,
     "{r}kind = 'draw' AND {r}fresh = 1"),
    ("replayed", "-9", "-9", "{r}kind", "''", None, "{r}fresh = 0"),
)
_TALLY_KEY = "session, part, i1, i2, t1, t2"


def _tally_statements() -> tuple[str, ...]:
    """The statements a trigger runs for each new record (NEW) to add it to the tallies."""
    out = []
    for part, i1, i2, t1, t2, second, where in TALLIES:
        keys = ", ".join(x.format(r="NEW.") for x in (i1, i2, t1, t2))
        n2 = "0" if second is None else second.format(r="NEW.")
        # "WHERE ..." before ON CONFLICT: SQLite needs it to tell an upsert from a join.
        out.append(f"INSERT INTO henkit_tallies ({_TALLY_KEY}, n1, n2)"
                   f" SELECT NEW.session, '{part}', {keys}, 1, {n2}"
                   f" WHERE {where.format(r='NEW.')}"
                   f" ON CONFLICT ({_TALLY_KEY}) DO UPDATE SET"
                   " n1 = henkit_tallies.n1 + excluded.n1, n2 = henkit_tallies.n2 + excluded.n2")
    return tuple(out)


def _tally_backfill() -> tuple[str, ...]:
    """The statements that fill empty tallies from the records already stored."""
    out = []
    for part, i1, i2, t1, t2, second, where in TALLIES:
        keys = [x.format(r="") for x in (i1, i2, t1, t2)]
        group = ", ".join(["session", *(k for k in keys if not k.startswith(("-", "'")))])
        n2 = "0" if second is None else f"sum({second.format(r='')})"
        out.append(f"INSERT INTO henkit_tallies ({_TALLY_KEY}, n1, n2)"
                   f" SELECT session, '{part}', {', '.join(keys)}, count(*), {n2}"
                   f" FROM henkit_records WHERE {where.format(r='')} GROUP BY {group}")
    return tuple(out)


TALLY_STATEMENTS = _tally_statements()
"""What a trigger runs for each new record (NEW) to add it to the tallies."""
TALLY_BACKFILL = _tally_backfill()
"""What fills empty tallies from the records already stored."""

TALLIES_TABLE = (
    "CREATE TABLE IF NOT EXISTS henkit_tallies ("
    " session TEXT NOT NULL, part TEXT NOT NULL, i1 INTEGER NOT NULL, i2 INTEGER NOT NULL,"
    " t1 TEXT NOT NULL, t2 TEXT NOT NULL, n1 BIGINT NOT NULL, n2 BIGINT NOT NULL,"
    f" PRIMARY KEY ({_TALLY_KEY}))"
)
"""The running tallies the class board reads (one row per counter of a session)."""

_TALLY = f"FROM henkit_tallies WHERE session = {_SESSION}"
BOARD_SQL = (
    f"SELECT part, NULLIF(i1, {NO_NUMBER}), NULLIF(i2, {NO_NUMBER}), NULLIF(t1, {NO_TEXT}),"
    f" NULLIF(t2, {NO_TEXT}), n1, n2, {_Z}, {_Z}, {_Z}"
    f" {_TALLY} AND part IN ('first', 'bust', 'turn', 'draw', 'replayed')"
    f" UNION ALL SELECT 'summary', {_I}, {_I}, {_SESSION}, {_T},"
    f" (SELECT count(*) {_TALLY} AND part = 'page'), "
    + ", ".join(f"COALESCE((SELECT n1 {_TALLY} AND part = 'kind' AND t1 = '{kind}'), 0)"
                for kind in KINDS)
    + " UNION ALL " + _TOO_FAST
)
"""The whole class board in one statement over the tallies (its parameters: the session, once
per "?"): one primary-key range read, a few hundred rows at most."""
RECORDS_BOARD_SQL = " UNION ALL ".join(AGGREGATES.values())
"""The same board computed from the records themselves (what the tallies must always equal)."""


INSERT_ROWS = 500
"""Rows sent to the database at once inside a write (a big batch goes in pieces)."""
ROW_VALUES = "(" + ", ".join(_SESSION if c == "session" else "?" for c in COLUMNS) + ")"
"""One row of an INSERT's VALUES: a record without a session joins the current one, read in
the same statement as the write (so a `henkit class new` cannot come in between)."""


def board_from_rows(session: str | None, rows: Iterable[Sequence[Any]]) -> Board:
    """The Board the aggregate rows (as AGGREGATES return them) describe; ValueError if they
    are not such rows."""
    board = Board(session)  # checks the session
    if isinstance(rows, str | bytes) or not isinstance(rows, Iterable):
        raise ValueError(f"rows are the aggregate queries' rows, not {rows!r}"[:300])
    try:
        _fill_board(board, rows)
    except (TypeError, KeyError, AttributeError, OverflowError) as e:
        raise ValueError(f"not the rows of the class board's aggregates: {e}") from None
    return board


def _fill_board(board: Board, rows: Iterable[Sequence[Any]]) -> None:
    for row in rows:
        if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != 10:
            raise ValueError(f"an aggregate row has 10 values, not {row!r}"[:300])
        part, i1, i2, t1, t2, n1, n2, n3, n4, n5 = row
        if part == "first":
            board.first_rolls[i1, i2] = n1
        elif part == "bust":
            board.busts[i1, i2] = (int(n2), n1)
        elif part == "turn":
            key = (t1, i1 if t2 is None else t2)
            board.endings[key] = board.endings.get(key, 0) + n1
        elif part == "draw":
            key = (DECK if i1 == DECK_SOURCE else "pile", t1, None if i2 is None else int(i2))
            board.draws[key] = board.draws.get(key, 0) + n1
        elif part in ("replayed", "too fast"):
            board.left_out[part, t1] = board.left_out.get((part, t1), 0) + int(n1)
        elif part == "summary":
            # int(): a driver may hand counts back as its own number types.
            object.__setattr__(board, "summary", Summary(*(int(n) for n in (n1, n2, n3, n4, n5))))
            object.__setattr__(board, "session", None if t1 is None else check_session(t1))
    if board.left_out:
        left = {why: sum(n for (w, _), n in board.left_out.items() if w == why)
                for why in ("replayed", "too fast")}
        object.__setattr__(board, "summary", replace(board.summary, replayed=left["replayed"],
                                                     too_fast=left["too fast"]))


class ClassStore(ABC):
    """Where a class pool keeps its records: SQLite (one server) or PostgreSQL (several).

    Bad input is a ValueError and writes nothing; a store that cannot be reached raises
    StoreError. Writes are atomic (`add_many`: all or none) and idempotent per (page, seq).
    """

    location: str
    """Where the store is, for people: a file path or a PostgreSQL URL without its password."""

    @abstractmethod
    def new_session(self) -> str:
        """Start a new class session, which becomes the current one; return its id."""

    @abstractmethod
    def current_session(self) -> str:
        """The current class session's id (the latest started)."""

    @abstractmethod
    def add_many(self, records: Iterable[Record]) -> int:
        """Write records, all or none; return how many were new (a known (page, seq) is skipped)."""

    def add(self, record: Record) -> int:
        """Write one record; return 1, or 0 if its (page, seq) was already stored."""
        return self.add_many([record])

    @abstractmethod
    def add_too_fast(self, page: str, counts: Mapping[str, int]) -> None:
        """Write how many records of each kind `page` dropped so far (clicks too fast): its
        running totals, kept as the largest sent (sending the same totals again adds nothing)."""

    @abstractmethod
    def status(self) -> StoreStatus:
        """Where the store is, its current session, and each session's number of records."""

    @abstractmethod
    def records(self, session: str | None = None) -> Iterator[Record]:
        """Every record (of one session, or of all when None) in the order written."""

    def export_csv(self, file: TextIO, session: str | None = None) -> int:
        """Write every record (of one session, or all) as CSV to a text file; return the count."""
        return write_csv(self.records(session), file)

    @abstractmethod
    def board(self, session: str | None = None) -> Board:
        """Every aggregate of the class board for a session (None: the current), in one query."""

    @abstractmethod
    def aggregate(self, name: str, session: str | None = None) -> Board:
        """One aggregate (a key of AGGREGATES) of a session, as a Board holding only that part."""

    def roll_tallies(self, session: str | None = None) -> dict[tuple[int, int], int]:
        """First rolls of a turn: (dice rolled, worms shown) -> how many."""
        return self.aggregate("roll_tallies", session).first_rolls

    def bust_tallies(self, session: str | None = None) -> dict[tuple[int, int], tuple[int, int]]:
        """Rolls by (dice rolled, faces taken before) -> (busts, rolls)."""
        return self.aggregate("bust_tallies", session).busts

    def turn_endings(self, session: str | None = None) -> dict[tuple[str, int | str], int]:
        """Finished turns by (who, ending) -> how many; an ending is a total or a failure."""
        return self.aggregate("turn_endings", session).endings

    def draw_tallies(self, session: str | None = None) -> dict[tuple[str, str, int | None], int]:
        """Hens draws by ("deck" or "pile", card code, the game's player count) -> how many."""
        return self.aggregate("draw_tallies", session).draws

    def summary(self, session: str | None = None) -> Summary:
        """How many distinct pages and records of each kind a session holds."""
        return self.aggregate("summary", session).summary

    def left_out(self, session: str | None = None) -> dict[tuple[str, str], int]:
        """What a session's pooled chances leave out: (why, kind) -> records, why being
        "replayed" (a typed, replayed or pinned seed: stored, marked) or "too fast" (dropped by
        its page, faster than a person can click; `limits.most_allowed` says how many a page may
        record in a given time)."""
        return self.aggregate("summary", session).left_out

    @abstractmethod
    def close(self) -> None:
        """Close the store's connection (a later call opens a new one)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SQLStore(ClassStore):
    """What the SQLite and PostgreSQL stores share: the schema, the queries, the bookkeeping.

    A subclass says how to connect, how a write transaction starts and ends, how its driver
    writes parameters, and which of its driver's exceptions mean "cannot reach the store". One
    connection per store object, guarded by a lock (widgets may record from several threads)
    and opened again in a forked child process (a connection must not cross a fork).
    """

    paramstyle = "?"
    driver_errors: tuple[type[BaseException], ...] = ()
    single_statement = False
    """Whether a one-statement write skips the explicit transaction (saves a network round
    trip; SQLite keeps BEGIN IMMEDIATE, which costs nothing there)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._conn: Any = None
        self._pid = 0

    # ----- what a database adds ----------------------------------------------------------------

    @abstractmethod
    def _connect(self) -> Any:
        """A new DB-API connection with the schema in place."""

    @abstractmethod
    def _write(self, conn: Any) -> AbstractContextManager[Any]:
        """A context manager for one write transaction: yields a cursor, commits on success."""

    def _broken(self, conn: Any) -> bool:
        """Whether an error left the connection unusable (then it is dropped and reopened)."""
        return False

    # ----- shared -------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether this process holds an open connection (that worked when last used)."""
        return self._conn is not None and self._pid == os.getpid()

    def _sql(self, sql: str) -> str:
        return sql if self.paramstyle == "?" else sql.replace("?", self.paramstyle)

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        with self._lock:
            if self._conn is not None and self._pid != os.getpid():
                self._conn = None  # the parent's connection: leave it to the parent
            try:
                if self._conn is None:
                    self._conn = self._connect()
                    self._pid = os.getpid()
                yield self._conn
            except self.driver_errors as e:
                if self._conn is not None and self._broken(self._conn):
                    self._drop()
                raise StoreError(f"the class pool at {self.location} cannot be used: "
                                 f"{' '.join(str(e).split()) or type(e).__name__}") from e

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and self._pid == os.getpid():
            try:
                conn.close()
            except self.driver_errors:
                pass

    def _current(self, cur: Any) -> tuple[str, int]:
        cur.execute(CURRENT_SESSION_SQL)
        row = cur.fetchone()
        if row is None:
            raise StoreError(f"the class pool at {self.location} has no session")
        return row[0], row[1]

    def _fill_tallies(self, cur: Any) -> None:
        """Inside the schema's write transaction, after the trigger exists: fill the tallies of
        a store made before them from its records (nothing to do for a new store)."""
        cur.execute("SELECT count(*) FROM henkit_tallies")
        if cur.fetchone()[0] == 0:
            for statement in TALLY_BACKFILL:
                cur.execute(statement)

    def _first_session(self, cur: Any) -> None:
        """Inside the schema's write transaction: start the first session of a new store."""
        cur.execute("SELECT count(*) FROM henkit_sessions")
        if cur.fetchone()[0] == 0:
            started = now_us()
            cur.execute(self._sql("INSERT INTO henkit_sessions (id, started) VALUES (?, ?)"),
                        (new_session_id(started), started))

    def new_session(self) -> str:
        """Start a new class session, which becomes the current one; return its id."""
        with self._connection() as conn:
            self._check_writable(conn)
            with self._write(conn) as cur:
                _, latest = self._current(cur)
                started = max(now_us(), latest + 1)  # later than the current even if clocks differ
                session = new_session_id(started)
                cur.execute(self._sql("INSERT INTO henkit_sessions (id, started) VALUES (?, ?)"),
                            (session, started))
        return session

    def current_session(self) -> str:
        """The current class session's id (the latest started)."""
        with self._connection() as conn:
            cur = conn.cursor()
            session, _ = self._current(cur)
            self._end_read(conn)
            return session

    def _end_read(self, conn: Any) -> None:
        """End a read (PostgreSQL opens a transaction for it; SQLite reads in autocommit)."""

    def add_many(self, records: Iterable[Record]) -> int:
        """Write records, all or none; return how many were new (a known (page, seq) is skipped)."""
        if isinstance(records, Record | str | bytes) or not isinstance(records, Iterable):
            raise ValueError(f"add_many takes a list of records (add takes one), not {records!r}")
        batch = [check_record(r) for r in records]
        for r in batch:
            if r.page is None:
                raise ValueError(f"a {r.kind} record needs its page id to be stored (a Recorder "
                                 "stamps its page's; new_page_id makes one)")
        if not batch:
            return 0
        own = {r.session for r in batch} - {None}
        stamp = now_us()
        rows = [record_values(r, r.session, stamp if r.time is None else to_us(r.time))
                for r in batch]
        with self._connection() as conn:
            self._check_writable(conn)
            if len(rows) == 1 and not own and self.single_statement:
                # One statement is atomic by itself: no BEGIN/COMMIT round trips.
                return self._insert(conn.cursor(), rows)
            with self._write(conn) as cur:
                for s in sorted(own):
                    cur.execute(self._sql("SELECT count(*) FROM henkit_sessions WHERE id = ?"),
                                (s,))
                    if cur.fetchone()[0] == 0:
                        raise ValueError(f"this class pool has no session {s!r}: a record keeps "
                                         "its own session only if the store has it")
                return sum(self._insert(cur, rows[i:i + INSERT_ROWS])
                           for i in range(0, len(rows), INSERT_ROWS))

    def add_too_fast(self, page: str, counts: Mapping[str, int]) -> None:
        """Write how many records of each kind `page` dropped so far (clicks too fast): its
        running totals, kept as the largest sent (sending the same totals again adds nothing),
        in the current session. A page open across `henkit class new` carries its total into
        the new session: an over-count of what was left out, never of what is pooled."""
        check_page(page)
        if not isinstance(counts, Mapping) or not set(counts) <= set(KINDS):
            raise ValueError(f"counts are a dict of record kind ({', '.join(KINDS)}) -> how many "
                             f"were dropped, not {counts!r}"[:300])
        rows = [(page, kind, whole(n, f"the {kind} records dropped", 0, 2**62))
                for kind, n in sorted(counts.items()) if n]
        if not rows:
            return
        with self._connection() as conn:
            self._check_writable(conn)
            with self._write(conn) as cur:
                cur.executemany(self._sql(
                    f"INSERT INTO henkit_too_fast (session, page, kind, n) VALUES ({_SESSION}, ?, ?, ?)"
                    " ON CONFLICT (session, page, kind) DO UPDATE SET n = CASE WHEN excluded.n >"
                    " henkit_too_fast.n THEN excluded.n ELSE henkit_too_fast.n END"),
                    [(None, *row) for row in rows])

    def _check_writable(self, conn: Any) -> None:
        """Before a write: StoreError if the store must not be written (e.g. its file was
        replaced). Nothing by default."""

    def _insert(self, cur: Any, rows: list[tuple[Any, ...]]) -> int:
        """Insert rows (one prepared statement, many times); return how many were new."""
        cur.executemany(self._sql(
            f"INSERT INTO henkit_records ({', '.join(COLUMNS)}) VALUES {ROW_VALUES}"
            " ON CONFLICT (page, seq) DO NOTHING"), rows)
        return cur.rowcount

    def status(self) -> StoreStatus:
        """Where the store is, its current session, and each session's number of records."""
        with self._connection() as conn:
            cur = conn.cursor()
            current, _ = self._current(cur)
            cur.execute("SELECT s.id, s.started, count(r.session) FROM henkit_sessions s"
                        " LEFT JOIN henkit_records r ON r.session = s.id"
                        " GROUP BY s.id, s.started ORDER BY s.started, s.id")
            sessions = tuple(SessionCount(i, to_datetime(t), n) for i, t, n in cur.fetchall())
            self._end_read(conn)
        return StoreStatus(self.location, current, sessions)

    def records(self, session: str | None = None) -> Iterator[Record]:
        """Every record (of one session, or of all when None) in the order written."""
        if session is not None:
            check_session(session)
        with self._connection() as conn:
            cur = conn.cursor()
            where = "" if session is None else " WHERE session = ?"
            cur.execute(self._sql(f"SELECT {', '.join(COLUMNS)} FROM henkit_records{where}"
                                  " ORDER BY id"), () if session is None else (session,))
            rows = cur.fetchall()
            self._end_read(conn)
        return (record_from_values(row) for row in rows)

    def _read_board(self, sql: str, session: str | None) -> Board:
        if session is not None:
            check_session(session)
        with self._connection() as conn:
            cur = conn.cursor()
            cur.execute(self._sql(sql), (session,) * sql.count("?"))
            rows = cur.fetchall()
            self._end_read(conn)
        return board_from_rows(session, rows)

    def board(self, session: str | None = None) -> Board:
        """Every aggregate of the class board for a session (None: the current), in one query."""
        return self._read_board(BOARD_SQL, session)

    def aggregate(self, name: str, session: str | None = None) -> Board:
        """One aggregate (a key of AGGREGATES) of a session, as a Board holding only that part."""
        if not isinstance(name, str) or name not in AGGREGATES:
            raise ValueError(f"the class board's aggregates are {', '.join(AGGREGATES)}, "
                             f"not {name!r}"[:300])
        return self._read_board(AGGREGATES[name], session)

    def close(self) -> None:
        """Close the store's connection (a later call opens a new one)."""
        with self._lock:
            self._drop()

