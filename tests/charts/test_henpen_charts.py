"""Henpen charts: the numbers drawn are the engine's exact values, and figures are reproducible."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.charts import henpen as ch
from henkit.charts.style import FAIL_COLOUR, TEMPLATE
from henkit.henpen import Rules, State
from henkit.henpen import distributions as dist
from henkit.henpen.dice import FACES, WORM
from henkit.henpen.odds import TurnPoint, position_reward, solve_turn


def brute_face_counts(n: int, face: int) -> list[Fraction]:
    """Every ordered roll of n dice, counted by hand: the oracle for one roll's distribution."""
    tally = [0] * (n + 1)
    for roll in itertools.product(FACES, repeat=n):
        tally[roll.count(face)] += 1
    return [Fraction(c, 6**n) for c in tally]


def axis_titles(fig: go.Figure) -> tuple[str, str]:
    return fig.layout.xaxis.title.text, fig.layout.yaxis.title.text


# -- one roll ----------------------------------------------------------------------------------


def test_roll_count_chart_bars_are_the_exact_chances():
    fig = ch.roll_count_chart(4, WORM)
    (bar,) = fig.data
    assert list(bar.x) == [0, 1, 2, 3, 4]
    assert list(bar.y) == [float(p) for p in brute_face_counts(4, WORM)]
    assert sum(bar.y) == pytest.approx(1.0)
    assert all(axis_titles(fig)) and "probability" in axis_titles(fig)[1]
    assert "worm" in fig.layout.title.text


def test_roll_count_chart_simulated_bars_are_the_observed_frequencies():
    observed = [0, 1, 1, 2, 8, 1]
    fig = ch.roll_count_chart(8, WORM, simulated=observed)
    sim = fig.data[1]
    assert sim.y[1] == pytest.approx(3 / 6) and sim.y[8] == pytest.approx(1 / 6)
    assert sum(sim.y) == pytest.approx(1.0)
    assert "6 rolls" in sim.name


def test_seeded_simulation_is_reproducible_and_seed_dependent():
    a = ch.roll_count_chart(8, WORM, simulated=5, rolls=500).to_json()
    b = ch.roll_count_chart(8, WORM, simulated=5, rolls=500).to_json()
    c = ch.roll_count_chart(8, WORM, simulated=6, rolls=500).to_json()
    assert a == b
    assert a != c


def test_simulated_frequencies_approach_the_exact_chances():
    fig = ch.roll_count_chart(8, WORM, simulated=1, rolls=100_000)
    exact, sim = np.array(fig.data[0].y), np.array(fig.data[1].y)
    se = np.sqrt(exact * (1 - exact) / 100_000)
    assert (np.abs(sim - exact) <= 5 * se + 1e-12).all()


@pytest.mark.parametrize(
    "kwargs",
    [{"n": 0}, {"n": 8, "face": 7}, {"n": 8, "simulated": [1.5, 2]}, {"n": 8, "simulated": [9]},
     {"n": 8, "simulated": []}, {"n": 8, "simulated": 1, "rolls": 0}, {"n": True}],
)
def test_roll_count_chart_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        ch.roll_count_chart(**kwargs)


# -- law of large numbers ----------------------------------------------------------------------


def test_law_of_large_numbers_line_is_the_running_frequency():
    outcomes = [True, False, False, True, True, False, True, True]
    fig = ch.law_of_large_numbers_chart(Fraction(1, 2), outcomes, event="a head")
    running = next(t for t in fig.data if t.name == "running frequency")
    assert list(running.x) == list(range(1, 9))
    assert list(running.y) == pytest.approx([1, 1 / 2, 1 / 3, 2 / 4, 3 / 5, 3 / 6, 4 / 7, 5 / 8])
    exact = next(t for t in fig.data if (t.name or "").startswith("exact"))
    assert list(exact.y) == [0.5, 0.5]
    assert "a head" in fig.layout.title.text and all(axis_titles(fig))


def test_law_of_large_numbers_thins_long_runs_but_keeps_the_end():
    rng = np.random.default_rng(3)
    outcomes = rng.random(50_000) < 0.3
    fig = ch.law_of_large_numbers_chart(0.3, outcomes)
    running = next(t for t in fig.data if t.name == "running frequency")
    assert len(running.x) <= ch.MAX_LINE_POINTS
    assert running.x[-1] == 50_000
    assert running.y[-1] == pytest.approx(outcomes.mean())


@pytest.mark.parametrize(("exact", "outcomes"),
                         [(1.5, [True]), (-0.1, [True]), (0.5, []), (0.5, [2, 3]), ("a", [True])])
def test_law_of_large_numbers_rejects_bad_input(exact, outcomes):
    with pytest.raises(ValueError):
        ch.law_of_large_numbers_chart(exact, outcomes)


# -- bust chance -------------------------------------------------------------------------------


