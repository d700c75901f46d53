"""Lesson 10's charts (henkit.charts.spread): they draw the engine's exact distributions, their
mean and SD, write the chances on the bars for a projected class, and refuse bad input."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from henkit.charts import spread as ch
from henkit.charts.style import LABEL_SIZE
from henkit.henpen import spread as sp

from ..fuzz_values import junk, only_value_error

FAST = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def worms():
    return sp.policy_worms(["best chance of 21 or more", "best chance of 29 or more"])


def shapes_at(fig, kind):
    return [s for s in fig.layout.shapes if s.type == kind]


def test_distribution_chart_draws_the_exact_totals_mean_and_sd_band():
    totals = sp.roll_total_distribution(8)
    s = sp.spread_of(totals)
    fig = ch.distribution_chart(totals, "t", "x")
    (bar,) = fig.data
    assert list(bar.x) == list(totals) and list(bar.y) == [float(p) for p in totals.values()]
    (line,) = shapes_at(fig, "line")
    assert line.x0 == line.x1 == pytest.approx(float(s.mean))
    (band,) = shapes_at(fig, "rect")
    assert (band.x0, band.x1) == pytest.approx((float(s.mean) - s.sd, float(s.mean) + s.sd))
    note = fig.layout.annotations[0].text
    assert f"{float(s.mean):.2f}" in note and f"{s.sd:.2f}" in note
    assert bar.text is None  # 33 bars: too many to label


def test_distribution_chart_labels_few_bars_and_shows_simulated_frequencies():
    one = sp.roll_total_distribution(1)
    rolled = sp.simulate_roll_totals(1, 600, seed=2)
    fig = ch.distribution_chart(one, "t", "x", simulated=rolled)
    exact, sim = fig.data
    assert list(exact.text) == ["16.7%"] * 4 + ["33.3%"]  # a 5 or a worm: 5 points
    assert exact.textfont.size >= LABEL_SIZE
    counts = np.bincount(rolled, minlength=6)
    assert list(sim.y) == pytest.approx([counts[v] / 600 for v in exact.x])
    assert "600" in sim.name


def test_a_waiting_chart_takes_the_start_of_the_law_and_its_spread():
    p = Fraction(1, 6)
    start = {n: sp.geometric(p, n) for n in range(1, 31)}
    with pytest.raises(ValueError, match="add up to 1"):
        ch.distribution_chart(start, "t", "x")
    fig = ch.distribution_chart(start, "t", "x", spread=sp.waiting_spread(p), what="waits")
    (line,) = shapes_at(fig, "line")
    assert line.x0 == 6
    assert len(fig.data[0].x) == 30


def test_policy_spread_chart_names_each_policys_mean_and_sd(worms):
    fig = ch.policy_spread_chart(worms)
    assert len(fig.data) == 2
    for trace, (name, d) in zip(fig.data, worms.items(), strict=True):
        s = sp.spread_of(d)
        assert trace.name == f"{name}: mean {float(s.mean):.2f}, SD {s.sd:.2f}"
        assert list(trace.y) == [float(d.get(w, 0)) for w in trace.x]
        assert all(t.endswith("%") for t in trace.text)


def test_need_chart_draws_the_chance_of_at_least_k_worms(worms):
    fig = ch.need_chart(worms, 3)
    for trace, d in zip(fig.data, worms.values(), strict=True):
        total = sp.sum_of_turns(d, 3)
        assert list(trace.x) == list(range(1, 13))
        assert list(trace.y) == [float(sp.chance_at_least(total, k)) for k in trace.x]
    assert "3 turns" in fig.layout.title.text
    # The chances are written on the chart at 16 px or more, the higher line's above its points.
    careful, bold = fig.data
    for k, (c, b) in enumerate(zip(careful.y, bold.y, strict=True)):
        assert careful.textposition[k] == ("top center" if c >= b else "bottom center")
        assert bold.textposition[k] == ("top center" if b >= c else "bottom center")
    assert careful.textfont.size >= LABEL_SIZE and bold.textfont.size >= LABEL_SIZE


def test_figures_are_reproducible_and_use_only_safe_characters(worms):
    figs = [ch.distribution_chart(sp.roll_total_distribution(8), "t", "x",
                                  simulated=sp.simulate_roll_totals(8, 50, seed=1)),
            ch.policy_spread_chart(worms), ch.need_chart(worms, 2)]
    again = [ch.distribution_chart(sp.roll_total_distribution(8), "t", "x",
                                   simulated=sp.simulate_roll_totals(8, 50, seed=1)),
             ch.policy_spread_chart(worms), ch.need_chart(worms, 2)]
    for a, b in zip(figs, again, strict=True):
        text = a.to_json()
        assert text == b.to_json()
        assert all(c == "\n" or " " <= c <= "~" or "\u00a0" <= c <= "\u00ff" for c in text)


def test_bad_input_names_what_is_allowed():
    with pytest.raises(ValueError, match="dict"):
        ch.distribution_chart([1], "t", "x")
    with pytest.raises(ValueError, match="whole number"):
        ch.distribution_chart({0.5: 1}, "t", "x")
    with pytest.raises(ValueError, match="spread"):
        ch.distribution_chart({1: 1}, "t", "x", spread=3)
    with pytest.raises(ValueError, match="simulated"):
        ch.distribution_chart({1: 1}, "t", "x", simulated=[0.5])
    with pytest.raises(ValueError, match="title"):
        ch.policy_spread_chart({"a": {1: 1}}, title=3)
    with pytest.raises(ValueError, match="turns"):
        ch.need_chart({"a": {1: 1}}, 0)
    with pytest.raises(ValueError, match="more than"):
        ch.distribution_chart({0: Fraction(1, 2), 10_000: Fraction(1, 2)}, "t", "x")


@FAST
@given(junk())
def test_junk_in_any_argument_is_a_value_error(x):
    good = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    only_value_error(ch.distribution_chart, x, "t", "x")
    only_value_error(ch.distribution_chart, good, x, "x")
    only_value_error(ch.distribution_chart, good, "t", "x", simulated=x)
    only_value_error(ch.distribution_chart, good, "t", "x", spread=x)
    only_value_error(ch.policy_spread_chart, x)
    only_value_error(ch.need_chart, {"a": good}, x)
    only_value_error(ch.need_chart, x, 2)
