"""Q-learning of the Henpen turn (henkit.henpen.learning), graded by the exact solver.

The grading is only as good as its exact evaluation, so that is checked first: the optimal
policy evaluates to the solver's value (as fractions, to the last digit), and any policy's exact
value agrees with a seeded simulation of the same policy. Then the learner: the same seed gives
the same table, training lowers the value lost, a table holding the solver's own values grades
as perfect, a planted mistake is found, and bad input is refused, naming what is allowed.
"""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.henpen.batch import simulate_turns, threshold_policy
from henkit.henpen.dice import face_name
from henkit.henpen.learning import (
    TIE,
    QLearner,
    evaluate_policy,
    learning_curve,
    policy_values,
)
from henkit.henpen.odds import TurnReward, position_reward, solve_turn
from henkit.henpen.rules import Rules
from henkit.henpen.turnspace import TurnPolicy

SMALL = Rules(dice=5)  # a 5-dice turn: small enough for exact fractions in a unit test


@pytest.fixture(scope="module")
def trained() -> QLearner:
    """A learner after 60,000 seeded turns (shared: the tests below only read it)."""
    return QLearner(seed=3).train(60_000)


def optimal_table(learner: QLearner) -> None:
    """Fill a learner's table with the solver's own action values."""
    sp, sol = learner.space, learner.solution
    v = policy_values(sol.policy, learner.reward)
    learner.q_take[:] = v[sp.edge_child]
    best = np.maximum.reduceat(learner.q_take, sp.pair_edge_start[:-1])
    learner.q_roll[:] = np.bincount(sp.pair_node, weights=sp.pair_prob * best, minlength=sp.size)
    learner.q_stop[:] = np.where(sp.has_worm, np.array(learner.reward.floats[0])[sp.total],
                                 learner.fail_value)


# -- exact evaluation --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SMALL, Rules()], ids=["5 dice", "8 dice"])
def test_the_optimal_policy_evaluates_to_the_solvers_value(rules):
    """Exactly (fractions equal) and in floats, from the fresh turn and from every node."""
    reward = position_reward(rules=rules)
    exact = solve_turn(reward, rules=rules, exact=True)
    assert evaluate_policy(exact.policy, reward, exact=True) == exact.value()
    floats = solve_turn(reward, rules=rules)
    assert evaluate_policy(floats.policy, reward) == pytest.approx(float(exact.value()), abs=1e-12)
    values = policy_values(floats.policy, reward)
    sp = floats.space
    for i in range(0, sp.size, 7 if rules is SMALL else 37):
        assert values[i] == pytest.approx(floats.value(sp.point(i)), abs=1e-12)


def test_a_learned_policy_evaluates_exactly_as_a_simulation_of_it_lands(trained):
    """The learned play (and a threshold rule): exact value vs 400,000 seeded simulated turns,
    within 4 standard errors; the fraction and the float agree."""
    reward = trained.reward
    for policy in (trained.policy(), threshold_policy(27)):
        value = evaluate_policy(policy, reward)
        turns = simulate_turns(policy, 400_000, seed=17)
        stop_value, fail = reward.floats
        worth = np.where(turns.totals >= 0, stop_value[np.maximum(turns.totals, 0)], fail)
        se = worth.std() / math.sqrt(turns.turns)
        assert abs(worth.mean() - value) < 4 * se, (policy.name, worth.mean(), value, se)
        assert float(evaluate_policy(policy, reward, exact=True)) == pytest.approx(value, abs=1e-12)


def test_node_values_agree_with_the_end_distribution_from_mid_turn(trained):
    """Per-node values (backwards) = the forward pass's expected reward from that node."""
    policy, reward = trained.policy(), trained.reward
    values = policy_values(policy, reward)
    sp = policy.space
    for i in range(1, sp.size, 97):
        ends = policy.end_distribution(sp.point(i))
        assert values[i] == pytest.approx(
            ends.expectation(reward.floats[0], reward.floats[1]), abs=1e-12)


