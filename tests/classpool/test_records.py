"""Record kinds: what each accepts, what it refuses (ValueError naming what is allowed), its CSV."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.classpool import (
    CSV_COLUMNS,
    BarnyardRecord,
    DrawRecord,
    Record,
    RollRecord,
    TurnRecord,
    new_page_id,
    read_csv,
    write_csv,
)
from henkit.classpool.records import PAGE_ID, check_record, record_from_row
from henkit.hens import State as HensState
from henkit.hens.cards import CARDS
from tests.fuzz_values import junk, only_value_error

PAGE = "0123456789abcdef"
SESSION = "20250114-093000-3fa2c1"


def test_a_roll_and_its_facts() -> None:
    """A roll keeps dice, counts, taken faces and bust; numpy numbers are plain ints after."""
    r = RollRecord(np.int64(5), np.array([0, 2, 0, 1, 0, 2]), [3], np.bool_(False), page=PAGE)
    assert (r.dice, r.counts, r.taken, r.bust, r.worms) == (5, (0, 2, 0, 1, 0, 2),
                                                           frozenset({3}), False, 2)
    assert type(r.dice) is int and all(type(c) is int for c in r.counts)
    assert RollRecord(3, (0, 0, 2, 0, 0, 1), {3, 6}, True).bust
    with pytest.raises(AttributeError):
        r.dice = 4  # type: ignore[misc]


@pytest.mark.parametrize(("args", "words"), [
    ((8, (1, 2, 0, 0, 3, 1), (), False), "adding up to 8"),
    ((8, (1, 2, 0, 0, 3), (), False), "6 counts"),
    ((8, (1, 2, 0, 0, 3, 2, 0), (), False), "6 counts"),
    ((2, (-1, 3, 0, 0, 0, 0), (), False), "at least 0|adding up"),
    ((2, (1.0, 1, 0, 0, 0, 0), (), False), "whole number"),
    ((2, "110000", (), False), "6 counts"),
    ((0, (0, 0, 0, 0, 0, 0), (), False), "the dice rolled"),
    ((21, (21, 0, 0, 0, 0, 0), (), False), "the dice rolled"),
    ((True, (1, 0, 0, 0, 0, 0), (), False), "whole number"),
    ((2, (1, 1, 0, 0, 0, 0), (7,), False), "a die face"),
    ((2, (1, 1, 0, 0, 0, 0), (3, 3), False), "twice"),
    ((2, (1, 1, 0, 0, 0, 0), "3", False), "collection of faces"),
    ((2, (1, 1, 0, 0, 0, 0), (1, 2, 3, 4, 5, 6), True), "every face is taken"),
    ((19, (19, 0, 0, 0, 0, 0), (2, 3), False), "more than the 20 dice"),
    ((2, (1, 1, 0, 0, 0, 0), (1, 2), False), "is a bust"),
    ((2, (1, 1, 0, 0, 0, 0), (1,), True), "is not a bust"),
    ((2, (1, 1, 0, 0, 0, 0), (), 1), "True or False"),
    ((2, (1, 1, 0, 0, 0, 0), (), None), "True or False"),
])
def test_a_roll_that_is_no_roll_is_refused(args: tuple, words: str) -> None:
    """Counts that are not a roll of its dice, impossible taken faces, a bust that the rules
    contradict: ValueError saying what is allowed."""
    with pytest.raises(ValueError, match=words):
        RollRecord(*args)


@pytest.mark.parametrize(("args", "words"), [
    (("student", 25, None, None), "not both or neither"),
    (("student", 25, "bust", 25), "not both or neither"),
    (("student", 25, None, 26), "at most the total"),
    (("student", 25, "timeout", None), "'bust', 'no worm', 'no serving'"),
    (("student", -1, "bust", None), "from 0 to 100, not -1"),
    (("student", 101, "bust", None), "from 0 to 100"),
    (("student", 25.0, "bust", None), "whole number"),
    (("student", 25, None, 0), "from 1 to"),
    (("", 25, "bust", None), "bot's name"),
    (("a" * 41, 25, "bust", None), "bot's name"),
    (("robert'); DROP TABLE", 25, "bust", None), "bot's name"),
    ((None, 25, "bust", None), "bot's name"),
])
def test_a_turn_that_contradicts_itself_is_refused(args: tuple, words: str) -> None:
    """A finished turn took a serving at most its total, or failed for one of the engine's
    reasons; who played is "student" or a bot's name."""
    with pytest.raises(ValueError, match=words):
        TurnRecord(*args)


