"""What the class pool records: a roll, a finished Henpen turn, a Hens draw, a finished barnyard.

Every record is a frozen dataclass checked when it is built: a record that contradicts itself or
the games' rules (counts that are not a roll, a bust that is not one, a card that does not exist)
is refused with ValueError, so nothing wrong can reach a store. Besides what happened, a record
carries five stamps, all optional when it is built:

- `page`: the anonymous id of the page (notebook or dashboard) that recorded it, 16 hex digits
  (`new_page_id`); no names anywhere. A `Recorder` stamps its own.
- `seq`: the page's own number for the record (0, 1, 2, ...). `(page, seq)` names a record: a
  store writes it once however often it is sent, which is what lets a recorder retry safely.
- `session`, `time`: the class session and the moment (UTC) the store wrote it; the store sets
  both when the record has none.
- `fresh`: True (the default) when the game came from a fresh random seed, a new random
  experiment; False for a seed the student typed, a seed played again, or a seed the lesson
  pinned for everyone. Such a game replays dice or cards already seen, so it proves nothing
  about chance: the store keeps its records (marked) but leaves them out of the pooled chances,
  and the class board says how many it left out.

The CSV form (`CSV_COLUMNS`, `write_csv`, `read_csv`) has one row per record and the same
columns for every kind, empty where a kind has nothing to say; it reads back to equal records.
"""

from __future__ import annotations

import csv
import json
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, fields
from datetime import UTC, datetime
from typing import Any, ClassVar, TextIO

import numpy as np

from henkit.checks import whole
from henkit.henpen.dice import (
    FACES,
    MAX_DICE,
    WORM,
    WORM_VALUE,
    check_dice,
    check_faces,
    check_roll,
)
from henkit.henpen.rules import is_bust, turn_ends_by_itself

PAGE_ID = re.compile(r"[0-9a-f]{16}")
"""A page id: 16 lowercase hex digits (64 random bits), e.g. from `new_page_id()`."""
SESSION_ID = re.compile(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")
"""A class session id: its start (UTC) and 6 random hex digits, e.g. 20250114-093000-3fa2c1."""
WHO = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _:.()+-]{0,39}")
"""Who played: "student", or a bot's name (letters, digits, spaces and :._()+-, at most 40)."""
STUDENT = "student"
MAX_SEAT = 3
"""The highest seat index of a Hens game (2 to 4 players; 0 is player 1)."""
MAX_SERVING = 10_000
MAX_POINTS = 1_000
DECK = "deck"
KINDS = ("roll", "turn", "draw", "barnyard")
"""The record kinds, in the order the store and the CSV list them."""

COUNT_COLUMNS = ("ones", "twos", "threes", "fours", "fives", "worms")
"""How many dice of a roll show each face, in face order (1..5, worm)."""
CSV_COLUMNS = ("kind", "session", "page", "seq", "time", "dice", *COUNT_COLUMNS, "taken", "bust",
               "who", "total", "failure", "serving", "source", "card", "lines", "players",
               "fresh")
"""The CSV columns, the same for every kind (empty where a kind has nothing to say)."""
OLD_CSV_COLUMNS = CSV_COLUMNS[:-2]
"""The CSV columns before draws recorded their game's player count (read as None)."""
PLAYERS_CSV_COLUMNS = CSV_COLUMNS[:-1]
"""The CSV columns before records said whether their seed was fresh (read as fresh)."""


def new_page_id() -> str:
    """A fresh anonymous page id: 16 random hex digits."""
    return secrets.token_hex(8)


def check_page(page: object) -> str:
    """Return `page` if it is a page id (16 lowercase hex digits), else raise ValueError."""
    if not isinstance(page, str) or not PAGE_ID.fullmatch(page):
        raise ValueError(f"a page id is 16 lowercase hex digits (see new_page_id), not {page!r}")
    return page


def check_session(session: object) -> str:
    """Return `session` if it is a class session id, else raise ValueError."""
    if not isinstance(session, str) or not SESSION_ID.fullmatch(session):
        raise ValueError("a class session id looks like 20250114-093000-3fa2c1 (its start and six "
                         f"hex digits, as `henkit class new` prints it), not {session!r}")
    return session


