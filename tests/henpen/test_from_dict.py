"""Nothing inconsistent accepted: `State.from_dict` / `validate` refuse states no game reaches,
and a fuzzed or mutated dict of a real state is refused or is a state that plays on."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.henpen import ROLL, Rules, State, Take, legal_claims
from henkit.henpen.bots import make_bot
from henkit.henpen.cli import add_odds_arguments, add_simulate_arguments, odds
from henkit.henpen.odds import chance_at_least, expected_worms
from tests.fuzz_values import junk, only_value_error


def game_states(seed: int, players: int, rules: Rules, every: int = 5) -> list[State]:
    """Every `every`-th state of a seeded game between greedy and random bots."""
    rng = np.random.default_rng(seed)
    bots = [make_bot("greedy" if p % 2 else "random") for p in range(players)]
    s, out, k = State.new(players, rules), [], 0
    while True:
        if k % every == 0 or s.is_over:
            out.append(s)
        if s.is_over:
            return out
        s = s.apply(s.sample_chance(rng) if s.is_chance else bots[s.player].choose(s, rng))
        k += 1


REAL = [s for seed, players, rules in [(1, 2, Rules()), (2, 3, Rules.pickomino()),
                                       (3, 1, Rules(flip_when_nothing_returned=True)),
                                       (4, 4, Rules(dice=6))]
        for s in game_states(seed, players, rules)]
JUNK = junk()


def plays_to_the_end(s: State) -> None:
    rng = np.random.default_rng(0)
    bot = make_bot("greedy")
    for _ in range(20_000):
        if s.is_over:
            return
        s = s.apply(s.sample_chance(rng) if s.is_chance else bot.choose(s, rng))
    pytest.fail("the game did not end")


def check_accepted(data: Any) -> None:
    s = only_value_error(State.from_dict, data)
    if s is None:
        return
    s.validate()
    assert State.from_dict(s.to_dict()) == s
    assert State.from_json(json.dumps(s.to_dict())) == s
    assert set(s.to_dict()) == {"game", "rules", "grill", "stacks", "out_of_play", "player",
                                "phase", "kept", "roll", "last_turn", "turns_played",
                                "first_player"}
    plays_to_the_end(s)


def paths(d: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside nested dicts and lists."""
    out = [prefix] if prefix else []
    if isinstance(d, dict):
        for k, v in d.items():
            out += paths(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out += paths(v, (*prefix, i))
    return out


def set_path(d: Any, path: tuple, value: Any) -> Any:
    d = copy.deepcopy(d)
    at = d
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return d


def nudged(value: Any, draw: Any) -> Any:
    """A plausible change: an int moved a little, a list with an entry dropped or doubled."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from([-2, -1, 1, 2, 5]))
    if isinstance(value, list) and value:
        i = draw(st.integers(0, len(value) - 1))
        return draw(st.sampled_from([value[:i] + value[i + 1:], value + [value[i]], value[::-1]]))
    return draw(JUNK)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_mutated_real_state_is_refused_or_valid_and_plays_on(data):
    s = data.draw(st.sampled_from(REAL), label="state")
    d = s.to_dict()
    path = data.draw(st.sampled_from(paths(d)), label="path")
    how = data.draw(st.sampled_from(["nudge", "junk", "drop", "extra"]), label="how")
    if how == "nudge":
        mutated = set_path(d, path, nudged(eval_path(d, path), data.draw))
    elif how == "junk":
        mutated = set_path(d, path, data.draw(JUNK, label="junk"))
    elif how == "drop" and isinstance(path[-1], str):
        mutated = copy.deepcopy(d)
        at = mutated
        for k in path[:-1]:
            at = at[k]
        del at[path[-1]]
    else:
        mutated = set_path(d, path[:-1] + ("surprise",), 1) if len(path) > 1 and isinstance(
            eval_path(d, path[:-1]), dict) else d | {"surprise": 1}
    check_accepted(mutated)


def eval_path(d: Any, path: tuple) -> Any:
    for k in path:
        d = d[k]
    return d


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(value=JUNK)
def test_junk_is_no_state(value):
    check_accepted(value)


def test_real_states_round_trip_and_validate():
    for s in REAL:
        check_accepted(s.to_dict())


# -- the defects of issue 10, and more ------------------------------------------------------------

BASE = State.new(2).to_dict()


@pytest.mark.parametrize("change, message", [
    ({"rules": {"dice": 3}}, "3 dice reach at most 15"),  # a game that would never end
    ({"turns_played": 1, "player": 1, "last_turn": {"player": 5, "total": 15,
                                                    "kept": [0, 0, 0, 0, 0, 3],
                                                    "failure": "bust", "roll": [0] * 5 + [5]}},
     "the last turn was played by player 0"),
    ({"surprise": 1}, "unknown Henpen state fields"),
    ({"stacks": [[21], []]}, "in two places"),
    ({"grill": list(range(22, 37))}, "nowhere"),
    ({"out_of_play": [37]}, "unknown servings"),
    ({"grill": list(range(36, 20, -1))}, "lowest serving first"),
    ({"phase": "take"}, "a roll waits to be taken exactly in the 'take' phase"),
    ({"roll": [8, 0, 0, 0, 0, 0]}, "a roll waits to be taken"),
    ({"phase": "take", "roll": [4, 0, 0, 0, 0, 0]}, "adding up to 8"),
    ({"phase": "dice", "kept": [3, 3, 3, 0, 0, 0]}, "at most 8"),
    ({"phase": "decide", "kept": [1, 1, 1, 1, 1, 1]}, "without a worm or a claim"),
    ({"turns_played": -1}, "turns_played must be at least 0"),
    ({"turns_played": 1}, "it is player 1's turn"),  # last_turn None: not recorded
    ({"phase": "nap"}, "phase must be one of"),
    ({"rules": {"dice": 8, "colour": "red"}}, "unknown rules fields"),
    ({"rules": {"worm_table": {"21.5": 1}}}, "serving number"),
])
def test_inconsistent_states_are_refused_saying_why(change, message):
    with pytest.raises(ValueError, match=message):
        State.from_dict(BASE | change)


def after_one_turn() -> dict:
    s = State.new(2).apply(ROLL).apply((0, 0, 0, 0, 5, 3)).apply(Take(5))
    s = s.apply(ROLL).apply((0, 0, 0, 0, 0, 3)).apply(Take(6))  # 25 + 15 = 40: ends by itself
    s = s.apply(s.legal_actions()[0])
    assert s.last_turn.claim is not None and s.stacks[0] == (36,)
    return s.to_dict()


@pytest.mark.parametrize("change, message", [
    ({"total": 39}, "not the total of its kept dice"),
    ({"claim": [35, None]}, "not on top of player 0's stack"),
    ({"claim": [36, 0]}, "no opponent"),
    ({"total": 35, "kept": [0, 0, 0, 0, 4, 3]}, "a total of 35 does not"),  # 35 claims 35
    ({"player": 1}, "played by player 0"),
    ({"claim": None, "failure": "bust"}, "roll exactly when it went bust"),
    ({"unknown": 1}, "unknown last_turn fields"),
])
def test_an_impossible_last_turn_is_refused(change, message):
    d = after_one_turn()
    d["last_turn"] = d["last_turn"] | change
    with pytest.raises(ValueError, match=message):
        State.from_dict(d)


def test_a_failed_last_turn_must_follow_p6():
    s = State.new(2, grill=range(21, 36), stacks=[[36], []]).apply(ROLL).apply((8, 0, 0, 0, 0, 0))
    s = s.apply(Take(1))  # eight 1s, no worm: the turn fails, 36 back to the grill and out
    d = s.to_dict()
    assert d["last_turn"]["returned"] == 36 and d["last_turn"]["turned_out"] == 36
    assert State.from_dict(d) == s
    bad = copy.deepcopy(d)
    bad["last_turn"]["turned_out"] = None
    bad["out_of_play"] = []
    bad["grill"] = list(range(21, 37))
    with pytest.raises(ValueError, match="P6/P7"):
        State.from_dict(bad)


def test_servings_no_turn_can_claim_are_never_in_a_stack():
    with pytest.raises(ValueError, match="no turn of 5 dice reaches 30"):
        State.new(2, Rules(dice=5), grill=[t for t in range(21, 37) if t != 30], stacks=[[30], []])


# -- unreachable mid-turn starts ------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: chance_at_least(25, dice=5, taken={1, 6}, total=8),
    lambda: expected_worms(dice=5, taken={1, 6}, total=8),
    lambda: chance_at_least(25, dice=8, taken={6}, total=5),  # a worm taken, no die set aside
])
def test_odds_refuse_a_start_no_turn_reaches(call):
    with pytest.raises(ValueError, match="no turn of 8 dice reaches|at most"):
        call()


def test_odds_accept_every_reachable_start_and_name_the_possible_totals():
    assert chance_at_least(25, dice=5, taken={1, 6}, total=7) >= 0  # two 1s and a worm
    assert chance_at_least(25, dice=5, taken={1, 6}, total=11) >= 0  # a 1 and two worms
    with pytest.raises(ValueError, match="a total of 7 or 11, not 8"):
        chance_at_least(25, dice=5, taken={1, 6}, total=8)


def test_cli_odds_refuses_the_unreachable_start_with_a_value_error():
    import argparse

    p = argparse.ArgumentParser()
    add_odds_arguments(p)
    args = p.parse_args(["--dice", "5", "--taken", "1,w", "--total", "8"])
    with pytest.raises(ValueError, match="no turn of 8 dice reaches"):
        odds(args)


def test_cli_odds_names_a_fresh_turn_of_more_dice_than_the_rules_as_such():
    import argparse
    import io

    p = argparse.ArgumentParser()
    add_odds_arguments(p)
    out = io.StringIO()
    odds(p.parse_args(["--dice", "9", "--target", "30"]), out)
    assert "from a fresh turn of 9 dice," in out.getvalue() and "left" not in out.getvalue()
    out = io.StringIO()
    odds(p.parse_args(["--dice", "5", "--taken", "w", "--total", "15", "--target", "30"]), out)
    assert "from 5 dice left, taken" in out.getvalue()


def test_cli_games_has_an_upper_bound():
    import argparse

    p = argparse.ArgumentParser(exit_on_error=False)
    add_simulate_arguments(p)
    assert p.parse_args(["--games", "100000"]).games == 100_000
    with pytest.raises((argparse.ArgumentError, SystemExit)):
        p.parse_args(["--games", "100001"])


@pytest.mark.parametrize("change, message", [
    ({"player": 1}, "it is player 0's turn, not player 1's"),
    ({"first_player": 1}, "it is player 1's turn, not player 0's"),
    ({"first_player": 2}, "first_player must be 0 to 1"),
    ({"first_player": None}, "first_player must be a whole number"),
    ({"phase": "dice", "player": 1}, "it is player 0's turn"),  # mid-turn: the turn's player
])
def test_the_player_to_move_follows_the_first_player_and_the_turns_played(change, message):
    with pytest.raises(ValueError, match=message):
        State.from_dict(BASE | change)
    missing = dict(BASE)
    del missing["first_player"]
    with pytest.raises(ValueError, match="needs the fields"):
        State.from_dict(missing)


def test_first_player_is_kept_through_a_game():
    s = State.new(3, first_player=2)
    assert (s.first_player, s.player) == (2, 2)
    s = s.apply(ROLL).apply((0, 0, 0, 0, 0, 8)).apply(Take(6))  # all worms: 40 claims 36
    s = s.apply(s.legal_actions()[0])
    assert (s.first_player, s.player, s.turns_played) == (2, 0, 1)
    assert State.from_dict(s.to_dict()) == s


def test_servings_moved_need_enough_turns_and_p6_order_is_checked():
    # the reviewer's repros (issue 10): each was accepted before
    with pytest.raises(ValueError, match="3 servings in stacks and 0 out of play take at least 3"):
        State.from_dict(BASE | {"grill": list(range(24, 37)), "stacks": [[21, 22, 23], []]})
    two = State.new(2).to_dict() | {"grill": list(range(25, 37)), "stacks": [[21, 22], [23, 24]],
                                   "turns_played": 2, "first_player": 0, "player": 0}
    with pytest.raises(ValueError, match="take at least 4 turns, not 2"):
        State.from_dict(two)
    with pytest.raises(ValueError, match="take at least 2 turns, not 0"):
        State.from_dict(BASE | {"grill": list(range(21, 36)), "out_of_play": [36]})
    with pytest.raises(ValueError, match="serving 36 is on the grill above every serving out of play"):
        State.from_dict(BASE | {"grill": list(range(22, 37)), "out_of_play": [21],
                                "turns_played": 2, "first_player": 0})
    # the same under the variants: a flip without a return needs one turn
    flip = BASE | {"rules": Rules(flip_when_nothing_returned=True).to_dict(),
                   "grill": list(range(21, 36)), "out_of_play": [36], "turns_played": 1,
                   "first_player": 1}
    assert State.from_dict(flip).turns_played == 1
    keep = BASE | {"rules": Rules(keep_returned_if_highest=True).to_dict(),
                   "grill": list(range(22, 37)), "out_of_play": [21], "turns_played": 2}
    assert State.from_dict(keep).out_of_play == (21,)


def test_lesson_positions_get_the_fewest_turns_that_reach_them():
    s = State.new(2, grill=[22, 23, 24, 25], stacks=[[26, 21], [27]])  # 28..36 out of play
    assert s.turns_played == 3 + 2 * 9
    assert s.player == 0 and s.first_player == (0 - s.turns_played) % 2
    assert s.last_turn is None
    assert State.from_dict(s.to_dict()) == s
    assert State.new(3, first_player=2, grill=range(21, 37)).turns_played == 0


def test_a_claimed_last_turn_is_checked_by_the_p4_rule_function(monkeypatch):
    import henkit.henpen.state as state_module

    asked = []

    def spy(total, grill, own_top, others_tops):
        asked.append((total, tuple(grill), own_top, dict(others_tops)))
        return legal_claims(total, grill, own_top, others_tops)

    d = after_one_turn()
    monkeypatch.setattr(state_module, "legal_claims", spy)
    State.from_dict(d)
    assert (40, tuple(range(21, 37)), None, {}) in asked  # the grill before the claim of 36
