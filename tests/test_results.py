"""henkit.results' generic statistics: frequencies, running frequencies, the binomial band,
distribution checks and per-bot score distributions, each against a direct computation."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit import results
from henkit.core import GameResult
from henkit.henpen.bots import make_bot as henpen_bot
from henkit.henpen.simulate import simulate as henpen_simulate
from henkit.hens.bots import make_bot as hens_bot
from henkit.hens.simulate import simulate as hens_simulate

from .fuzz_values import junk, only_value_error

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


# -- frequencies -------------------------------------------------------------------------------


@FAST
@given(st.lists(st.integers(0, 8), min_size=1, max_size=200))
def test_frequencies_count_every_value_and_share_them(samples):
    counts, shares = results.frequencies(samples, 9)
    tally = Counter(samples)
    assert counts.tolist() == [tally[v] for v in range(9)]
    assert shares.tolist() == [tally[v] / len(samples) for v in range(9)]


def test_frequencies_accept_numpy_arrays_and_refuse_values_out_of_range():
    counts, shares = results.frequencies(np.array([0, 2, 2], dtype=np.int64), np.int64(4))
    assert counts.tolist() == [1, 0, 2, 0] and shares.tolist() == [1 / 3, 0, 2 / 3, 0]
    for bad, size in (([3], 3), ([-1], 3), ([], 3), ([1.5], 3), ([True], 3), ("12", 3),
                      ([1], 0), ([1], 2.0)):
        with pytest.raises(ValueError):
            results.frequencies(bad, size)


# -- running frequency and its band ------------------------------------------------------------


@FAST
@given(st.lists(st.booleans(), min_size=1, max_size=300))
def test_running_frequency_is_the_share_of_hits_so_far(hits):
    trials, freq = results.running_frequency(hits)
    assert trials.tolist() == list(range(1, len(hits) + 1))
    assert freq.tolist() == [sum(hits[:n]) / n for n in range(1, len(hits) + 1)]
    # 0/1 integers are the same outcomes.
    _, again = results.running_frequency([int(h) for h in hits])
    assert again.tolist() == freq.tolist()


@pytest.mark.parametrize("bad", [[], [2], [0.5], "ab", None, [[True]], {True: 1}])
def test_running_frequency_refuses_anything_but_outcomes(bad):
    with pytest.raises(ValueError):
        results.running_frequency(bad)


@FAST
@given(st.floats(0, 1), st.lists(st.integers(1, 10**6), min_size=1, max_size=50),
       st.sampled_from([1.96, results.Z95, 2.5]))
def test_binomial_band_is_p_plus_minus_z_standard_errors(p, ns, z):
    low, high = results.binomial_band(p, ns, z=z)
    for n, lo, hi in zip(ns, low, high, strict=True):
        se = z * math.sqrt(p * (1 - p) / n)
        assert lo == max(0.0, p - se) and hi == min(1.0, p + se)
        assert 0 <= lo <= p <= hi <= 1


def test_binomial_band_refuses_bad_input():
    for args in ((1.5, [1]), (-0.1, [1]), (0.5, [0]), (0.5, []), (0.5, [1.5]), (True, [1]),
                 (0.5, [1], 0), (0.5, [1], "z")):
        with pytest.raises(ValueError):
            results.binomial_band(*args)


def test_check_distribution():
    results.check_distribution([Fraction(1, 3), Fraction(2, 3)])
    results.check_distribution([0.1] * 10)
    with pytest.raises(ValueError, match="sum"):
        results.check_distribution([0.2, 0.2, 0.2], "the chances of 'x'")
    for bad in ([1.5, -0.5], [None], "1", [float("nan")], {0: 1}):
        with pytest.raises(ValueError):
            results.check_distribution(bad)


# -- score distributions -----------------------------------------------------------------------


def test_score_distributions_pool_seats_per_bot_for_either_game():
    for games in (hens_simulate([hens_bot("greedy"), hens_bot("random")], 6, seed=5),
                  henpen_simulate([henpen_bot("greedy"), henpen_bot("threshold:25")], 4, seed=1)):
        by_bot = results.scores_by_bot(games)
        dists = results.score_distributions(games)
        assert [d.bot for d in dists] == list(by_bot) == list(dict.fromkeys(games[0].bots))
        low = min(t for r in games for t in r.totals)
        high = max(t for r in games for t in r.totals)
        for d in dists:
            scores = [t for r in games for b, t in zip(r.bots, r.totals, strict=True)
                      if b == d.bot]
            assert list(d.scores) == scores == by_bot[d.bot]
            assert d.low == low and len(d.counts) == high - low + 1
            tally = Counter(scores)
            assert list(d.counts) == [tally[low + i] for i in range(len(d.counts))]
            assert d.games == len(scores) and d.mean == sum(scores) / len(scores)
            assert d.shares == tuple(c / len(scores) for c in d.counts)


def test_score_distributions_of_a_tournament_are_those_of_its_records():
    class Tournament:  # what the arena's Tournament has for this: its records
        records = tuple(hens_simulate([hens_bot("greedy"), hens_bot("random")], 2, seed=1))

    assert results.score_distributions(Tournament()) == results.score_distributions(
        list(Tournament.records))


def test_score_distributions_refuse_anything_but_results():
    record = GameResult(0, 0, (0, 1), ("a", "b"), (3, 2), (0,), 0)
    for bad in ([], [1, 2], "ab", None, {0: record}, [record, "x"]):
        with pytest.raises(ValueError):
            results.score_distributions(bad)
    with pytest.raises(ValueError, match="apart"):
        results.score_distributions([GameResult(0, 0, (0, 1), ("a", "b"), (0, 10**9), (1,), 0)])


@FAST
@given(junk(), st.integers(0, 3))
def test_the_statistics_raise_only_value_error(x, where):
    only_value_error(results.frequencies, x, 4)
    only_value_error(results.frequencies, [0, 1], x)
    only_value_error(results.running_frequency, x)
    args: list[Any] = [0.5, [1, 2], results.Z95]
    args[min(where, 2)] = x
    only_value_error(results.binomial_band, *args)
    only_value_error(results.check_distribution, x)
    only_value_error(results.check_distribution, [0.5, 0.5], x)
    only_value_error(results.check_distribution, [0.5, 0.5], "p", x)
    only_value_error(results.scores_by_bot, x)
    only_value_error(results.score_distributions, x)
    only_value_error(results.score_distributions, [x])


def test_ranges_read_a_to_b_even_for_negative_scores():
    """A range is written 'a to b': with negative scores 'a-b' would read '-8.12--4.88'."""
    games = [GameResult(i, i, (0, 1), ("x", "y"), (-3 - i % 4, -9 + i % 3), (0,), 0)
             for i in range(12)]
    table = results.results_table(games)
    summary = str(results.summarise(games)[1])
    rows = table.splitlines()[2:]  # under the header and its rule of dashes
    assert rows and not any("--" in row for row in rows) and "--" not in summary
    low, high = results.summarise(games)[1].score_low, results.summarise(games)[1].score_high
    assert f"{low:.2f} to {high:.2f}" in table and f"{low:.2f} to {high:.2f}" in summary
