"""Spread, risk and waiting (henkit.henpen.spread) against brute force, the solver, seeded
simulation and the rules of means and variances."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.henpen import spread as sp
from henkit.henpen.batch import simulate_turns, threshold_policy
from henkit.henpen.dice import FACES, face_value
from henkit.henpen.odds import EndDistribution, TurnReward, position_reward, solve_turn
from tests.fuzz_values import junk, only_value_error

chances = st.fractions(min_value=Fraction(1, 50), max_value=1, max_denominator=60)


def brute_totals(n: int) -> dict[int, Fraction]:
    """Every ordered roll of n dice added up by hand: the oracle for a roll's total."""
    tally: dict[int, int] = {}
    for roll in itertools.product([face_value(f) for f in FACES], repeat=n):
        tally[sum(roll)] = tally.get(sum(roll), 0) + 1
    return {t: Fraction(c, 6**n) for t, c in sorted(tally.items())}


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_roll_total_distribution_matches_brute_force(n):
    assert sp.roll_total_distribution(n) == brute_totals(n)


def test_eight_dice_against_all_ordered_rolls():
    """All 6^8 ordered rolls of 8 dice, tallied with numpy: the lesson's distribution."""
    values = np.array([face_value(f) for f in FACES])
    grids = np.meshgrid(*([values] * 8), indexing="ij", sparse=True)
    totals = sum(grids).ravel()
    counts = np.bincount(totals)
    brute = {t: Fraction(int(c), 6**8) for t, c in enumerate(counts) if c}
    assert sp.roll_total_distribution(8) == brute


def test_spread_of_eight_dice_is_eight_times_one_die():
    one, eight = sp.spread_of(sp.roll_total_distribution(1)), sp.spread_of(sp.roll_total_distribution(8))
    assert (one.mean, one.variance) == (Fraction(10, 3), Fraction(20, 9))
    assert (eight.mean, eight.variance) == (8 * one.mean, 8 * one.variance) == (Fraction(80, 3), Fraction(160, 9))
    assert eight.sd == pytest.approx(math.sqrt(160 / 9))


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 12))
def test_means_and_variances_add_over_dice(n):
    one, many = sp.spread_of(sp.roll_total_distribution(1)), sp.spread_of(sp.roll_total_distribution(n))
    assert (many.mean, many.variance) == (n * one.mean, n * one.variance)
    assert sum(sp.roll_total_distribution(n).values()) == 1


def test_simulated_totals_land_within_a_few_standard_errors():
    exact = sp.spread_of(sp.roll_total_distribution(8))
    rolled = sp.simulate_roll_totals(8, 200_000, seed=3)
    assert rolled.min() >= 8 and rolled.max() <= 40
    se = exact.sd / math.sqrt(rolled.size)
    assert abs(rolled.mean() - float(exact.mean)) < 4 * se
    assert rolled.std() == pytest.approx(exact.sd, rel=0.01)
    # Every total's frequency within 4 standard errors of its exact chance.
    freq = np.bincount(rolled, minlength=41) / rolled.size
    for t, p in sp.roll_total_distribution(8).items():
        assert abs(freq[t] - float(p)) < 4 * math.sqrt(float(p * (1 - p)) / rolled.size) + 1e-9
    # Seeded: the same seed gives the same rolls, another seed others.
    again = sp.simulate_roll_totals(8, 1000, seed=3)
    assert (again == rolled[:1000]).all()
    assert not (sp.simulate_roll_totals(8, 1000, seed=4) == again).all()


def test_spread_of_a_small_distribution_by_hand():
    s = sp.spread_of({0: Fraction(1, 2), 2: Fraction(1, 2)})
    assert (s.mean, s.variance, s.sd) == (1, 1, 1.0)
    f = sp.spread_of({1: 0.25, 3: 0.75})
    assert f.mean == pytest.approx(2.5) and f.variance == pytest.approx(0.75)


