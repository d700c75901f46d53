"""The distributions the lessons and charts show (henkit.henpen.distributions), against brute
force, the solver and simulation."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.henpen import ROLL, Claim, State, Take
from henkit.henpen import distributions as dist
from henkit.henpen.advice import solution_for
from henkit.henpen.batch import threshold_policy
from henkit.henpen.dice import FACES, WORM, sample_roll
from henkit.henpen.odds import TurnReward, position_reward, solve_turn
from henkit.henpen.state import Phase

TAKE, DECIDE = Phase.TAKE, Phase.DECIDE


def brute_face_counts(n: int, face: int) -> list[Fraction]:
    """Every ordered roll of n dice, counted by hand: the oracle for one roll's distribution."""
    tally = [0] * (n + 1)
    for roll in itertools.product(FACES, repeat=n):
        tally[roll.count(face)] += 1
    return [Fraction(c, 6**n) for c in tally]


@pytest.mark.parametrize(("n", "face"), [(1, WORM), (3, WORM), (4, 2), (5, 5)])
def test_face_count_distribution_matches_brute_force(n, face):
    assert list(dist.face_count_distribution(n, face)) == brute_face_counts(n, face)




def test_simulated_counts_use_the_engines_sampler():
    rng_a, rng_b = np.random.default_rng(11), np.random.default_rng(11)
    fast = dist.simulate_face_counts(8, 3, 200, rng_a)
    slow = [sample_roll(8, rng_b)[3 - 1] for _ in range(200)]
    assert fast.tolist() == slow




def test_policy_distributions_are_the_engines():
    d = dist.policy_distributions((25,), optimal=False)["stop at 25"]
    assert d == threshold_policy(25).end_distribution()
    exact = dist.policy_distributions((), exact=True)["optimal (expected worms)"]
    assert exact == solve_turn(position_reward(), exact=True).end_distribution()
    assert sum(exact.at_total) + exact.fail == 1




def expected_worms(state: State, outlook: dict) -> float:
    """Worms gained on average: the claims' worms, minus one's own top when the turn fails."""
    top = state.top(state.player)
    fail_value = -state.rules.worms(top) if top is not None else 0
    return sum(p * (fail_value if c is None else state.rules.worms(c.tile))
               for c, p in outlook.items())


def test_turn_outlook_at_the_start_of_a_turn_agrees_with_the_solvers_value():
    s = State.new(2)
    outlook = dist.turn_outlook(s)
    assert sum(outlook.values()) == pytest.approx(1.0)
    assert expected_worms(s, outlook) == pytest.approx(solution_for(s).value(s))
    assert all(c is None or c.tile in s.grill for c in outlook)


def test_turn_outlook_after_a_roll_assumes_the_best_take():
    s = State.new(2).apply(ROLL).apply((0, 0, 2, 1, 2, 3))
    assert s.phase == TAKE
    outlook = dist.turn_outlook(s)
    sol = solution_for(s)
    face = sol.best_face(s.roll, s)
    after = s.apply(Take(face))
    assert expected_worms(s, outlook) == pytest.approx(sol.value(after))
    assert dist.turn_outlook(after) == pytest.approx(outlook)


def test_turn_outlook_is_one_claim_when_the_turn_ends_by_itself():
    s = State.new(2).apply(ROLL).apply((0, 0, 0, 0, 0, 8))
    s = s.apply(Take(WORM))  # every die a worm: total 40, the turn ends by itself
    assert s.phase == DECIDE
    outlook = dist.turn_outlook(s)
    assert outlook == {None: 0.0, Claim(36): 1.0}  # 40 is above every serving: the highest




@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10), st.sampled_from(FACES))
def test_face_counts_are_a_binomial_distribution(n, face):
    exact = dist.face_count_distribution(n, face)
    assert sum(exact) == 1
    # Each die shows the face with chance 1/6 independently: the mean count is n/6.
    assert sum(k * p for k, p in enumerate(exact)) == Fraction(n, 6)


def test_bust_chances_match_every_ordered_roll():
    table = dist.bust_chances(4)
    for k in range(7):
        for d in range(1, 5):
            rolls = list(itertools.product(FACES, repeat=d))
            busts = sum(all(f in FACES[:k] for f in r) for r in rolls)
            assert table[k][d - 1] == Fraction(busts, len(rolls))


def test_simulated_face_counts_approach_the_exact_distribution():
    counts = dist.simulate_face_counts(6, WORM, 200_000, seed=3)
    freq = np.bincount(counts, minlength=7) / counts.size
    exact = np.array([float(p) for p in dist.face_count_distribution(6, WORM)])
    se = np.sqrt(exact * (1 - exact) / counts.size)
    assert (np.abs(freq - exact) <= 4 * se + 1e-12).all()


@pytest.mark.parametrize("taken", [None, {WORM}, {WORM, 5}])
def test_decision_map_is_the_solvers_decision_at_every_moment(taken):
    sol = solve_turn(TurnReward.at_least(25, 40))
    dmap = dist.decision_map(sol, taken)
    sp = sol.space
    seen = 0
    for i in range(sp.size):
        if not (sp.has_worm[i] and sp.rollable[i]):
            continue
        point = sp.point(i)
        if taken is not None and point.taken != frozenset(taken):
            continue
        cell = dmap.cells[(point.dice_left, point.total)]
        stop, roll = sol.value_if_stop(point), sol.value_if_roll(point)
        want = "tie" if abs(stop - roll) <= 1e-12 else ("stop" if stop > roll else "roll")
        assert want in cell
        seen += 1
    assert seen == sum(map(len, dmap.cells.values()))


def test_decision_map_refuses_faces_without_a_choice():
    sol = solve_turn(TurnReward.at_least(25, 40))
    with pytest.raises(ValueError, match="include the worm"):
        dist.decision_map(sol, {1, 2})
