"""The vectorised batch turn simulator: it must agree in distribution with the exact solver."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from henkit.henpen.batch import (
    FAILED,
    TurnResults,
    optimal_policy,
    simulate_turns,
    threshold_policy,
)
from henkit.henpen.odds import TurnPoint, TurnReward, position_reward, solve_turn
from henkit.henpen.rules import Rules

WORM = 6


def assert_within_4_se(results: TurnResults, at_total: tuple, fail: float) -> None:
    """Every bin's share within 4 standard errors of its exact chance; impossible bins empty.

    Bins expected fewer than 20 times are pooled into one (a normal 4-SE band means nothing for
    a bin seen 0 or 1 times); a pool that is still rare gets a generous Poisson bound instead.
    """
    n = results.turns
    counts, fails = results.histogram()
    exact = np.zeros(len(counts))
    exact[: len(at_total)] = at_total
    got = np.r_[counts, fails]
    want = np.r_[exact, fail]
    assert (got[want == 0] == 0).all()
    rare = (want > 0) & (want * n < 20)
    pooled = [(got[rare].sum(), want[rare].sum())] if rare.any() else []
    for g, p in [*zip(got[~rare & (want > 0)], want[~rare & (want > 0)], strict=True), *pooled]:
        if p * n >= 20:
            se = math.sqrt(p * (1 - p) / n)
            assert abs(g / n - p) <= 4 * se, (g / n, p, se)
        else:
            assert g <= p * n + 4 * math.sqrt(p * n) + 4, (g, p * n)


@pytest.mark.parametrize("reward", [TurnReward.at_least(25, 40), position_reward(own_top=23,
                         grill=[21, 22, *range(24, 30), *range(31, 37)], others_tops={1: 30}, steal_weight=1)])
def test_optimal_policy_matches_the_exact_end_distribution(reward: TurnReward) -> None:
    sol = solve_turn(reward)
    results = simulate_turns(optimal_policy(sol), 200_000, seed=11)
    dist = sol.end_distribution()
    assert_within_4_se(results, dist.at_total, dist.fail)
    sd = math.sqrt(sum(p * (v - sol.value()) ** 2 for p, v in zip(
        (*dist.at_total, dist.fail), (*reward.floats[0], reward.floats[1]), strict=False)))
    assert abs(results.mean_reward(reward) - sol.value()) <= 4 * sd / math.sqrt(results.turns)


@pytest.mark.parametrize("threshold", [0, 21, 27, 33])
def test_threshold_policy_matches_its_exact_distribution(threshold: int) -> None:
    policy = threshold_policy(threshold)
    dist = policy.end_distribution()
    assert dist.total_probability() == pytest.approx(1, abs=1e-12)
    assert_within_4_se(simulate_turns(policy, 100_000, seed=threshold), dist.at_total, dist.fail)


def test_mid_turn_start_and_other_dice_counts() -> None:
    start = TurnPoint(4, {WORM, 2}, 14)
    policy = optimal_policy(TurnReward.at_least(24, 40), start=start)
    dist = policy.end_distribution(start)
    assert_within_4_se(simulate_turns(policy, 100_000, 3, start=start), dist.at_total, dist.fail)
    rules = Rules(dice=3, worm_table={5: 1})
    small = optimal_policy(TurnReward.exactly(11, 15), rules=rules)
    d3 = small.end_distribution()
    assert_within_4_se(simulate_turns(small, 100_000, 4), d3.at_total, d3.fail)
    big = threshold_policy(40, rules=Rules(dice=12))
    d12 = big.end_distribution()
    assert_within_4_se(simulate_turns(big, 50_000, 5), d12.at_total, d12.fail)


def test_turns_that_end_at_the_start_need_no_roll() -> None:
    start = TurnPoint(0, {WORM, 5}, 40)  # every die set aside: the turn ends by itself
    res = simulate_turns(threshold_policy(25), 10, 0, start=start)
    assert (res.totals == 40).all()
    res = simulate_turns(threshold_policy(25), 10, 0, start=TurnPoint(2, {WORM, 5}, 30))
    assert (res.totals == 30).all()  # 30 >= 25 with a worm: stop at once
    res = simulate_turns(threshold_policy(25), 10, 0, start=TurnPoint(0, {1, 5}, 24))
    assert (res.totals == FAILED).all() and res.failed.all()  # no worm


def test_threshold_policy_takes_worms_first_then_most_points() -> None:
    policy = threshold_policy(25)
    sp = policy.space
    fresh = sp.index(TurnPoint(8))
    assert policy.face(fresh, (0, 0, 0, 0, 7, 1)) == WORM  # one worm beats seven 5s: none yet
    after = sp.index(TurnPoint(7, {WORM}, 5))
    assert policy.face(after, (0, 0, 3, 2, 2, 0)) == 5  # 10 points beats 9 and 8
    assert policy.face(after, (3, 2, 0, 1, 0, 1)) == 4  # 2s and the 4 both give 4: higher face
    assert policy.face(after, (0, 0, 0, 0, 0, 7)) is None  # only worms: bust
    assert not policy.stop[after]  # 5 < 25
    assert policy.stop[sp.index(TurnPoint(3, {WORM, 5}, 25))]
    assert not policy.stop[sp.index(TurnPoint(3, {4, 5}, 21))]  # no worm: may not stop


def test_results_helpers_and_seeds() -> None:
    policy = threshold_policy(25)
    a = simulate_turns(policy, 5000, seed=1)
    b = simulate_turns(policy, 5000, seed=np.random.default_rng(1))
    c = simulate_turns(policy, 5000, seed=2)
    assert (a.totals == b.totals).all()
    assert (a.totals != c.totals).any()
    counts, fails = a.histogram()
    assert counts.sum() + fails == a.turns == 5000
    assert fails == a.failed.sum() == (a.totals == FAILED).sum()
    freq, fail_share = a.frequencies()
    assert freq.sum() + fail_share == pytest.approx(1)
    assert a.chance_at_least(25) == pytest.approx(counts[25:].sum() / 5000)
    assert a.chance_at_least(0) == pytest.approx(1 - fail_share)
    assert simulate_turns(policy, 0, 1).turns == 0


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: simulate_turns(threshold_policy(25), -1), "turns"),
        (lambda: simulate_turns(threshold_policy(25), 10, seed="x"), "seed"),
        (lambda: simulate_turns("optimal", 10), "TurnPolicy"),
        (lambda: threshold_policy(-2), "threshold"),
        (lambda: simulate_turns(threshold_policy(25), 5, start=TurnPoint(9)), "reached"),
    ],
)
def test_bad_input_raises_value_error(call: object, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