# -- the learner -------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_table_and_another_seed_another():
    a, b, c = (QLearner(seed=s).train(5_000) for s in (8, 8, 9))
    for name in ("q_stop", "q_roll", "q_take", "node_visits", "pair_visits"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.grade() == b.grade()
    assert not np.array_equal(a.q_take, c.q_take)
    # A Generator is a seed too, and training in pieces is training.
    d = QLearner(seed=np.random.default_rng(8)).train(2_000).train(3_000)
    assert np.array_equal(d.q_take, a.q_take) and d.episodes == 5_000


def test_learning_lowers_the_value_lost_and_raises_the_agreement():
    """Seed 5, graded at 0, 20,000, 60,000 and 150,000 turns: every grade better than the one
    before (deterministic: the same numbers every run)."""
    curve = learning_curve(150_000, 10_000, seed=5)
    assert [g.episodes for g in curve] == list(range(0, 150_001, 10_000))
    picked = [curve[i] for i in (0, 2, 6, 15)]
    lost = [g.value_lost for g in picked]
    assert all(x > y for x, y in pairwise(lost)), lost
    weighted = [g.agreement_weighted for g in picked]
    assert all(x < y for x, y in pairwise(weighted)), weighted
    assert lost[0] > 1.0 and lost[-1] < 0.2  # it learns most of the game, not all of it
    for g in curve:
        assert 0 <= g.agreement <= 1 and 0 <= g.agreement_seen <= 1
        assert g.value <= g.optimum + 1e-12  # nothing beats the optimum


def test_a_table_of_the_solvers_values_grades_as_perfect():
    learner = QLearner(seed=0)
    optimal_table(learner)
    grade = learner.grade()
    assert grade.agreement == 1.0 and grade.agreement_weighted == 1.0
    assert grade.value_lost == pytest.approx(0.0, abs=1e-12)
    assert learner.disagreements() == []
    assert np.array_equal(learner.policy().stop, learner.solution.policy.stop)


def test_a_planted_mistake_is_found_with_its_cost():
    """Stopping at a moment where the solver rolls: listed first, its cost the solver's
    roll value minus stopping, its reach the chance optimal play gets there."""
    learner = QLearner(seed=0)
    optimal_table(learner)
    sol, sp = learner.solution, learner.space
    nodes = [i for i in range(sp.size) if sp.rollable[i] and sp.has_worm[i]
             and sol.best_decision(sp.point(i)) == "roll"
             and sol.value_if_roll(sp.point(i)) - sol.value_if_stop(sp.point(i)) > 0.5]
    reach = policy_reach(sol.policy)
    node = max(nodes, key=lambda i: reach[i])
    learner.q_stop[node] = learner.q_roll[node] + 1
    (d,) = learner.disagreements()
    point = sp.point(node)
    assert d.point == point and d.shown is None and (d.optimal, d.learned) == ("roll", "stop")
    assert d.cost == pytest.approx(sol.value_if_roll(point) - sol.value_if_stop(point))
    assert d.reach == pytest.approx(reach[node])
    lost = learner.grade().value_lost
    assert lost == pytest.approx(d.loss_per_turn, abs=1e-12)  # optimal play everywhere else


def test_a_planted_wrong_face_is_found():
    learner = QLearner(seed=0)
    optimal_table(learner)
    sol, sp = learner.solution, learner.space
    # The first roll where keeping the best face beats the second best by a clear margin.
    pair = next(p for p in range(int(sp.pair_start[learner.root]), int(sp.pair_start[learner.root + 1]))
                if np.diff(sp.pair_edge_start)[p] > 1
                and np.sort(learner.q_take[sp.pair_edge_start[p]:sp.pair_edge_start[p + 1]])[-2]
                < learner.q_take[sp.pair_edge_start[p]:sp.pair_edge_start[p + 1]].max() - 0.01)
    edges = np.arange(sp.pair_edge_start[pair], sp.pair_edge_start[pair + 1])
    worst = edges[np.argmin(learner.q_take[edges])]
    learner.q_take[worst] = 99.0
    (d,) = learner.disagreements()
    assert d.point == sp.root and d.learned == face_name(int(sp.edge_face[worst]))
    assert sum(d.shown) + d.dead_dice == sp.root.dice_left
    values = sol.take_values(d.shown)  # nothing is taken at the root: no die is dead
    assert d.optimal == face_name(next(iter(values)))
    assert d.cost == pytest.approx(next(iter(values.values())) - values[int(sp.edge_face[worst])])


def policy_reach(policy: TurnPolicy) -> np.ndarray:
    """Chance that `policy` is at each node of a fresh turn: an independent forward pass over
    the space's exact roll chances, in plain Python."""
    sp = policy.space
    mass = [0.0] * (sp.size + 1)
    mass[sp.index(sp.root)] = 1.0
    for i in sorted(range(sp.size), key=lambda i: -int(sp.n[i])):
        if policy.stop[i] or not mass[i]:
            continue
        for p in range(int(sp.pair_start[i]), int(sp.pair_start[i + 1])):
            mass[int(policy.next[p])] += mass[i] * float(sp.pair_prob[p])
    return np.array(mass[:-1])


def test_learning_another_reward():
    """A position where a failed turn costs 2 worms: the learner's optimum is the solver's."""
    reward = position_reward([r for r in range(21, 37) if r != 26], own_top=26)
    learner = QLearner(reward, seed=1)
    assert learner.fail_value == -2.0
    assert learner.grade().optimum == pytest.approx(float(solve_turn(reward).value()))
    learner.train(20_000)
    assert learner.grade().value_lost < QLearner(reward, seed=1).grade().value_lost


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), rate=st.floats(0.01, 1.0), explore=st.floats(0.0, 1.0))
def test_every_learned_value_stays_between_the_worst_and_best_reward(seed, rate, explore):
    """Each update moves a value towards a target made of rewards and other values, so no
    value leaves [fail, best serving] (the table starts at 0, inside it)."""
    learner = QLearner(rules=SMALL, seed=seed, learning_rate=rate,
                       exploration=explore, batch=200).train(2_000)
    low, high = learner.fail_value, float(max(learner.reward.stop_value))
    for table in (learner.q_stop, learner.q_roll, learner.q_take):
        assert np.isfinite(table).all()
        assert table.min() >= low - TIE and table.max() <= high + TIE
    assert learner.pair_visits[learner.space.pair_start[learner.root]:
                               learner.space.pair_start[learner.root + 1]].sum() == 2_000


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "words"), [
    ({"learning_rate": 0}, "learning_rate must be more than 0"),
    ({"learning_rate": 1.5}, "learning_rate must be a number from 0 to 1"),
    ({"learning_rate": "fast"}, "learning_rate must be a number"),
    ({"exploration": -0.1}, "exploration .* must be a number from 0 to 1"),
    ({"exploration": True}, "exploration .* must be a number from 0 to 1"),
    ({"initial": float("nan")}, "initial .* must be a finite number"),
    ({"batch": 0}, "batch .* must be from 1 to 100000"),
    ({"batch": 2.5}, "batch .* must be a whole number"),
    ({"seed": -1}, "seed .* at least 0"),
    ({"seed": "x"}, "seed"),
    ({"rules": "standard"}, "rules must be a henkit.henpen Rules or None"),
])
def test_bad_options_are_refused_naming_what_is_allowed(options, words):
    with pytest.raises(ValueError, match=words):
        QLearner(**options)


