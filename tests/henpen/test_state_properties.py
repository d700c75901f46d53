"""Property tests: random legal Henpen games keep every invariant of the rules."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.core import Game
from henkit.henpen import ROLL, WORM, Claim, Rules, State, Stop, Take
from henkit.henpen.state import Phase

DECIDE, TAKE = Phase.DECIDE, Phase.TAKE

rules_strategy = st.builds(
    Rules,
    dice=st.integers(5, 10),
    keep_returned_if_highest=st.booleans(),
    flip_when_nothing_returned=st.booleans(),
)


def random_game(players: int, rules: Rules, seed: int, max_steps: int = 20_000):
    """Yield (state, action) along a game of uniformly random legal moves."""
    rng = np.random.default_rng(seed)
    s = State.new(players, rules)
    for _ in range(max_steps):
        if s.is_over:
            return
        if s.is_chance:
            a = s.sample_chance(rng)
        else:
            acts = s.legal_actions()
            a = acts[int(rng.integers(len(acts)))]
        yield s, a
        s = s.apply(a)
    pytest.fail("a random game did not end")


def check_invariants(s: State) -> None:
    every = sorted([*s.grill, *s.out_of_play, *(t for st_ in s.stacks for t in st_)])
    assert every == list(s.rules.tiles)  # every serving is in exactly one place
    assert list(s.grill) == sorted(s.grill)
    assert 0 <= s.dice_left <= s.rules.dice
    assert s.total == sum(c * (5 if f == WORM else f) for f, c in enumerate(s.kept, 1))
    assert s.is_over == (not s.grill)
    if s.phase == TAKE:
        assert all(isinstance(a, Take) for a in s.legal_actions()) and s.legal_actions()
    if s.phase == DECIDE:
        acts = s.legal_actions()
        assert acts, "a player must always have a move"
        if any(isinstance(a, Stop) for a in acts):
            assert s.has_worm


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 7), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant_and_end(players, rules, seed):
    last = None
    for s, a in random_game(players, rules, seed):
        check_invariants(s)
        nxt = s.apply(a)
        assert s.apply(a) == nxt  # apply is a pure function of state and action
        if nxt.turns_played > s.turns_played:  # a turn ended: one serving moved at most twice
            assert nxt.player == (s.player + 1) % players
            end = nxt.last_turn
            if end.claim is not None:
                assert nxt.stacks[s.player][-1] == end.claim.tile
                assert sum(map(len, nxt.stacks)) == sum(map(len, s.stacks)) + (end.claim.owner is None)
            else:
                assert len(nxt.stacks[s.player]) == max(0, len(s.stacks[s.player]) - 1)
                assert len(nxt.out_of_play) >= len(s.out_of_play)
        last = nxt
    assert last is not None and last.is_over and last.winners()


@settings(max_examples=20, deadline=None)
@given(players=st.integers(1, 7), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_every_state_round_trips_through_json(players, rules, seed):
    for i, (s, _) in enumerate(random_game(players, rules, seed)):
        if i % 7 == 0:
            back = State.from_json(json.dumps(json.loads(s.to_json())))
            assert back == s and back.legal_actions() == s.legal_actions()


ILLEGAL = [ROLL, Take(1), Take(WORM), Stop(Claim(21)), Stop(Claim(30, 1)), "roll", None, 3]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_raise_and_leave_the_state_unchanged(seed):
    for s, _ in random_game(3, Rules(), seed):
        if s.is_chance:
            continue
        legal = s.legal_actions()
        snapshot = s.to_dict()
        for bad in ILLEGAL:
            if bad in legal:
                continue
            with pytest.raises(ValueError):
                s.apply(bad)
        assert s.to_dict() == snapshot


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_game_runner_replays_the_same_game_from_the_same_seed(seed):
    from henkit.henpen.bots import RandomBot

    def run(seed):
        g = Game(State.new(3), [RandomBot(), RandomBot(), RandomBot()], seed=seed)
        g.run()
        return g.history, g.state

    h1, s1 = run(seed)
    h2, s2 = run(seed)
    assert h1 == h2 and s1 == s2 and s1.is_over
    # replaying the recorded history from the start reaches the same end
    s = State.new(3)
    for step in h1:
        s = s.apply(step.action)
    assert s == s1


@pytest.mark.parametrize("bots, message", [([None], "needs 3 bots"), (["greedy"] * 3, "choose")])
def test_game_runner_checks_its_bots(bots, message):
    with pytest.raises(ValueError, match=message):
        Game(State.new(3), bots)