def test_turn_worms_agrees_with_the_expected_worms_of_the_solver():
    reward = position_reward()
    for ends in (threshold_policy(25).end_distribution(exact=True),
                 solve_turn(reward, exact=True).end_distribution()):
        worms = sp.turn_worms(ends)
        assert sum(worms.values()) == 1
        assert set(worms) <= {0, 1, 2, 3, 4}
        assert sp.spread_of(worms).mean == ends.expectation(reward.stop_value, reward.fail_value)
        # A failure and an end below 21 both win nothing.
        assert worms[0] == ends.fail + sum(ends.at_total[:21])


def test_policy_worms_exact_and_float_agree_and_name_the_policies():
    names = ["stop at 22", "most worms", "best chance of 21 or more", "best chance of 29 or more"]
    exact = sp.policy_worms(names, exact=True)
    fast = sp.policy_worms(names)
    assert list(exact) == names
    for name in names:
        assert all(isinstance(p, Fraction) for p in exact[name].values())
        assert sum(exact[name].values()) == 1
        for w, p in exact[name].items():
            assert fast[name][w] == pytest.approx(float(p), abs=1e-12)
    # Playing for at least 21: its chance of winning something is the solver's best chance.
    best21 = solve_turn(TurnReward.at_least(21, 40), exact=True).value()
    assert 1 - exact["best chance of 21 or more"][0] == best21
    # The most-worms solver has the highest mean of all.
    means = {n: sp.spread_of(d).mean for n, d in exact.items()}
    assert max(means, key=means.get) == "most worms"


def test_policy_worms_matches_simulated_turns():
    reward = position_reward()
    worms = sp.policy_worms(["stop at 25"])["stop at 25"]
    totals = simulate_turns(threshold_policy(25), 100_000, seed=5).totals
    won = np.where(totals >= 0, np.array(reward.stop_value, dtype=float)[totals], 0)
    for w, p in worms.items():
        assert abs(np.mean(won == w) - p) < 4 * math.sqrt(p * (1 - p) / won.size) + 1e-9


def test_sum_of_turns_by_hand_and_its_spread():
    coin = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert sp.sum_of_turns(coin, 3) == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8),
                                        3: Fraction(1, 8)}
    assert sp.chance_at_least(sp.sum_of_turns(coin, 3), 2) == Fraction(1, 2)
    assert sp.chance_at_least(coin, 5) == 0


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=1, max_size=4), st.integers(1, 5))
def test_sum_of_turns_adds_means_and_variances(weights, turns):
    dist = {w: Fraction(x, sum(weights)) for w, x in enumerate(weights)}
    one, total = sp.spread_of(dist), sp.spread_of(sp.sum_of_turns(dist, turns))
    assert (total.mean, total.variance) == (turns * one.mean, turns * one.variance)


@settings(max_examples=30, deadline=None)
@given(chances, st.integers(1, 40))
def test_geometric_chances_tail_mean_and_variance(p, n):
    law = [sp.geometric(p, k) for k in range(1, n + 1)]
    assert 1 - sum(law) == (1 - p) ** n  # the rest: the first n tries all missed
    s = sp.waiting_spread(p)
    assert s.mean == 1 / p and s.variance == (1 - p) / p**2


def test_geometric_mean_is_the_limit_of_its_partial_sums():
    p = Fraction(1, 6)
    partial = sum(k * sp.geometric(p, k) for k in range(1, 400))
    assert abs(float(partial) - 6) < 1e-20 + 1e-12


def test_waits_cut_a_run_of_tries():
    assert sp.waits([False, False, True, True, False, True, False]).tolist() == [3, 1, 2]
    assert sp.waits([0, 0, 0]).tolist() == []
    assert sp.waits(np.array([1, 0, 1])).tolist() == [1, 2]