def test_bad_rewards_and_calls_are_refused_and_change_nothing(trained):
    with pytest.raises(ValueError, match="reward must be a TurnReward"):
        QLearner([0, 1, 2])
    with pytest.raises(ValueError, match="covers totals 0..3"):
        QLearner(TurnReward([0, 1, 2, 3]))
    before = (trained.episodes, trained.q_take.copy(), trained.rng.bit_generator.state)
    for bad in (-1, 1.5, "10", None, 10**9):
        with pytest.raises(ValueError, match="episodes must be"):
            trained.train(bad)
    with pytest.raises(ValueError, match="top .* at least 0"):
        trained.disagreements(-1)
    assert trained.episodes == before[0] and np.array_equal(trained.q_take, before[1])
    assert trained.rng.bit_generator.state == before[2]
    with pytest.raises(ValueError, match="policy must be a TurnPolicy"):
        evaluate_policy("stop at 25")
    with pytest.raises(ValueError, match="reward must be a TurnReward"):
        policy_values(trained.policy(), {25: 2})
    with pytest.raises(ValueError, match="exact must be True or False"):
        evaluate_policy(trained.policy(), exact="yes")
    with pytest.raises(ValueError, match="every .* must be from 1"):
        learning_curve(10, 0)
    with pytest.raises(ValueError, match="a learner, not both"):
        learning_curve(10, 5, learner=trained, batch=10)
    with pytest.raises(ValueError, match="learner must be a QLearner"):
        learning_curve(10, 5, learner="me")
    assert trained.episodes == before[0]


