"""The dashboard benchmark's ratio to the floor: median polish over rounds, bootstrap intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.ratios import MIN_ROUNDS, Ratio, page_effects, ratios_to, round_adjusted

factors = st.floats(min_value=0.3, max_value=3.0, allow_nan=False)


def additive(pages: list[float], rounds: list[float]) -> dict[str, list[float]]:
    """Times that are exactly page factor x round factor, the first page the reference."""
    return {f"p{i}": [p * r for r in rounds] for i, p in enumerate(pages)}


@settings(max_examples=60, deadline=None)
@given(st.lists(factors, min_size=2, max_size=8), st.lists(factors, min_size=1, max_size=9))
def test_a_table_of_page_times_round_factors_gives_back_the_page_ratios(pages, rounds):
    ratios = round_adjusted(additive(pages, rounds), "p0")
    for i, p in enumerate(pages[1:], 1):
        assert ratios[f"p{i}"] == pytest.approx(p / pages[0], rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(factors, min_size=5, max_size=5), min_size=3, max_size=6),
       st.integers(0, 4), factors)
def test_a_round_slowed_as_a_whole_changes_no_ratio(table, which, slower):
    times = {f"p{i}": row for i, row in enumerate(table)}
    slowed = {p: [t * slower if k == which else t for k, t in enumerate(row)]
              for p, row in times.items()}
    before, after = round_adjusted(times, "p0"), round_adjusted(slowed, "p0")
    for p in before:
        assert after[p] == pytest.approx(before[p], rel=1e-9)


def test_one_slow_reference_sample_moves_no_ratio_where_round_ratios_would_all_fall():
    # 12 pages, 9 rounds, page i takes 1 + i/20 of the reference; round 5's reference sample
    # is three times its due (the kind of outlier a busy machine gives).
    pages = [1 + i / 20 for i in range(12)]
    rounds = [1.0, 1.2, 0.9, 1.1, 1.3, 1.0, 0.8, 1.05, 0.95]
    times = additive(pages, rounds)
    times["p0"][5] *= 3
    ratios = round_adjusted(times, "p0")
    for i in range(1, 12):
        assert ratios[f"p{i}"] == pytest.approx(pages[i], rel=1e-9)
    # The per-round ratio of that round is a third of the truth for every page.
    assert times["p11"][5] / times["p0"][5] == pytest.approx(pages[11] / 3)


def test_page_effects_are_the_row_medians_of_a_single_round():
    logs = np.log(np.array([[2.0], [3.0], [5.0]]))
    effects = page_effects(logs)
    assert np.exp(effects[1] - effects[0]) == pytest.approx(1.5)
    assert np.exp(effects[2] - effects[0]) == pytest.approx(2.5)


def noisy(seed: int, rounds: int, truth: float, noise: float) -> dict[str, list[float]]:
    rng = np.random.default_rng(seed)
    machine = rng.uniform(0.8, 1.4, rounds)
    return {"probe": list(machine * rng.lognormal(0, noise, rounds)),
            "page": list(truth * machine * rng.lognormal(0, noise, rounds))}


def test_the_interval_holds_the_ratio_and_narrows_with_more_rounds():
    few = ratios_to(noisy(1, 9, 1.2, 0.1), "probe", rng=3)["page"]
    many = ratios_to(noisy(1, 81, 1.2, 0.1), "probe", rng=3)["page"]
    for r in (few, many):
        assert r.low <= r.value <= r.high
    assert many.high - many.low < (few.high - few.low) / 2
    assert many.low <= 1.2 <= many.high


def test_the_same_seed_or_generator_gives_the_same_intervals():
    times = noisy(2, 9, 1.1, 0.15)
    a = ratios_to(times, "probe", rng=7)
    assert a == ratios_to(times, "probe", rng=7)
    assert a == ratios_to(times, "probe", rng=np.random.default_rng(7))


def test_an_interval_that_straddles_the_target_is_not_resolved():
    assert Ratio(1.0, 0.95, 1.08, 9).verdict(1.1) == "within"
    assert Ratio(1.2, 1.12, 1.3, 9).verdict(1.1) == "over"
    assert Ratio(1.05, 0.97, 1.16, 9).verdict(1.1) == "not resolved"
    # Too few rounds to resample resolve nothing, however narrow their interval.
    assert Ratio(1.2, 1.12, 1.3, MIN_ROUNDS - 1).verdict(1.1) == "not resolved"
    assert Ratio(1.2, 1.12, 1.3, MIN_ROUNDS).verdict(1.1) == "over"
    # A clear difference is resolved at 40 rounds.
    assert ratios_to(noisy(4, 40, 1.4, 0.1), "probe")["page"].verdict(1.1) == "over"
    assert ratios_to(noisy(4, 40, 0.85, 0.1), "probe")["page"].verdict(1.1) == "within"


@pytest.mark.parametrize(("times", "reference", "words"), [
    ({"a": [1.0]}, "probe", "reference page 'probe' has no times"),
    ({"probe": [1.0, 2.0], "a": [1.0]}, "probe", "same number of rounds"),
    ({"probe": [], "a": []}, "probe", "at least one"),
    ({"probe": [1.0], "a": [0.0]}, "probe", "finite and positive"),
    ({"probe": [float("nan")], "a": [1.0]}, "probe", "finite and positive"),
])
def test_bad_tables_are_refused_by_name(times, reference, words):
    with pytest.raises(ValueError, match=words):
        round_adjusted(times, reference)


def test_resamples_must_be_at_least_one():
    with pytest.raises(ValueError, match="resamples is a whole number of at least 1, not 0"):
        ratios_to({"probe": [1.0], "a": [2.0]}, "probe", resamples=0)
    one = ratios_to({"probe": [1.0], "a": [2.0]}, "probe", resamples=1)["a"]
    assert math.isclose(one.value, 2.0) and math.isclose(one.low, 2.0)


def test_a_ratio_prints_with_its_interval():
    assert str(Ratio(1.096, 0.972, 1.318, 9)) == "1.10x (0.97-1.32)"


def test_runs_that_disagree_pool_into_an_interval_that_holds_both():
    # Two runs of 10 rounds, no noise within a run: the page is 1.0x the probe in one run and
    # 1.3x in the other (the machine's state between runs). Each run alone is sure of its own.
    machine = [1.0, 1.2, 0.9, 1.1, 1.3, 1.0, 0.8, 1.05, 0.95, 1.15]
    first, second = additive([1.0, 1.0], machine), additive([1.0, 1.3], machine)
    assert ratios_to(first, "p0")["p1"].verdict(1.1) == "within"
    assert ratios_to(second, "p0")["p1"].verdict(1.1) == "over"
    times = {p: first[p] + second[p] for p in first}
    runs = ["a"] * 10 + ["b"] * 10
    pooled = ratios_to(times, "p0", runs=runs)["p1"]
    assert (pooled.rounds, pooled.runs) == (20, 2)
    assert pooled.low <= 1.0 + 1e-9 and pooled.high >= 1.3 - 1e-9
    assert pooled.verdict(1.1) == "not resolved"


def test_pooled_runs_are_drawn_by_run_not_as_one_long_run():
    # Four runs, the page 1.0x, 1.1x, 1.2x and 1.3x the probe: taken as one run of 40 rounds
    # the interval is about the middle runs, drawn by run it reaches the outer ones.
    machine = [1.0, 1.2, 0.9, 1.1, 1.3, 1.0, 0.8, 1.05, 0.95, 1.15]
    times: dict[str, list[float]] = {"p0": [], "p1": []}
    for truth in (1.0, 1.1, 1.2, 1.3):
        for page, factor in (("p0", 1.0), ("p1", truth)):
            times[page] += [factor * m for m in machine]
    pooled = ratios_to(times, "p0", runs=[i // 10 for i in range(40)])["p1"]
    flat = ratios_to(times, "p0")["p1"]
    assert pooled.value == flat.value
    assert pooled.low < flat.low and pooled.high > flat.high
    assert flat.low >= 1.1 - 1e-9 and flat.high <= 1.2 + 1e-9


def test_rounds_all_of_one_run_give_the_one_run_intervals():
    times = noisy(5, 9, 1.1, 0.15)
    assert ratios_to(times, "probe", rng=2, runs=["x"] * 9) == ratios_to(times, "probe", rng=2)


def test_runs_must_name_every_round():
    with pytest.raises(ValueError, match="runs names each round's run: 2 names needed, not 3"):
        ratios_to({"probe": [1.0, 2.0], "a": [2.0, 3.0]}, "probe", runs=[0, 0, 1])