def test_simulated_waits_for_a_worm_are_geometric():
    from henkit.henpen.distributions import simulate_face_counts

    hits = simulate_face_counts(1, 6, 300_000, seed=9) > 0
    w = sp.waits(hits)
    s = sp.waiting_spread(Fraction(1, 6))
    assert abs(w.mean() - 6) < 4 * s.sd / math.sqrt(w.size)
    for n in (1, 2, 5, 10):
        p = float(sp.geometric(Fraction(1, 6), n))
        assert abs(np.mean(w == n) - p) < 4 * math.sqrt(p * (1 - p) / w.size)


@pytest.mark.parametrize(("deck", "copies"), [(1, 1), (5, 1), (6, 2), (7, 3), (6, 6)])
def test_draws_until_matches_every_order_of_a_small_deck(deck, copies):
    cards = [1] * copies + [0] * (deck - copies)
    orders = list(itertools.permutations(cards))
    tally: dict[int, int] = {}
    for order in orders:
        n = order.index(1) + 1
        tally[n] = tally.get(n, 0) + 1
    assert sp.draws_until(deck, copies) == {n: Fraction(c, len(orders)) for n, c in sorted(tally.items())}


def test_draws_until_one_card_is_uniform_with_mean_half_the_deck():
    law = sp.draws_until(72)
    assert set(law.values()) == {Fraction(1, 72)} and list(law) == list(range(1, 73))
    assert sp.spread_of(law).mean == Fraction(73, 2)
    assert sp.spread_of(sp.draws_until(72, 2)).mean == Fraction(73, 3)


def test_bad_input_is_a_value_error_naming_what_is_allowed():
    with pytest.raises(ValueError, match="dice"):
        sp.roll_total_distribution(0)
    with pytest.raises(ValueError, match="rolls"):
        sp.simulate_roll_totals(8, 0)
    with pytest.raises(ValueError, match="seed"):
        sp.simulate_roll_totals(8, 10, seed=-1)
    with pytest.raises(ValueError, match="add up to 1"):
        sp.spread_of({1: Fraction(1, 2)})
    with pytest.raises(ValueError, match="dict"):
        sp.spread_of({})
    with pytest.raises(ValueError, match="way of playing"):
        sp.policy_worms(["stop at"])
    with pytest.raises(ValueError, match="T must be"):
        sp.policy_worms(["stop at 99"])
    with pytest.raises(ValueError, match="list"):
        sp.policy_worms("most worms")
    with pytest.raises(ValueError, match="end distribution"):
        sp.turn_worms({0: 1})
    with pytest.raises(ValueError, match="reward covers"):
        sp.turn_worms(EndDistribution((Fraction(0),) * 50, Fraction(1)), TurnReward.at_least(21, 40))
    with pytest.raises(ValueError, match="whole numbers of worms"):
        sp.sum_of_turns({Fraction(1, 2): 1}, 2)
    with pytest.raises(ValueError, match="turns"):
        sp.sum_of_turns({0: 1}, 0)
    with pytest.raises(ValueError, match="above 0"):
        sp.geometric(0, 1)
    with pytest.raises(ValueError, match="first hit"):
        sp.geometric(Fraction(1, 2), 0)
    with pytest.raises(ValueError, match="copies"):
        sp.draws_until(5, 6)
    with pytest.raises(ValueError, match="True/False"):
        sp.waits([0, 2])


@settings(max_examples=40, deadline=None)
@given(junk())
def test_every_function_refuses_junk_with_a_value_error(x):
    for call in (lambda: sp.roll_total_distribution(x), lambda: sp.spread_of(x),
                 lambda: sp.geometric(x, 1), lambda: sp.waiting_spread(x),
                 lambda: sp.draws_until(x), lambda: sp.waits(x), lambda: sp.sum_of_turns(x, 1),
                 lambda: sp.chance_at_least({1: 1}, x), lambda: sp.policy_worms([x]),
                 lambda: sp.turn_worms(x), lambda: sp.simulate_roll_totals(8, 10, x)):
        only_value_error(call)