def test_turns_that_are_allowed() -> None:
    """A serving taken, each failure reason, a bot's name as the engine writes it."""
    assert TurnRecord("student", 27, None, 26).ending == 27
    assert TurnRecord("threshold 25", 12, "no worm").ending == "no worm"
    assert TurnRecord("optimal (steal weight 1)", 0, "bust").serving is None


@pytest.mark.parametrize(("args", "words"), [
    (("deck", "Xx9"), "not a card"),
    (("deck", 48), "out of range"),
    (("deck", -1), "out of range"),
    (("deck", None), "not a card"),
    (("deck", ""), "not a card"),
    (("pile", "Pa3"), "source"),
    ((4, "Pa3"), "source"),
    ((-1, "Pa3"), "source"),
    ((True, "Pa3"), "source"),
    ((1.0, "Pa3"), "source"),
])
def test_a_card_that_does_not_exist_is_refused(args: tuple, words: str) -> None:
    """A draw names a card of the Hens deck and comes from the deck or a seat's pile."""
    with pytest.raises(ValueError, match=words):
        DrawRecord(*args, 4)


@pytest.mark.parametrize(("args", "words"), [
    (("deck", "Pa3", 1), "2, 3 or 4 players"),
    (("deck", "Pa3", 5), "2, 3 or 4 players"),
    (("deck", "Pa3", "2"), "2, 3 or 4 players"),
    ((2, "Pa3", 2), "seats 0 to 1"),
    ((3, "Pa3", 3), "seats 0 to 2"),
])
def test_a_draw_names_its_games_player_count_and_a_seat_of_that_game(args: tuple,
                                                                    words: str) -> None:
    """A draw says how many play (2-4: the deck's breeds depend on it); a pile is a seat's."""
    with pytest.raises(ValueError, match=words):
        DrawRecord(*args)
    assert DrawRecord(1, "Pa3", np.int64(2)).players == 2
    assert DrawRecord("deck", "Pa3", None).players is None  # kept before schema 3


def test_draws_accept_codes_ints_and_cards() -> None:
    """A card given as code (any case), int or Card is kept as its code."""
    assert DrawRecord("deck", "pa3", 2).card == "Pa3"
    assert DrawRecord(np.int64(2), CARDS[47], 3).card == CARDS[47].code
    assert DrawRecord("deck", 0, 2).card == CARDS[0].code


@pytest.mark.parametrize(("args", "words"), [
    (("student", [("largest group", 5)], 6), "sum of its lines"),
    (("student", [("eggs", 5)], 5), "step is one of"),
    (("student", [("medals", 1), ("largest group", 5)], 6), "rulebook's order"),
    (("student", [("medals", 1), ("medals", 1)], 2), "rulebook's order"),
    (("student", "largest group 5", 5), "pairs"),
    (("student", [("medals", 1.5)], 1), "whole number"),
    (("student", [("medals", 1, 2)], 1), "pair"),
    (("Mrs Hen!", [("medals", 1)], 1), "bot's name"),
])
def test_a_barnyard_whose_lines_do_not_add_up_is_refused(args: tuple, words: str) -> None:
    """Score lines name rulebook steps once each, in order; the total is their sum."""
    with pytest.raises(ValueError, match=words):
        BarnyardRecord(*args)


def test_a_barnyard_from_the_engine_score() -> None:
    """A finished barnyard's record from henkit.hens' own Score, lines and total kept."""
    state = HensState.new(2, seed=3)
    score = state.score_sheets()[0]
    r = BarnyardRecord.from_score(score, "greedy")
    assert r.lines == tuple((x.step, x.points) for x in score.lines)
    assert r.total == score.total and r.who == "greedy"