def check_who(who: object) -> str:
    """Return `who` if it is "student" or a bot's name, else raise ValueError."""
    if not isinstance(who, str) or not WHO.fullmatch(who):
        raise ValueError(f'who played is "{STUDENT}" or a bot\'s name (1 to 40 letters, digits, '
                         f"spaces or :._()+-, starting with a letter or digit), not {who!r}")
    return who


def _check_time(time: object) -> datetime | None:
    if time is None:
        return None
    if not isinstance(time, datetime) or time.utcoffset() is None:
        raise ValueError(f"a record's time is a timezone-aware datetime or None, not {time!r}")
    return time.astimezone(UTC)


@dataclass(frozen=True)
class Record:
    """What every record carries besides what happened: its page, number, session and time."""

    kind: ClassVar[str] = ""
    _: KW_ONLY
    page: str | None = None
    seq: int | None = None
    session: str | None = None
    time: datetime | None = None
    fresh: bool = True

    def __post_init__(self) -> None:
        if type(self) is Record:
            raise ValueError("a record is one of RollRecord, TurnRecord, DrawRecord, "
                             "BarnyardRecord, not a bare Record")
        if self.page is not None:
            check_page(self.page)
        if self.seq is not None:
            object.__setattr__(self, "seq", whole(self.seq, "a record's seq (its page's own "
                                                  "number for it)", 0, 2**62))
        if self.session is not None:
            check_session(self.session)
        object.__setattr__(self, "time", _check_time(self.time))
        if not isinstance(self.fresh, bool | np.bool_):
            raise ValueError(f"fresh (a game from a fresh random seed) is True or False, not "
                             f"{self.fresh!r}"[:300])
        object.__setattr__(self, "fresh", bool(self.fresh))

    def stamped(self, **stamps: Any) -> Record:
        """This record with the stamps given (page, seq, session, time, fresh) replacing its own."""
        unknown = set(stamps) - {"page", "seq", "session", "time", "fresh"}
        if unknown:
            raise ValueError(f"a record's stamps are page, seq, session, time and fresh, not "
                             f"{', '.join(sorted(unknown))}")
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return type(self)(**{**values, **stamps})

    def to_row(self) -> dict[str, str]:
        """The record as one CSV row (every column of CSV_COLUMNS, text)."""
        row = dict.fromkeys(CSV_COLUMNS, "")
        row.update(kind=self.kind, session=self.session or "", page=self.page or "",
                   seq="" if self.seq is None else str(self.seq),
                   time="" if self.time is None else self.time.isoformat(timespec="microseconds"),
                   fresh=str(int(self.fresh)))
        row.update(self._fields_row())
        return row

    def _fields_row(self) -> dict[str, str]:
        raise NotImplementedError


def _faces_text(faces: frozenset[int]) -> str:
    return " ".join(map(str, sorted(faces)))


@dataclass(frozen=True)
class RollRecord(Record):
    """A Henpen roll: dice rolled, how many show each face, faces taken before it, bust or not.

    `counts` are six numbers (dice showing 1s..5s, worms) adding up to `dice`; `taken` the faces
    set aside earlier this turn (1..5, 6 for the worm). `bust` must be what the rules say of this
    roll: it shows only faces already taken (rulebook, Failed turns).
    """

    kind: ClassVar[str] = "roll"
    dice: int
    counts: tuple[int, ...]
    taken: frozenset[int]
    bust: bool

    def __post_init__(self) -> None:
        super().__post_init__()
        dice = check_dice(self.dice, "the dice rolled", low=1)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "counts", check_roll(self.counts, dice))
        taken = check_faces(self.taken, "the faces taken before a roll")
        object.__setattr__(self, "taken", taken)
        if turn_ends_by_itself(dice, len(taken)):
            raise ValueError("no roll comes after every face is taken: the turn has ended "
                             f"(decision P5); taken was {_faces_text(taken)}")
        if len(taken) + dice > MAX_DICE:
            raise ValueError(f"{dice} dice rolled after taking {len(taken)} faces (a die or more "
                             f"each) is more than the {MAX_DICE} dice a turn may have")
        if not isinstance(self.bust, bool | np.bool_):
            raise ValueError(f"bust is True or False, not {self.bust!r}")
        object.__setattr__(self, "bust", bool(self.bust))
        rules_say = is_bust(self.counts, tuple(int(f in taken) for f in FACES))
        if self.bust != rules_say:
            raise ValueError(
                f"this roll {'is' if rules_say else 'is not'} a bust (counts {self.counts}, "
                f"taken {_faces_text(taken) or 'nothing'}), but bust={self.bust}: a roll is a "
                "bust exactly when it shows only faces already taken")

    @property
    def worms(self) -> int:
        """How many dice show a worm."""
        return self.counts[WORM - 1]

    def _fields_row(self) -> dict[str, str]:
        return {"dice": str(self.dice), **dict(zip(COUNT_COLUMNS, map(str, self.counts), strict=True)),
                "taken": _faces_text(self.taken), "bust": str(int(self.bust))}