def test_grades_hold_fractions_of_decisions_and_a_reach_that_adds_up(trained):
    """Disagreement reaches are chances; a stop-or-roll point's reach is a node's chance, so the
    reaches of distinct moments never add up to more than the turns' decisions (at most 7)."""
    found = trained.disagreements(10_000)
    assert found and all(0 < d.reach <= 1 and d.cost > TIE for d in found)
    assert sum(d.reach for d in found if d.shown is None) <= 7
    losses = [d.loss_per_turn for d in found]
    assert losses == sorted(losses, reverse=True)
    for d in found:
        if d.shown is not None:
            assert all(d.shown[f - 1] == 0 for f in d.point.taken)
            assert d.optimal != d.learned


def test_grades_and_disagreements_made_by_hand_are_checked(trained):
    from dataclasses import replace

    grade = trained.grade()
    for field, bad, words in (("episodes", -1, "episodes must be at least 0"),
                              ("agreement", 1.5, "agreement must be a number from 0 to 1"),
                              ("value", float("inf"), "value must be a finite number"),
                              ("optimum", "high", "optimum must be a number")):
        with pytest.raises(ValueError, match=words):
            replace(grade, **{field: bad})
    found = trained.disagreements(50)
    face = next(d for d in found if d.shown is not None)
    for field, bad, words in (("point", (2, 3), "point must be a TurnPoint"),
                              ("shown", (1, 2), "shown must be None or 6 counts"),
                              ("shown", (9, 0, 0, 0, 0, 0), "a count of dice shown must be from 0"),
                              ("learned", 5, "learned must be text"),
                              ("reach", 2.0, "reach .* must be a number from 0 to 1"),
                              ("met", -3, "met .* must be at least 0")):
        with pytest.raises(ValueError, match=words):
            replace(face, **{field: bad})
    assert face.met == trained.pair_visits[
        next(p for p in range(len(trained.space.pair_node))
             if trained.space.pair_node[p] == trained.space.index(face.point)
             and learner_shown(trained, p) == face.shown)]


def learner_shown(learner: QLearner, pair: int) -> tuple[int, ...]:
    """The dice shown of a pair's roll, from the space's roll patterns (taken faces 0)."""
    sp = learner.space
    n = int(sp.pair_node[pair])
    counts = iter(sp.pattern_list[int(sp.node_pattern[n])].counts[int(sp.pair_local[pair])])
    return tuple(0 if f in sp.point(n).taken else int(next(counts)) for f in range(1, 7))
