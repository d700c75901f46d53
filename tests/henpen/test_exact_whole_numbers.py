"""The exact solver and the exact end distribution count in whole numbers over one denominator
(quicker than Fractions); on full 8-dice turns they must give the very Fractions that plain
Fraction arithmetic gives, for rewards with awkward denominators and negative fail values."""

from __future__ import annotations

import heapq
import random
from fractions import Fraction

import pytest

from henkit.henpen.odds import TurnPoint, TurnReward, solve_turn
from henkit.henpen.rules import Rules
from henkit.henpen.turnspace import threshold_policy_on


def fraction_values(space, reward: TurnReward) -> list[Fraction]:
    """Backward induction in plain Fractions (the solver's algorithm before whole numbers)."""
    probs = space.pair_prob_exact
    end = [reward.stop_value[t] if w else reward.fail_value
           for t, w in zip(space.total.tolist(), space.has_worm.tolist(), strict=True)]
    value = [*end, reward.fail_value]
    for _n, a, c, _b in space.levels:
        for i in range(a, c):
            r = Fraction(0)
            for p in range(int(space.pair_start[i]), int(space.pair_start[i + 1])):
                edges = range(int(space.pair_edge_start[p]), int(space.pair_edge_start[p + 1]))
                r += probs[p] * max(value[int(space.edge_child[e])] for e in edges)
            value[i] = max(end[i], r) if space.has_worm[i] else r
    return value


def fraction_ends(policy, s: int) -> tuple[list[Fraction], Fraction]:
    """The end distribution by pushing Fraction masses forward (the former algorithm)."""
    sp = policy.space
    probs = sp.pair_prob_exact
    mass, heap = {s: Fraction(1)}, [-s]
    at_total, fail = [Fraction(0)] * (sp.max_total + 1), Fraction(0)
    while heap:
        i = -heapq.heappop(heap)
        m = mass.pop(i)
        if policy.stop[i]:
            if sp.has_worm[i]:
                at_total[int(sp.total[i])] += m
            else:
                fail += m
            continue
        for p in range(int(sp.pair_start[i]), int(sp.pair_start[i + 1])):
            j = int(policy.next[p])
            if j == sp.fail:
                fail += m * probs[p]
            else:
                if j not in mass:
                    mass[j] = Fraction(0)
                    heapq.heappush(heap, -j)
                mass[j] += m * probs[p]
    return at_total, fail


def awkward_reward(max_total: int, seed: int) -> TurnReward:
    rng = random.Random(seed)
    stop = [Fraction(rng.randint(-5, 9), rng.choice((1, 3, 7, 10))) for _ in range(max_total + 1)]
    return TurnReward(stop, Fraction(-rng.randint(0, 4), rng.choice((1, 3, 11))))


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_number_solver_gives_the_fraction_solvers_values_on_8_dice(seed: int) -> None:
    rules = Rules()
    reward = awkward_reward(rules.max_total, seed)
    sol = solve_turn(reward, rules=rules, exact=True)
    want = fraction_values(sol.space, reward)
    for i in range(sol.space.size):
        p = sol.space.point(i)
        assert sol.value(p) == want[i]
        assert isinstance(sol.value(p), Fraction)
    at_total, fail = fraction_ends(sol.policy, sol.space.index(sol.space.root))
    got = sol.end_distribution()
    assert (list(got.at_total), got.fail) == (at_total, fail)
    assert got.total_probability() == 1


def test_whole_number_end_distribution_from_a_mid_turn_point() -> None:
    sol = solve_turn(TurnReward.at_least(25, 40), exact=True)
    policy = threshold_policy_on(sol.space, 27)
    for point in (sol.space.root, TurnPoint(5, {6}, 15), TurnPoint(2, {1, 4, 6}, 22)):
        got = policy.end_distribution(point, exact=True)
        at_total, fail = fraction_ends(policy, sol.space.index(point))
        assert (list(got.at_total), got.fail) == (at_total, fail)
        assert got.total_probability() == 1