def brute_bust(dice: int, k: int) -> Fraction:
    taken = set(FACES[:k])
    rolls = list(itertools.product(FACES, repeat=dice))
    return Fraction(sum(set(r) <= taken for r in rolls), len(rolls))


def test_bust_heatmap_cells_are_exact_bust_chances():
    fig = ch.bust_heatmap(8)
    (hm,) = fig.data
    assert list(hm.x) == list(range(1, 9)) and list(hm.y) == list(range(7))
    for k in range(7):
        for d in range(1, 9):
            want = brute_bust(d, k) if d <= 4 else Fraction(k, 6) ** d  # (k/6)^d: independent dice
            assert hm.z[k][d - 1] == float(want)
    assert list(hm.z[0]) == [0.0] * 8 and list(hm.z[6]) == [1.0] * 8
    assert hm.texttemplate == "%{text}"  # every cell is annotated with its value
    assert hm.text[0][0] == "0%" and hm.text[6][7] == "100%" and hm.text[2][1] == "11.1%"
    assert hm.text[1][7] == "<0.1%"  # 1/6^8 is small but not 0
    assert all(axis_titles(fig))


@pytest.mark.parametrize("bad", [0, 21, 2.5, "8"])
def test_bust_heatmap_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        ch.bust_heatmap(bad)


# -- end distributions -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dists():
    return dist.policy_distributions((21, 25))


def test_end_distribution_chart_bars_are_each_policys_chances(dists):
    fig = ch.end_distribution_chart(dists)
    assert [t.name for t in fig.data] == list(dists)
    for trace, d in zip(fig.data, dists.values(), strict=True):
        assert trace.x[0] == "failed" and trace.y[0] == pytest.approx(d.fail)
        for x, y in zip(trace.x[1:], trace.y[1:], strict=True):
            assert y == d.chance_exactly(int(x))
        assert sum(trace.y) == pytest.approx(1.0)
    assert all(axis_titles(fig))


def test_end_distribution_chart_rejects_bad_input(dists):
    from henkit.henpen.odds import EndDistribution

    with pytest.raises(ValueError):
        ch.end_distribution_chart({})
    with pytest.raises(ValueError):
        ch.end_distribution_chart({"x": [0.5, 0.5]})
    with pytest.raises(ValueError, match="sum"):
        ch.end_distribution_chart({"x": EndDistribution((0.2, 0.2), 0.2)})


def test_chance_at_least_chart(dists):
    fig = ch.chance_at_least_chart(dists, best=True)
    assert list(fig.data[0].x) == list(Rules().tiles)
    for trace, d in zip(fig.data, dists.values(), strict=False):
        assert list(trace.y) == [float(d.chance_at_least(t)) for t in trace.x]
        assert all(a >= b for a, b in itertools.pairwise(trace.y))
    best = fig.data[-1]
    # Playing only for "at least T" can never do worse than any fixed policy.
    for trace in fig.data[:-1]:
        assert all(b >= y - 1e-12 for b, y in zip(best.y, trace.y, strict=True))
    with pytest.raises(ValueError):
        ch.chance_at_least_chart(dists, targets=[])


# -- the policy map ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solution():
    return solve_turn(position_reward())


def test_policy_map_for_a_taken_set_matches_the_solver(solution):
    taken = frozenset({WORM, 3, 4})
    fig = ch.policy_map(solution, taken=taken)
    hm = fig.data[0]
    checked = 0
    for r, dice in enumerate(hm.y):
        for c, total in enumerate(hm.x):
            label = hm.customdata[r][c]
            point = TurnPoint(dice, taken, total)
            if point not in solution.space:
                assert label == "" and hm.z[r][c] is None
                continue
            if label == "same value either way":
                assert solution.value_if_stop(point) == pytest.approx(solution.value_if_roll(point))
            else:
                assert label == solution.best_decision(point)
                assert solution.value_if_stop(point) != pytest.approx(solution.value_if_roll(point))
            checked += 1
    assert checked > 10
    assert {"stop", "roll"} <= {x for row in hm.customdata for x in row}


def test_policy_map_overall_says_depends_only_where_the_solver_differs(solution):
    hm = ch.policy_map(solution).data[0]
    labels = {x.split(" ")[0] for row in hm.customdata for x in row if x}
    assert labels == {"stop", "roll", "depends", "same"}
    sp = solution.space
    for r, dice in enumerate(hm.y):
        for c, total in enumerate(hm.x):
            label = hm.customdata[r][c]
            if not label.startswith("depends"):
                continue
            moments = [sp.point(i) for i in range(sp.size)
                       if sp.n[i] == dice and sp.total[i] == total and sp.has_worm[i]
                       and sp.rollable[i]]
            decisions = {solution.best_decision(p) for p in moments}
            assert decisions == {"stop", "roll"}
    assert all(axis_titles(ch.policy_map(solution)))