@pytest.mark.parametrize(("stamps", "words"), [
    ({"page": "0123456789ABCDEF"}, "16 lowercase hex"),
    ({"page": "0123456789abcde"}, "16 lowercase hex"),
    ({"page": "Ada Lovelace"}, "16 lowercase hex"),
    ({"seq": -1}, "from 0 to"),
    ({"seq": 1.0}, "whole number"),
    ({"session": "monday"}, "class session id"),
    ({"time": datetime(2025, 1, 1)}, "timezone-aware"),  # naive: refused
    ({"time": "2025-01-01"}, "timezone-aware"),
])
def test_bad_stamps_are_refused(stamps: dict, words: str) -> None:
    """Pages are anonymous random ids; sessions have the store's id form; times know their zone."""
    with pytest.raises(ValueError, match=words):
        DrawRecord("deck", "Pa3", 2, **stamps)


def test_page_ids_are_anonymous_and_random() -> None:
    """new_page_id: 16 hex digits, different every time."""
    ids = {new_page_id() for _ in range(1000)}
    assert len(ids) == 1000 and all(PAGE_ID.fullmatch(i) for i in ids)


def test_only_the_four_kinds_are_records() -> None:
    """A bare Record, a dict, anything else: ValueError naming the four kinds."""
    with pytest.raises(ValueError, match="not a bare Record"):
        Record(page=PAGE)
    for thing in ({"kind": "roll"}, "roll", None, 3):
        with pytest.raises(ValueError, match="RollRecord, TurnRecord, DrawRecord, BarnyardRecord"):
            check_record(thing)


def test_csv_reads_back_to_the_same_records() -> None:
    """Every kind, with and without stamps, through write_csv and read_csv: equal records."""
    time = datetime(2025, 1, 14, 9, 30, 0, 123456, tzinfo=UTC)
    records = [
        RollRecord(8, (1, 2, 0, 0, 3, 2), (), False),
        RollRecord(3, (0, 0, 2, 0, 0, 1), {3, 6}, True, page=PAGE, seq=7, session=SESSION,
                   time=time),
        TurnRecord("student", 25, None, 24, page=PAGE, seq=8),
        TurnRecord("greedy", 0, "bust", session=SESSION),
        DrawRecord("deck", "Ce6", None, time=time),
        DrawRecord(3, "Pa1", 4),
        BarnyardRecord("student", [("largest group", 5), ("medals", -2)], 3, page=PAGE),
        BarnyardRecord("lookahead", [], 0),
    ]
    f = io.StringIO()
    assert write_csv(records, f) == len(records)
    assert f.getvalue().splitlines()[0] == ",".join(CSV_COLUMNS)
    f.seek(0)
    assert list(read_csv(f)) == records


@pytest.mark.parametrize(("row", "words"), [
    ({"kind": "move"}, "kind is one of roll, turn, draw, barnyard"),
    ({"kind": ""}, "kind is one of"),
    ({"kind": "roll", "dice": "8", "bust": "no"}, "'bust' is 0 or 1"),
    ({"kind": "roll", "dice": "eight", "bust": "0"}, "'dice' must be a whole number"),
    ({"kind": "draw", "source": "deck", "card": "Zz1"}, "not a card"),
    ({"kind": "barnyard", "who": "student", "lines": "{", "total": "0"}, "JSON list"),
    ({"kind": "turn", "who": "student", "total": "3", "failure": "bust", "time": "noon"},
     "ISO 8601"),
])
def test_bad_csv_rows_are_refused(row: dict, words: str) -> None:
    """A row of an unknown kind or with a value its kind refuses: ValueError."""
    with pytest.raises(ValueError, match=words):
        record_from_row(row)


def test_a_csv_with_other_columns_is_refused() -> None:
    """read_csv checks the header first."""
    with pytest.raises(ValueError, match="columns kind, session"):
        list(read_csv(io.StringIO("kind,dice\nroll,8\n")))


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from([RollRecord, TurnRecord, DrawRecord, BarnyardRecord]),
       args=st.lists(junk(4), min_size=4, max_size=4), stamp=junk(2))
def test_junk_makes_only_value_errors(kind: type[Record], args: list, stamp: object) -> None:
    """Any values for a record's fields and stamps: a record, or ValueError (nothing else)."""
    fields = {RollRecord: 4, TurnRecord: 4, DrawRecord: 3, BarnyardRecord: 3}[kind]
    only_value_error(kind, *args[:fields])
    for name in ("page", "seq", "session", "time"):
        only_value_error(kind, *args[:fields], **{name: stamp})
    only_value_error(record_from_row, {"kind": kind.kind, **dict.fromkeys(CSV_COLUMNS[1:], "x")})
