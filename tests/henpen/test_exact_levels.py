"""The exact turn solver works level by level on object arrays of whole numbers: every node's
value, every roll's value and the scale are the plain per-node, per-pair loop's, number for
number, for awkward rewards, mid-turn starts and other dice counts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from henkit.henpen.odds import TurnPoint, TurnReward, position_reward, solve_turn


def plain_whole_numbers(sol) -> tuple[list[int], list[int], list[int | None]]:
    """The whole-number backward induction node by node, pair by pair (`_scale` given)."""
    sp, reward, scale = sol.space, sol.reward, sol._scale
    stop = [(Fraction(v) * scale).numerator for v in reward.stop_value]
    fail = (Fraction(reward.fail_value) * scale).numerator
    end = [stop[t] if w else fail
           for t, w in zip(sp.total.tolist(), sp.has_worm.tolist(), strict=True)]
    value: list[int] = [*end, fail]
    roll: list[int | None] = [None] * sp.size
    weight = sp.pair_weight_exact
    for n, a, c, _b in sp.levels:
        for i in range(a, c):
            r = 0
            for p in range(int(sp.pair_start[i]), int(sp.pair_start[i + 1])):
                edges = range(int(sp.pair_edge_start[p]), int(sp.pair_edge_start[p + 1]))
                r += weight[p] * max(value[int(sp.edge_child[e])] for e in edges)
            roll[i] = r // 6**n
            value[i] = max(end[i], roll[i]) if sp.has_worm[i] else roll[i]
    return end, value, roll


def awkward(max_total: int, seed: int) -> TurnReward:
    rng = random.Random(seed)
    return TurnReward([Fraction(rng.randint(-5, 9), rng.choice((1, 3, 7))) for _ in
                       range(max_total + 1)], Fraction(-rng.randint(0, 4), rng.choice((1, 11))))


CASES = [
    (TurnReward.at_least(25, 40), {}),
    (position_reward(own_top=24, grill=range(25, 37)), {}),
    (awkward(40, 1), {}),
    (awkward(40, 2), {"start": TurnPoint(5, {6, 2}, 12)}),
    (awkward(30, 3), {"dice": 6}),
    (TurnReward([1] * 41, 1), {"start": TurnPoint(1, {1, 2, 3, 4, 5}, 17)}),
]


@pytest.mark.parametrize(("reward", "where"), CASES)
def test_exact_levels_give_the_plain_loops_numbers(reward: TurnReward, where: dict) -> None:
    sol = solve_turn(reward, exact=True, **where)
    end, value, roll = plain_whole_numbers(sol)
    assert sol._end == end
    assert sol._value == value and all(type(v) is int for v in sol._value)
    assert sol._roll == roll
    assert all(type(r) is int for r in sol._roll if r is not None)