def test_policy_map_marks_worthless_choices_as_same_value(solution):
    # One die left at a total of 11: the most one die adds is 5, short of 21, so stopping and
    # rolling both fail for sure (worth 0 worms with a full grill).
    hm = ch.policy_map(solution).data[0]
    assert hm.customdata[list(hm.y).index(1)][list(hm.x).index(11)] == "same value either way"


@pytest.mark.parametrize("taken", [{1, 2}, set(FACES), "W", 7])
def test_policy_map_rejects_sets_without_a_choice(solution, taken):
    with pytest.raises(ValueError):
        ch.policy_map(solution, taken=taken)
    with pytest.raises(ValueError):
        ch.policy_map("not a solution")


# -- the dice tray's outlook -------------------------------------------------------------------


def test_turn_outlook_chart_bars():
    s = State.new(3, stacks=[(), (27,), ()], grill=[t for t in Rules().tiles if t != 27])
    fig = ch.turn_outlook_chart(s, steal_weight=1)  # a steal is worth more than 26 from the grill
    (bar,) = fig.data
    outlook = dist.turn_outlook(s, steal_weight=1)
    assert bar.x[0] == "fail" and bar.y[0] == pytest.approx(outlook[None])
    assert bar.marker.color[0] == FAIL_COLOUR
    assert sum(bar.y) == pytest.approx(1.0)
    assert "27 (steal from P2)" in bar.x
    assert all(axis_titles(fig))
    assert fig.to_json() == ch.turn_outlook_chart(s, steal_weight=1).to_json()


def test_turn_outlook_rejects_a_finished_game():
    over = State.new(2, grill=[])
    with pytest.raises(ValueError, match="over"):
        ch.turn_outlook_chart(over)
    with pytest.raises(ValueError):
        ch.turn_outlook_chart("state")


# -- every henpen chart ------------------------------------------------------------------------


def all_figures(dists, solution):
    return [
        ch.roll_count_chart(8, simulated=1, rolls=100),
        ch.law_of_large_numbers_chart(0.5, [True, False] * 10),
        ch.bust_heatmap(),
        ch.end_distribution_chart(dists),
        ch.chance_at_least_chart(dists),
        ch.policy_map(solution),
        ch.turn_outlook_chart(State.new(2)),
    ]


def test_figures_are_plain_deterministic_and_use_the_template(dists, solution):
    first = all_figures(dists, solution)
    again = all_figures(dists, solution)
    for a, b in zip(first, again, strict=True):
        assert type(a) is go.Figure
        assert a.to_json() == b.to_json()
        assert a.layout.template.layout.font.size == TEMPLATE.layout.font.size
        assert a.layout.title.text


# -- properties --------------------------------------------------------------------------------



@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10), st.sampled_from(FACES))
def test_one_roll_chart_draws_the_engines_distribution(n, face):
    bar = ch.roll_count_chart(n, face).data[0]
    assert list(bar.y) == [float(p) for p in dist.face_count_distribution(n, face)]


def test_bust_heatmap_draws_the_engines_chances():
    (heat,) = ch.bust_heatmap(5).data
    assert [list(row) for row in heat.z] == [[float(p) for p in row] for row in dist.bust_chances(5)]


def test_policy_map_draws_the_engines_decision_map(solution):
    fig = ch.policy_map(solution)
    dmap = dist.decision_map(solution)
    z = fig.data[0].z
    assert list(fig.data[0].y) == list(dmap.dice) and list(fig.data[0].x) == list(dmap.totals)
    shade = {None: None, "roll": 0.0, "depends": 1 / 3, "tie": 2 / 3, "stop": 1.0}
    for r, d in enumerate(dmap.dice):
        for c, t in enumerate(dmap.totals):
            assert z[r][c] == shade[dmap.kind(d, t)]


# -- the numbers are henkit.results' -----------------------------------------------------------


def test_roll_count_chart_draws_the_frequencies_of_henkit_results():
    from henkit.results import frequencies

    observed = dist.simulate_face_counts(8, WORM, 500, 4)
    fig = ch.roll_count_chart(8, WORM, simulated=4, rolls=500)
    counts, shares = frequencies(observed, 9)
    assert list(fig.data[1].y) == shares.tolist()
    assert list(fig.data[1].customdata) == counts.tolist()


def test_law_of_large_numbers_chart_draws_the_running_frequency_and_band_of_henkit_results():
    from henkit.results import binomial_band, running_frequency

    rng = np.random.default_rng(8)
    outcomes = rng.random(5_000) < 0.25
    fig = ch.law_of_large_numbers_chart(Fraction(1, 4), outcomes)
    upper, lower, line = fig.data[:3]
    _, freq = running_frequency(outcomes)
    x = np.array(line.x)
    assert list(line.y) == freq[x - 1].tolist()
    low, high = binomial_band(0.25, x, z=1.96)
    assert list(upper.y) == high.tolist() and list(lower.y) == low.tolist()
    assert list(upper.x) == list(lower.x) == list(line.x)