@dataclass(frozen=True)
class TurnRecord(Record):
    """A finished Henpen turn: who played it, its end total, and the serving taken or why it failed.

    `who` is "student" or a bot's name. A turn that took a serving has `serving` and no `failure`
    (decision P4: the serving is at most the total); a failed turn has a `failure` (one of the
    engine's reasons: bust, no worm, no serving) and no serving.
    """

    kind: ClassVar[str] = "turn"
    who: str
    total: int
    failure: str | None = None
    serving: int | None = None

    def __post_init__(self) -> None:
        from henkit.henpen.state import FAILURES  # the engine: imported once a turn is recorded

        super().__post_init__()
        check_who(self.who)
        object.__setattr__(self, "total", whole(self.total, "a turn's total", 0,
                                                WORM_VALUE * MAX_DICE))
        if self.failure is not None and self.failure not in FAILURES:
            raise ValueError(f"a turn's failure is one of {', '.join(map(repr, FAILURES))} or "
                             f"None (it took a serving), not {self.failure!r}")
        if self.serving is not None:
            object.__setattr__(self, "serving", whole(self.serving, "the serving taken", 1,
                                                      MAX_SERVING))
        if (self.failure is None) == (self.serving is None):
            raise ValueError("a finished turn either took a serving (serving=N, failure=None) or "
                             "failed (failure=reason, serving=None), not both or neither; got "
                             f"serving={self.serving!r}, failure={self.failure!r}")
        if self.serving is not None and self.serving > self.total:
            raise ValueError(f"a total of {self.total} cannot take serving {self.serving}: a "
                             "serving taken is at most the total (decision P4)")

    @property
    def ending(self) -> int | str:
        """How the turn ended: its total when it took a serving, else the failure reason."""
        return self.total if self.failure is None else self.failure

    def _fields_row(self) -> dict[str, str]:
        return {"who": self.who, "total": str(self.total), "failure": self.failure or "",
                "serving": "" if self.serving is None else str(self.serving)}


@dataclass(frozen=True)
class DrawRecord(Record):
    """A Hens draw: from the deck (`source="deck"`) or a player's pile (their seat, 0-3), the
    card drawn (a code like "Pa3", or a card of `henkit.hens.cards`), and how many players the
    game has (2-4: the rules take breeds out of a 2- or 3-player deck, so the chance of drawing
    a breed depends on it). `players` is None only for a draw a store kept before it recorded
    the player count."""

    kind: ClassVar[str] = "draw"
    source: str | int
    card: str
    players: int | None

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.source, str) and self.source == DECK:
            object.__setattr__(self, "source", DECK)
        else:
            object.__setattr__(self, "source", whole(
                self.source, f'a draw\'s source ("{DECK}" or the seat of the player whose pile '
                "it is, 0 is player 1)", 0, MAX_SEAT))
        # The engine's own card table says which cards exist; the record keeps the code.
        from henkit.hens.cards import card as hens_card  # the Hens engine, only for a draw
        from henkit.hens.rules import check_players

        object.__setattr__(self, "card", hens_card(self.card).code)
        if self.players is not None:
            object.__setattr__(self, "players", check_players(self.players))
        if self.source != DECK and self.players is not None and self.source >= self.players:
            raise ValueError(f"a {self.players}-player game has seats 0 to {self.players - 1}: "
                             f"no pile of seat {self.source} to draw from")

    def _fields_row(self) -> dict[str, str]:
        return {"source": str(self.source), "card": self.card,
                "players": "" if self.players is None else str(self.players)}


