"""Bad input to a chart builder is a ValueError, and only a ValueError.

Arbitrary values (`tests/fuzz_values.junk`) go into one argument at a time of every Henpen and
Hens chart builder, the others being valid; numpy integers are integers. (The arena charts and
the style helpers are fuzzed in tests/test_bad_input_shared.py.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from henkit.charts import henpen as hp
from henkit.charts import hens as hn
from henkit.henpen import State as HenpenState
from henkit.henpen import distributions as dist
from henkit.henpen.odds import position_reward, solve_turn
from henkit.hens import State as HensState
from henkit.hens import make_bot, simulate

from ..fuzz_values import junk, only_value_error

FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def is_int(x: Any) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_)


@pytest.fixture(scope="module")
def henpen_args():
    dists = dist.policy_distributions((21, 25))
    return {
        hp.roll_count_chart: [8, 6, [0, 1, 2], 10],
        hp.law_of_large_numbers_chart: [0.5, [True, False], "an event", True, True],
        hp.bust_heatmap: [4],
        hp.end_distribution_chart: [dists, "a title"],
        hp.chance_at_least_chart: [dists, [21, 25], False, None],
        hp.policy_map: [solve_turn(position_reward()), None],
        hp.turn_outlook_chart: [HenpenState.new(2), 0],
    }


@pytest.fixture(scope="module")
def hens_args():
    view = HensState.new(3, seed=7).view(0)
    game = simulate([make_bot("greedy"), make_bot("random")], 2, seed=3)
    return {
        hn.score_waterfall: [game[0].final.score_sheets()[0], "a title"],
        hn.draw_odds_chart: [view, ["Pa", 3], (1, 2)],
        hn.score_distribution_chart: [game, "a title"],
    }


def call_with(f: Any, valid: list[Any], where: int, x: Any) -> None:
    args = list(valid)
    args[where % len(args)] = x
    only_value_error(f, *args)


@FAST
@given(x=junk(), where=st.integers(0, 4))
@example(x=np.int64(3), where=0)
@example(x=None, where=1)
@example(x=1.5, where=3)
def test_henpen_charts(henpen_args, x, where):
    # Valid large numbers would only be slow (a billion simulated rolls, a huge heatmap).
    assume(not (is_int(x) and int(x) > 50))
    for f, valid in henpen_args.items():
        if f is hp.chance_at_least_chart and where % len(valid) == 2:
            assume(x is not True and x is not np.True_)  # best=True runs the solver per target
        call_with(f, valid, where, x)


@FAST
@given(x=junk(), where=st.integers(0, 2))
@example(x=None, where=2)
@example(x=1.5, where=2)
@example(x=np.int64(2), where=2)
@example(x=[np.int64(1), 2], where=2)
def test_hens_charts(hens_args, x, where):
    for f, valid in hens_args.items():
        call_with(f, valid, where, x)


def test_draw_odds_chart_takes_numpy_integers_and_refuses_other_numbers(hens_args):
    view = hens_args[hn.draw_odds_chart][0]
    assert hn.draw_odds_chart(view, ["Pa"], np.int64(2)).to_json() == \
        hn.draw_odds_chart(view, ["Pa"], 2).to_json()
    for bad in (None, 1.5, True, "2", 0, [1.5]):
        with pytest.raises(ValueError, match="draw"):
            hn.draw_odds_chart(view, ["Pa"], bad)


@pytest.mark.parametrize(("f", "where", "x"), [
    (hp.chance_at_least_chart, 1, False), (hp.chance_at_least_chart, 2, "yes"),
    (hp.chance_at_least_chart, 3, "rules"), (hp.law_of_large_numbers_chart, 3, "no"),
    (hp.law_of_large_numbers_chart, 4, 1), (hp.law_of_large_numbers_chart, 2, 3),
])
def test_henpen_charts_refuse_what_they_once_took_or_crashed_on(henpen_args, f, where, x):
    with pytest.raises(ValueError):
        args = list(henpen_args[f])
        args[where] = x
        f(*args)
