"""A board no student can skew, in the pool: records of replayed seeds are stored but left out of
the pooled chances, and a page records no faster than a person can click (the rest is counted
and the counts reach the pool). Both stores, real SQLite and PostgreSQL."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from henkit.classpool import (
    KINDS,
    PERSON,
    ClassStore,
    Limit,
    RateLimiter,
    Recorder,
    RollRecord,
    TurnRecord,
    most_allowed,
    new_page_id,
    read_csv,
)
from henkit.classpool.base import RECORDS_BOARD_SQL
from henkit.classpool.limits import check_limits

from ..fuzz_values import junk, only_value_error
from .test_bad_input import FAST


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def first_roll(worms: int, **stamps) -> RollRecord:
    return RollRecord(8, (8 - worms, 0, 0, 0, 0, worms), frozenset(), False, **stamps)


# ----- the token bucket -------------------------------------------------------------------------


def test_a_bucket_lets_a_burst_then_its_rate_through() -> None:
    """A burst at once, then `rate` a second, each kind on its own; most_allowed says the same."""
    clock = Clock()
    limiter = RateLimiter(PERSON, clock=clock)
    burst = PERSON["roll"].burst
    assert [limiter.allow("roll") for _ in range(burst + 5)] == [True] * burst + [False] * 5
    assert limiter.allow("turn")  # another kind has its own bucket
    clock.now += 2.0  # two seconds: 2 * rate more rolls, not one more
    allowed = sum(limiter.allow("roll") for _ in range(100))
    assert allowed == int(2 * PERSON["roll"].rate)
    assert most_allowed("roll", 2.0) == burst + allowed
    clock.now += 3600  # a long pause fills the bucket up to its burst, never beyond
    assert sum(limiter.allow("roll") for _ in range(1000)) == burst


@pytest.mark.parametrize("kind", KINDS)
def test_a_flood_never_gets_past_most_allowed(kind: str) -> None:
    """Records sent every millisecond for 3 s (a script): what passes is at most most_allowed
    for the time that went by, and at least the rate kept up (the limit is not too tight)."""
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    passed = 0
    for _ in range(3000):
        passed += limiter.allow(kind)
        clock.now += 0.001
    assert passed <= most_allowed(kind, 3.0)
    assert passed >= PERSON[kind].burst + int(PERSON[kind].rate * 3.0) - 1


def test_a_persons_pace_is_never_dropped() -> None:
    """A student rolling as fast as the tray lets a person (a roll every 2 clicks at 10 clicks a
    second, for a minute) loses nothing."""
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    for _ in range(300):
        assert limiter.allow("roll")
        clock.now += 2 / 10


@given(junk())
@FAST
def test_bad_limits_are_value_errors(value: object) -> None:
    only_value_error(Limit, value, 5)
    only_value_error(Limit, 5.0, value)
    only_value_error(check_limits, value)
    only_value_error(most_allowed, value, 1.0)
    only_value_error(most_allowed, "roll", value)
    only_value_error(most_allowed, "roll", 1.0, value)
    only_value_error(RateLimiter, value)
    only_value_error(RateLimiter, PERSON, clock=value)
    only_value_error(RateLimiter(PERSON).allow, value)
    only_value_error(Recorder, None, limits=value)


# ----- the recorder: dropped, counted, and the counts reach the pool ------------------------------


def test_a_recorder_drops_what_is_too_fast_and_the_pool_counts_it(store: ClassStore) -> None:
    """2,000 first rolls at once through a page's recorder: the burst is stored, the rest is
    dropped, counted by kind, and the counts reach the pool's board (once: sent again they add
    nothing); the pooled first rolls are exactly what was stored."""
    clock = Clock()
    rec = Recorder(store, limits=PERSON, clock=clock)
    rec.record_many([first_roll(k % 9) for k in range(2000)])
    rec.record_many([TurnRecord("student", 25, None, 25) for _ in range(30)])
    assert rec.flush()
    burst_r, burst_t = PERSON["roll"].burst, PERSON["turn"].burst
    assert rec.too_fast == {"roll": 2000 - burst_r, "turn": 30 - burst_t, "draw": 0,
                            "barnyard": 0}
    board = store.board()
    assert board.summary.rolls == sum(board.first_rolls.values()) == burst_r
    assert board.left_out == store.left_out() == {("too fast", "roll"): 2000 - burst_r,
                                                  ("too fast", "turn"): 30 - burst_t}
    assert board.summary.too_fast == 2000 - burst_r + 30 - burst_t
    store.add_too_fast(rec.page, rec.too_fast)  # a retry: the same totals, nothing added
    store.add_too_fast(rec.page, {"roll": 3})  # an older, smaller total: nothing changes
    assert store.board().left_out == board.left_out
    assert store.board() == store._read_board(RECORDS_BOARD_SQL, None)  # type: ignore[attr-defined]
    clock.now += 10  # ten seconds later the page may record again, at a person's pace
    rec.record_many([first_roll(1) for _ in range(100)])
    assert rec.flush()
    assert store.board().summary.rolls == burst_r + most_allowed("roll", 10) - burst_r
    rec.close()


def test_without_limits_a_recorder_drops_nothing(store: ClassStore) -> None:
    """A script's recorder (the notebook's demo class, the tests) has no limit unless given."""
    rec = Recorder(store)
    assert rec.limits is None
    rec.record_many([first_roll(2) for _ in range(500)])
    assert rec.flush() and store.board().summary.rolls == 500 and not store.board().left_out
    rec.close()


# ----- fresh seeds only -------------------------------------------------------------------------


def test_records_of_replayed_seeds_are_kept_but_not_pooled(
        store: ClassStore, make_records: Callable) -> None:
    """Random records, a third marked not fresh: every record is stored (export, status), the
    pooled parts count the fresh ones only, the board says how many were left out by kind, and
    the running tallies equal the aggregates over the records."""
    rng = np.random.default_rng(5)
    records = [r.stamped(fresh=bool(rng.random() < 2 / 3)) for r in make_records(900, seed=51)]
    store.add_many(records)
    board = store.board()
    assert board == store._read_board(RECORDS_BOARD_SQL, None)  # type: ignore[attr-defined]
    fresh = [r for r in records if r.fresh]
    firsts = Counter((r.dice, r.worms) for r in fresh if r.kind == "roll" and not r.taken)
    assert board.first_rolls == dict(firsts)
    assert sum(n for _, n in board.busts.values()) == sum(1 for r in fresh if r.kind == "roll")
    assert sum(board.endings.values()) == sum(1 for r in fresh if r.kind == "turn")
    assert sum(board.draws.values()) == sum(1 for r in fresh if r.kind == "draw")
    replayed = Counter(r.kind for r in records if not r.fresh)
    assert board.left_out == {("replayed", k): n for k, n in replayed.items()}
    assert board.summary.records == len(records)
    assert board.summary.replayed == sum(replayed.values())
    assert store.summary() == board.summary
    stored = list(store.records())
    assert sum(not r.fresh for r in stored) == sum(replayed.values())


def test_one_seed_replayed_300_times_does_not_move_the_distance(store: ClassStore) -> None:
    """The issue's attack on the pool: 300 copies of a first roll with 7 worms, marked replayed
    (as the widgets mark a typed seed), leave the pooled first rolls, and so the distance,
    exactly as they were."""
    from henkit.classpool.exact import first_roll_comparisons

    page = new_page_id()
    rng = np.random.default_rng(8)
    honest = [first_roll(int(w), page=page, seq=i) for i, w in enumerate(rng.binomial(8, 1 / 6, 400))]
    store.add_many(honest)
    (before,) = [c for c in first_roll_comparisons(store.board()) if c.n]
    attacker = new_page_id()
    store.add_many([first_roll(7, page=attacker, seq=i, fresh=False) for i in range(300)])
    board = store.board()
    (after,) = [c for c in first_roll_comparisons(board) if c.n]
    assert (after.n, after.distance) == (before.n, before.distance) == (400, before.distance)
    assert board.left_out == {("replayed", "roll"): 300}


def test_the_fresh_mark_reads_back_from_csv(store: ClassStore) -> None:
    """Exported and read back, a record keeps its mark; a CSV from before the column reads as
    fresh."""
    import io

    page = new_page_id()
    store.add_many([first_roll(1, page=page, seq=0), first_roll(2, page=page, seq=1, fresh=False)])
    out = io.StringIO()
    store.export_csv(out)
    back = list(read_csv(io.StringIO(out.getvalue())))
    assert [r.fresh for r in back] == [True, False]
    old = "\n".join(",".join(line.split(",")[:-1]) for line in out.getvalue().splitlines())
    assert [r.fresh for r in read_csv(io.StringIO(old))] == [True, True]
    with pytest.raises(ValueError, match="column 'fresh' is 0 or 1"):
        list(read_csv(io.StringIO(out.getvalue().replace(",0\n", ",x\n"))))


@given(st.one_of(junk(), st.sampled_from(["yes", 1, 0, None])))
@FAST
def test_a_fresh_mark_is_true_or_false(value: object) -> None:
    if not isinstance(value, bool | np.bool_):
        with pytest.raises(ValueError, match="fresh"):
            first_roll(1, fresh=value)