def _score_line(line: object) -> tuple[str, int]:
    if isinstance(line, Mapping):
        step, points = line.get("step"), line.get("points")
    elif hasattr(line, "step") and hasattr(line, "points"):
        step, points = line.step, line.points  # a henkit.hens ScoreLine
    elif isinstance(line, Sequence) and not isinstance(line, str | bytes) and len(line) == 2:
        step, points = line
    else:
        raise ValueError(f"a score line is a (step, points) pair, not {line!r}")
    from henkit.hens.scoring import STEPS  # the Hens engine, only for a barnyard

    if step not in STEPS:
        raise ValueError(f"a score line's step is one of {', '.join(map(repr, STEPS))}, "
                         f"not {step!r}")
    return step, whole(points, f"the points of {step!r}", -MAX_POINTS, MAX_POINTS)


@dataclass(frozen=True)
class BarnyardRecord(Record):
    """A finished Hens barnyard: who built it, its score lines (rulebook step, points), its total.

    Lines name each rulebook step at most once, in the rulebook's order; `total` is their sum.
    """

    kind: ClassVar[str] = "barnyard"
    who: str
    lines: tuple[tuple[str, int], ...]
    total: int

    def __post_init__(self) -> None:
        super().__post_init__()
        from henkit.hens.scoring import STEPS

        check_who(self.who)
        if isinstance(self.lines, str | bytes | Mapping) or not isinstance(self.lines, Iterable):
            raise ValueError(f"a barnyard's lines are (step, points) pairs, not {self.lines!r}")
        lines = tuple(_score_line(x) for x in self.lines)
        steps = [s for s, _ in lines]
        if steps != sorted(steps, key=STEPS.index) or len(set(steps)) != len(steps):
            raise ValueError(f"a barnyard's lines name each step once, in the rulebook's order "
                             f"({', '.join(STEPS)}), not {', '.join(steps)}")
        object.__setattr__(self, "lines", lines)
        total = whole(self.total, "a barnyard's total", -len(STEPS) * MAX_POINTS,
                      len(STEPS) * MAX_POINTS)
        if total != sum(p for _, p in lines):
            raise ValueError(f"a barnyard's total is the sum of its lines "
                             f"({sum(p for _, p in lines)}), not {total}")
        object.__setattr__(self, "total", total)

    @classmethod
    def from_score(cls, score: Any, who: str = STUDENT, **stamps: Any) -> BarnyardRecord:
        """The record of a finished barnyard from its `henkit.hens` Score (lines and total)."""
        lines, total = getattr(score, "lines", None), getattr(score, "total", None)
        if isinstance(lines, str | bytes | Mapping) or not isinstance(lines, Iterable):
            raise ValueError(f"score must be a henkit.hens Score (with lines and a total), "
                             f"not {score!r}"[:300])
        return cls(who, tuple(lines), total, **stamps)

    def _fields_row(self) -> dict[str, str]:
        return {"who": self.who, "total": str(self.total),
                "lines": json.dumps([list(x) for x in self.lines])}


RECORD_TYPES: dict[str, type[Record]] = {
    t.kind: t for t in (RollRecord, TurnRecord, DrawRecord, BarnyardRecord)}
"""Each record kind's class, by kind name."""


def check_record(record: object) -> Record:
    """Return `record` if it is a record of a known kind, else raise ValueError."""
    if not isinstance(record, Record) or type(record) not in RECORD_TYPES.values():
        kinds = ", ".join(t.__name__ for t in RECORD_TYPES.values())
        text = repr(record)
        raise ValueError(f"a class pool record is one of {kinds}, not "
                         f"{text if len(text) <= 60 else text[:57] + '...'}")
    return record


def _int(row: Mapping[str, str], column: str) -> int:
    try:
        return int(row[column])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"column {column!r} must be a whole number, not "
                         f"{row.get(column)!r}") from None


def _faces(text: object) -> frozenset[int]:
    if not isinstance(text, str):
        raise ValueError(f"column 'taken' is text, not {text!r}"[:300])
    try:
        return frozenset(int(x) for x in text.split())
    except ValueError:
        raise ValueError(f"column 'taken' lists faces 1 to {WORM} separated by spaces, "
                         f"not {text!r}") from None


