"""target_policy (henkit.henpen.spread): the best chance of a total, then the most worms once it
is out of reach. Checked against the two solvers it is made of, node by node, and against the
solver playing for the total alone, whose tie-break stops with nothing once the total is lost."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings

from henkit.henpen import spread as sp
from henkit.henpen.batch import simulate_turns
from henkit.henpen.odds import TurnReward, position_reward, solve_turn
from tests.fuzz_values import junk, only_value_error

REWARD = position_reward()
TARGETS = (21, 29, 33)


def chance_at_least(ends, target: int) -> Fraction:
    """The chance that a turn ends (with a worm) at `target` or more."""
    return sum(ends.at_total[target:], Fraction(0))


def reachable(policy) -> np.ndarray:
    """The nodes the policy can reach from a fresh turn (a forward walk of its choices)."""
    sp_ = policy.space
    seen = np.zeros(sp_.size + 1, dtype=bool)
    frontier = [sp_.index(sp_.root)]
    seen[frontier[0]] = True
    while frontier:
        i = frontier.pop()
        if policy.stop[i]:
            continue
        for pair in np.flatnonzero(sp_.pair_node == i):
            child = int(policy.next[pair])
            if not seen[child]:
                seen[child] = True
                if child < sp_.size:
                    frontier.append(child)
    return seen[:-1]


@pytest.mark.parametrize("target", TARGETS)
def test_the_target_keeps_its_best_chance(target):
    """Playing on once the target is lost changes nothing about reaching it: the chance of the
    target is the solver's best chance, exactly."""
    best = solve_turn(TurnReward.at_least(target, REWARD.max_total), exact=True)
    ends = sp.target_policy(target, exact=True).end_distribution(exact=True)
    assert chance_at_least(ends, target) == best.value()


@pytest.mark.parametrize("target", TARGETS)
def test_out_of_reach_it_plays_the_most_worms_solvers_moves(target):
    """At every moment where the target's chance is 0, stop or roll as the most-worms solver
    does; at every roll where no face keeps a chance, take the face that solver takes; elsewhere
    the target's solver decides."""
    goal = solve_turn(TurnReward.at_least(target, REWARD.max_total), exact=True)
    worms = solve_turn(REWARD, exact=True)
    policy = sp.target_policy(target, exact=True)
    space = policy.space
    lost = 0
    for i in range(space.size):
        value = goal._value[i]
        expected = worms.policy.stop[i] if value == 0 else goal.policy.stop[i]
        assert policy.stop[i] == expected, i
        lost += value == 0
    assert 0 < lost < space.size
    starts = space.pair_edge_start
    for pair in range(len(space.pair_node)):
        live = any(goal._value[int(c)] > 0 for c in space.edge_child[starts[pair]:starts[pair + 1]])
        expected = goal.policy.choice[pair] if live else worms.policy.choice[pair]
        assert policy.choice[pair] == expected, pair


@pytest.mark.parametrize("target", (29, 33))
def test_it_never_stops_with_nothing_while_a_serving_can_be_won(target):
    """The target alone stops below 21 in some turns; this policy stops below 21 only at moments
    where rolling on could win nothing either (the most-worms value of rolling is 0)."""
    alone = solve_turn(TurnReward.at_least(target, REWARD.max_total), exact=True)
    below = sum(alone.end_distribution().at_total[:21], Fraction(0))
    assert below > Fraction(1, 100)  # the tie-break the lesson no longer uses: 1.4 % and 6.9 %
    worms = solve_turn(REWARD, exact=True)
    policy = sp.target_policy(target, exact=True)
    space = policy.space
    seen = reachable(policy)
    stops_low = [i for i in range(space.size) if seen[i] and policy.stop[i] and space.rollable[i]
                 and space.has_worm[i] and space.total[i] < 21]
    for i in stops_low:
        assert worms._roll[i] == 0, i
    ends = policy.end_distribution(exact=True)
    low = sum(ends.at_total[:21], Fraction(0))
    assert low < below


@pytest.mark.parametrize("target", TARGETS)
def test_it_wins_at_least_the_worms_of_the_target_alone(target):
    """Playing on for worms can only add worms: the mean is at least the target-alone mean, and
    strictly more when the target alone ever stopped with nothing while worms were still to be won;
    policy_worms names it and gives its worms."""
    name = f"best chance of {target} or more"
    both = sp.policy_worms([name, f"{name}, then most worms"], exact=True)
    alone, then = (sp.spread_of(d).mean for d in both.values())
    assert then >= alone
    if target > 21:
        assert then > alone
    ends = sp.target_policy(target, exact=True).end_distribution(exact=True)
    assert both[f"{name}, then most worms"] == sp.turn_worms(ends)
    assert sp.spread_of(both[f"{name}, then most worms"]).mean == ends.expectation(
        REWARD.stop_value, REWARD.fail_value)
    assert sp.target_policy(target).name == f"{name}, then most worms"


def test_float_and_exact_agree():
    for target in TARGETS:
        exact = sp.target_policy(target, exact=True).end_distribution(exact=True)
        fast = sp.target_policy(target).end_distribution()
        assert fast.fail == pytest.approx(float(exact.fail), abs=1e-12)
        assert np.allclose(np.array(fast.at_total, dtype=float),
                           np.array([float(p) for p in exact.at_total]), atol=1e-12)


def test_simulated_turns_follow_the_policy():
    """Seeded turns played by the policy land near its exact chance of 3 worms or more."""
    policy = sp.target_policy(29)
    totals = simulate_turns(policy, 40_000, seed=3).totals
    p = float(sp.chance_at_least(sp.policy_worms(["best chance of 29 or more, then most worms"])[
        "best chance of 29 or more, then most worms"], 3))
    assert abs(np.mean(totals >= 29) - p) < 4 * (p * (1 - p) / totals.size) ** 0.5


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="target"):
        sp.target_policy(41)
    with pytest.raises(ValueError, match="target"):
        sp.target_policy(-1)
    with pytest.raises(ValueError, match="exact"):
        sp.target_policy(29, exact="yes")
    with pytest.raises(ValueError, match="T must be"):
        sp.policy_worms(["best chance of 99 or more, then most worms"])
    with pytest.raises(ValueError, match="way of playing"):
        sp.policy_worms(["best chance of 29 or more, then"])


@settings(max_examples=30, deadline=None)
@given(junk())
def test_junk_is_refused_with_a_value_error(x):
    only_value_error(lambda: sp.target_policy(x))
    only_value_error(lambda: sp.target_policy(29, exact=x))
