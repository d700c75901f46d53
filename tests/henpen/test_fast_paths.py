"""The speed layer over Henpen's rules gives what the rules give.

`State.apply` builds the next state without the constructor's checks, keeps memos of pure
functions of a state (its claims, the faces its roll offers, the facts of its kept dice),
`State.new` hands out one cached start per (players, rules, first player), `check_roll` knows
the engine's own rolls at a glance, and the greedy bots cache their face choice. Each is
checked here against the rule functions and the checked constructor, on every state of games
played with several rules and bots.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from henkit.core import play_out
from henkit.henpen import ROLL, Rules, State, Stop, Take
from henkit.henpen.advice import Position, optimal_action
from henkit.henpen.bots import GreedyBot, RandomBot, ThresholdBot, make_bot, most_points_face
from henkit.henpen.dice import FACES, VALUES, check_roll, roll_outcomes, sample_roll
from henkit.henpen.rules import (
    is_bust,
    legal_claims,
    may_stop,
    takeable_faces,
    turn_ends_by_itself,
)
from henkit.henpen.state import STATE_FIELDS, Phase
from henkit.henpen.turnspace import take_preference

RULES = [Rules(), Rules.pickomino(), Rules(dice=5, flip_when_nothing_returned=True),
         Rules(dice=11, keep_returned_if_highest=True)]


def game_states(rules: Rules, players: int, seed: int, bots=None):
    """Every state of one game between bots (random ones by default), start to end."""
    seen: list[State] = []
    start = State.new(players, rules)
    seen.append(start)
    play_out(start, bots or [RandomBot()] * players, seed,
             observer=lambda before, step, after: seen.append(after))
    return seen


def rebuilt(s: State) -> State:
    """The same state through the checked constructor (every field checked, then validate)."""
    return State(**{f: getattr(s, f) for f in STATE_FIELDS})


def check_against_rules(s: State) -> None:
    kept = s.kept
    total = sum(c * v for c, v in zip(kept, VALUES, strict=True))
    assert s.total == total
    assert s.dice_left == s.rules.dice - sum(kept)
    assert s.has_worm == may_stop(kept)
    ended = turn_ends_by_itself(s.dice_left, sum(1 for c in kept if c))
    me = s.player
    own = s.stacks[me][-1] if s.stacks[me] else None
    tops = {p: st[-1] for p, st in enumerate(s.stacks) if st and p != me}
    claims = legal_claims(total, s.grill, own, tops)
    assert s.claims() == claims
    acts = s.legal_actions()
    if s.phase is Phase.TAKE:
        assert s.takeable == tuple(takeable_faces(s.roll, kept))
        assert not is_bust(s.roll, kept)
        assert acts == [Take(f) for f in takeable_faces(s.roll, kept)]
        assert most_points_face(s) == min(takeable_faces(s.roll, kept),
                                          key=lambda f: take_preference(f, s.roll[f - 1]))
    else:
        assert s.takeable == ()
    if s.phase is Phase.DECIDE:
        stops = [Stop(c) for c in claims] if may_stop(kept) else []
        assert acts == ([] if ended else [ROLL]) + stops
    # A state built by apply is the state the checked constructor builds from its fields.
    again = rebuilt(s)
    assert again == s and hash(again) == hash(s)
    assert State.from_dict(s.to_dict()) == s


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"dice{r.dice}")
@pytest.mark.parametrize("players", [1, 3])
def test_every_state_of_random_games_agrees_with_the_rules_and_the_checked_constructor(rules, players):
    states = game_states(rules, players, players)
    assert states[-1].is_over
    for s in states:
        check_against_rules(s)


@pytest.mark.parametrize("kind", ["greedy", "threshold:25", "optimal"])
def test_every_state_of_bot_games_agrees_with_the_rules_and_the_checked_constructor(kind):
    for s in game_states(Rules(), 3, 7, [make_bot(kind) for _ in range(3)]):
        check_against_rules(s)


def test_memos_are_not_shared_between_a_state_and_the_next():
    # Claims at a total of 0 (nothing kept) must not leak into the state after a take.
    rng = np.random.default_rng(3)
    s = State.new(2)
    s.claims()
    s = s.apply(ROLL)
    s = s.apply(s.sample_chance(rng))
    assert s.claims() == []
    after = s.apply(Take(s.takeable[0]))
    check_against_rules(after)


@pytest.mark.parametrize("rules", [None, *RULES])
@pytest.mark.parametrize("players", [1, 2, 7])
def test_new_states_are_the_checked_start_and_the_same_every_time(rules, players):
    first = State.new(players, rules, first_player=players - 1)
    r = rules or Rules()
    checked = State(r, r.tiles, ((),) * players, (), player=players - 1)
    assert first == checked and first.rules == r
    assert State.new(players, rules, first_player=players - 1, seed=5) == first
    assert State.new(players, rules) == State(r, r.tiles, ((),) * players, ())
    # A position for a lesson is set up afresh (servings in neither place are out of play).
    lesson = State.new(players, rules, grill=r.tiles[:-1], stacks=[()] * players)
    assert lesson.out_of_play == r.tiles[-1:]


def test_a_cached_start_plays_the_same_game_as_a_fresh_one():
    bots = [GreedyBot(), ThresholdBot(27)]
    fresh = State(Rules(), Rules().tiles, ((), ()), ())
    assert play_out(State.new(2), bots, 11) == play_out(fresh, bots, 11)


@pytest.mark.parametrize("n", [0, 1, 5, 8, 20])
def test_engine_rolls_pass_check_roll_and_look_alikes_are_checked_in_full(n):
    for roll in roll_outcomes(n)[:200]:
        assert check_roll(roll, n) is roll
        # An equal tuple of other objects is no engine roll: bools are refused...
        if 1 in roll:
            with pytest.raises(ValueError):
                check_roll(tuple(True if c == 1 else c for c in roll), n)
        # ... numpy integers become ints, and a roll of other dice is refused.
        as_numpy = tuple(np.int64(c) for c in roll)
        assert check_roll(as_numpy, n) == roll and all(type(c) is int for c in check_roll(as_numpy, n))
        with pytest.raises(ValueError):
            check_roll(roll, n + 1)
    rng = np.random.default_rng(n)
    for _ in range(50):
        roll = sample_roll(n, rng)
        assert check_roll(roll, n) is roll
    with pytest.raises(ValueError):
        check_roll(([1], 0, 0, 0, 0, 0), 1)  # unhashable entries: the full check says why


def test_most_points_face_takes_the_face_the_definition_takes_for_every_roll():
    for kept in [(0,) * 6, (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 2, 1), (0, 1, 0, 3, 0, 0)]:
        left = 8 - sum(kept)
        for roll in roll_outcomes(left):
            faces = takeable_faces(roll, kept)
            if not faces:
                continue
            s = State(Rules(), Rules().tiles, ((), ()), (), phase=Phase.TAKE, kept=kept, roll=roll)
            expected = min(faces, key=lambda f: take_preference(f, roll[f - 1]))
            assert most_points_face(s) == expected
            assert expected == max(faces, key=lambda f: (roll[f - 1] * VALUES[f - 1], f))


@pytest.mark.parametrize("weight", [Fraction(-1), -1, -0.5, "1", None])
def test_a_negative_or_junk_steal_weight_is_refused_on_every_path(weight):
    s = State.new(2)
    for call in (Position.of, optimal_action):
        with pytest.raises(ValueError):
            call(s, weight)


def test_faces_are_taken_from_the_engines_roll_values():
    assert FACES == (1, 2, 3, 4, 5, 6) and VALUES == (1, 2, 3, 4, 5, 5)


@pytest.mark.parametrize("weight", [0, Fraction(1, 2)])
def test_positions_of_real_states_are_the_checked_positions(weight):
    for s in game_states(Rules(), 3, 5, [make_bot("greedy") for _ in range(3)])[::7]:
        if s.is_over:
            continue
        me = s.player
        others = [p for p in range(s.players) if p != me]
        leader = max(others, key=lambda p: (s.worms(p), -p))
        checked = Position(s.rules, s.grill, s.top(me), tuple(sorted(s.others_tops().items())),
                           leader, Fraction(weight))
        fast = Position.of(s, weight)
        assert fast == checked and hash(fast) == hash(checked)
        assert fast.steal_weight == weight and type(fast.steal_weight) is Fraction