def record_from_row(row: Mapping[str, str]) -> Record:
    """The record a CSV row (as `Record.to_row` writes it) describes; ValueError if none."""
    if not isinstance(row, Mapping):
        raise ValueError(f"a CSV row is a mapping of column -> text, not {row!r}")
    kind = row.get("kind")
    if not isinstance(kind, str) or kind not in RECORD_TYPES:
        raise ValueError(f"a record's kind is one of {', '.join(KINDS)}, not {kind!r}")
    stamps: dict[str, Any] = {
        "page": row.get("page") or None,
        "seq": _int(row, "seq") if row.get("seq") else None,
        "session": row.get("session") or None,
        "time": None,
        "fresh": True,
    }
    if row.get("fresh"):  # empty or missing: a CSV from before the column (every seed fresh)
        if row["fresh"] not in ("0", "1"):
            raise ValueError(f"column 'fresh' is 0 or 1, not {row['fresh']!r}"[:300])
        stamps["fresh"] = row["fresh"] == "1"
    if row.get("time"):
        try:
            stamps["time"] = datetime.fromisoformat(row["time"])
        except (TypeError, ValueError):
            raise ValueError(f"column 'time' is an ISO 8601 time, not {row['time']!r}") from None
    if kind == "roll":
        if not isinstance(row.get("bust"), str) or row["bust"] not in ("0", "1"):
            raise ValueError(f"column 'bust' is 0 or 1, not {row.get('bust')!r}")
        return RollRecord(_int(row, "dice"), tuple(_int(row, c) for c in COUNT_COLUMNS),
                          _faces(row.get("taken") or ""), row["bust"] == "1", **stamps)
    if kind == "turn":
        serving = _int(row, "serving") if row.get("serving") else None
        return TurnRecord(row.get("who"), _int(row, "total"), row.get("failure") or None,
                          serving, **stamps)
    if kind == "draw":
        source = row.get("source")
        return DrawRecord(DECK if isinstance(source, str) and source == DECK
                          else _int(row, "source"), row.get("card"),
                          _int(row, "players") if row.get("players") else None, **stamps)
    try:
        lines = json.loads(row.get("lines") or "")
    except (TypeError, ValueError):
        raise ValueError(f"column 'lines' is a JSON list of [step, points] pairs, not "
                         f"{row.get('lines')!r}") from None
    return BarnyardRecord(row.get("who"), lines, _int(row, "total"), **stamps)


def write_csv(records: Iterable[Record], file: TextIO) -> int:
    """Write records as CSV (a header, then one row per record) to a text file; return the count."""
    if not callable(getattr(file, "write", None)):
        raise ValueError(f"file must be a text file open for writing, not {file!r}"[:300])
    if isinstance(records, Record | str | bytes | Mapping) or not isinstance(records, Iterable):
        raise ValueError(f"records must be a list of class pool records, not {records!r}"[:300])
    writer = csv.DictWriter(file, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for record in records:
        writer.writerow(check_record(record).to_row())
        n += 1
    return n


def read_csv(file: TextIO) -> Iterator[Record]:
    """The records of a CSV file written by `write_csv` (or `henkit class export --csv`).

    ValueError (when the records are read) for anything but such a file: a text file, or
    any iterable of its lines."""
    if isinstance(file, str | bytes | Mapping) or not (
            callable(getattr(file, "read", None)) or isinstance(file, Iterable)):
        raise ValueError(f"file must be a text file open for reading, not {file!r}"[:300])
    try:
        reader = csv.DictReader(file)
        if tuple(reader.fieldnames or ()) not in (CSV_COLUMNS, PLAYERS_CSV_COLUMNS,
                                                        OLD_CSV_COLUMNS):
            raise ValueError(f"a class pool CSV has the columns {', '.join(CSV_COLUMNS)}, not "
                             f"{', '.join(map(str, reader.fieldnames or ())) or 'none'}"[:300])
        for row in reader:
            yield record_from_row(row)
    except (csv.Error, TypeError, UnicodeDecodeError) as e:
        # Not CSV text (lines that are not text, a NUL byte, ...): bad input, not a crash.
        raise ValueError(f"not a class pool CSV file: {e}") from None
