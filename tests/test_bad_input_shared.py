"""Bad input to the shared layer is a ValueError, and only a ValueError.

Arbitrary values (`tests/fuzz_values.junk`: None, bools, floats, numpy scalars, huge integers,
text, bytes, nested containers) go into one argument at a time of every public function and
class of the shared layer, the others being valid, and `only_value_error` fails the test if
anything but ValueError escapes. Valid values that would start long work (many games) are
skipped. The argparse types (`seed_arg`, `games_arg`) refuse text with argparse's
ArgumentTypeError, which argparse turns into its usage error; anything but text is ValueError.
"""

from __future__ import annotations

import argparse
from typing import Any

import ipywidgets as w
import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from henkit import arena, checks, core, display, results, tournament_cache, words
from henkit.charts import arena as arena_charts
from henkit.charts import style
from henkit.cli import main
from henkit.henpen import State as HenpenState
from henkit.henpen.bots import make_bot as henpen_bot
from henkit.henpen.simulate import play_game as henpen_play_game
from henkit.henpen.simulate import simulate as henpen_simulate
from henkit.hens.bots import make_bot as hens_bot
from henkit.hens.simulate import play_game as hens_play_game
from henkit.hens.simulate import simulate as hens_simulate
from henkit.widgets import common
from henkit.widgets.arena import Arena

from .fuzz_values import junk, only_value_error

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=25, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def is_int(x: Any) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_)


def not_many_games(x: Any) -> None:
    """Skip a junk value that is a valid, large number of games (it would just play them)."""
    assume(not (is_int(x) and int(x) > 3))


# -- henkit.core -------------------------------------------------------------------------------


@FAST
@given(junk())
def test_make_rng_and_seating(x):
    only_value_error(core.make_rng, x)
    only_value_error(core.seating, x, 2, 0)
    only_value_error(core.seating, 0, x, 0)
    only_value_error(core.seating, 0, 2, x)
    only_value_error(core.seating_text, x, 2, 0)
    only_value_error(core.seating_text, 4, x, 0)
    only_value_error(core.seating_text, 4, 2, x)
    only_value_error(core.unique_labels, x)
    only_value_error(core.check_bots, x)
    only_value_error(core.check_state, x)
    fields: list[Any] = [0, 1, (0, 1), ("a", "b"), (3, 2), (0,), 0]
    for i in range(len(fields)):
        only_value_error(core.GameResult, *fields[:i], x, *fields[i + 1:])


@FAST
@given(junk(), st.integers(0, 5))
def test_game_and_its_methods(x, where):
    start = HenpenState.new(2)
    bots: list[Any] = [None, henpen_bot("greedy")]
    args: list[Any] = [start, bots, 1, None]
    if where < 4:
        args[where] = x
        only_value_error(core.Game, *args)
        return
    g = core.Game(start, bots, 1)
    if where == 4:
        only_value_error(g.play, x)
        only_value_error(g.advance, x)
    else:
        only_value_error(g.step)
        only_value_error(g.run)
        only_value_error(core.play_out, start, bots, 1, max_moves=x)
        only_value_error(core.play_out, start, x, 1)
        only_value_error(core.play_out, x, bots, 1)
        only_value_error(core.play_out, start, bots, x, max_moves=1)


@pytest.mark.parametrize("simulate", [henpen_simulate, hens_simulate])
@QUICK
@given(x=junk(), where=st.integers(0, 4))
def test_simulate_of_both_games(simulate, x, where):
    make = henpen_bot if simulate is henpen_simulate else hens_bot
    args: list[Any] = [[make("random"), make("random")], 2, 0, None]
    kwargs: dict[str, Any] = {}
    if where == 1:
        not_many_games(x)
    if where == 4:
        kwargs["rotate"] = x
    else:
        args[where] = x
    only_value_error(simulate, *args, **kwargs)


@QUICK
@given(junk(), st.integers(0, 2))
def test_play_game_of_both_games(x, where):
    for play, make in ((henpen_play_game, henpen_bot), (hens_play_game, hens_bot)):
        args: list[Any] = [[make("random"), make("random")], 0, None]
        args[where] = x
        only_value_error(play, *args)


def test_simulate_without_bots_is_a_value_error():
    # Issue 10: `simulate([], 3)` raised something else.
    for simulate in (henpen_simulate, hens_simulate):
        with pytest.raises(ValueError, match="at least one bot"):
            simulate([], 3)


@QUICK
@given(junk(), st.integers(0, 6))
def test_play_seated(x, where):
    args: list[Any] = [HenpenState.new, [henpen_bot("random")] * 2, 0, 0, None]
    kwargs: dict[str, Any] = {}
    if where == 5:
        kwargs["rotate"] = x
    elif where == 6:
        kwargs["labels"] = x
    else:
        args[where] = x
    if where == 0:
        assume(not callable(x))
    only_value_error(core.play_seated, *args, **kwargs)


# -- henkit.results ----------------------------------------------------------------------------


@FAST
@given(junk(), st.integers(0, 2))
def test_intervals(x, where):
    wilson: list[Any] = [3, 10, results.Z95]
    wilson[where] = x
    only_value_error(results.wilson_interval, *wilson)
    if where < 2:
        only_value_error(results.mean_interval, [1, 2, 3] if where else x,
                         x if where else results.Z95)
        only_value_error(results.mean_interval, [1, x, 3])


RECORD = core.GameResult(0, 1, (0, 1), ("a", "b"), (3, 2), (0,), 0)


@FAST
@given(junk())
def test_summaries(x):
    for f in (results.summarise, results.results_table, results.check_results):
        only_value_error(f, x)
        only_value_error(f, [RECORD, x])
    only_value_error(results.summarise, [RECORD], x)
    only_value_error(results.results_table, [RECORD], x)


# -- henkit.arena ------------------------------------------------------------------------------


@QUICK
@given(x=junk(), where=st.integers(0, 9))
def test_run_tournament(x, where):
    args: list[Any] = ["henpen", ["random", "random"], 2, 0]
    names = ["rotate", "rules", "executor", "chunk_size", "on_progress", "cache"]
    kwargs: dict[str, Any] = {"cache": False, "executor": arena.SERIAL}
    if where == 2:
        not_many_games(x)
    if where < 4:
        args[where] = x
    else:
        kwargs[names[where - 4]] = x
    only_value_error(arena.run_tournament, *args, **kwargs)


@FAST
@given(junk())
def test_arena_helpers(x):
    only_value_error(arena.make_bot, x, "greedy")
    only_value_error(arena.make_bot, "hens", x)
    only_value_error(arena.new_state, x)
    only_value_error(arena.play_chunk, x)
    only_value_error(arena.cache_row, x)
    key: list[Any] = ["hens", ("greedy", "random"), None, 0, True]
    for i in range(len(key)):
        only_value_error(arena.cache_key, *key[:i], x, *key[i + 1:])
    t = only_value_error(arena.Tournament, "henpen", ("a", "b"), ("a", "b"), 0, True, x)
    if t is not None:
        assert t.games == len(x)
        for method in (t.summary, t.seat_summary, t.table):
            only_value_error(method)
    only_value_error(arena.Tournament, x, ("a",), ("a",), 0, True, (RECORD,))
    only_value_error(arena.Tournament, "hens", ("a",), ("a",), 0, True, (RECORD,), x)


# -- the results cache -------------------------------------------------------------------------


@FAST
@given(junk())
def test_tournament_cache(x):
    key = {"game": "henpen", "seed": 0}
    only_value_error(tournament_cache.check_key, x)
    only_value_error(tournament_cache.load, x)
    only_value_error(tournament_cache.load, key, x)
    only_value_error(tournament_cache.store, x, [[1]])
    only_value_error(tournament_cache.store, key, x)
    only_value_error(tournament_cache.digest, x, [])
    only_value_error(tournament_cache.digest, "head", x)
    only_value_error(tournament_cache.digest, "head", [("t", x)])
    only_value_error(tournament_cache.pack, x)
    only_value_error(tournament_cache.pack, np.arange(3), x)
    only_value_error(tournament_cache.unpack, x, np.int16)
    only_value_error(tournament_cache.unpack, tournament_cache.pack(np.arange(4)), x)
    only_value_error(tournament_cache.unpack, tournament_cache.pack(np.arange(4)), np.int64, x)

    def hold(k: Any) -> None:
        with tournament_cache.hold(k):
            pass

    only_value_error(hold, x)


# -- checks, words, display, the command -------------------------------------------------------


@FAST
@given(junk(), st.integers(0, 3))
def test_whole_and_words(x, where):
    args: list[Any] = [5, "n", 0, 10]
    args[where] = x
    only_value_error(checks.whole, *args)
    if where < 3:
        words_args: list[Any] = [2, "die", "dice"]
        words_args[where] = x
        only_value_error(words.count, *words_args)


@FAST
@given(junk())
def test_argparse_types(x):
    for f in (checks.seed_arg, checks.games_arg):
        try:
            f(x)
        except argparse.ArgumentTypeError:
            assert isinstance(x, str)
        except ValueError:
            assert not isinstance(x, str)


@FAST
@given(junk())
def test_display_helpers(x):
    for f in (display.check_figure, display.figure_json, display.mimetype_bundle,
              display.dashboard_bundle, display.figure_bundle, display.figure_title):
        only_value_error(f, x)
    only_value_error(display.figure_bundle, go.Figure(), x)


@QUICK
@given(junk())
def test_main(x):
    assume(x is not None)  # None reads this process's own command line
    try:
        only_value_error(main, x)
    except SystemExit as stop:  # argparse's own usage error (a list of words it refuses)
        assert stop.code == 2 and isinstance(x, list | tuple)


# -- widgets and charts the shared helper owns --------------------------------------------------


@FAST
@given(junk())
def test_widget_helpers(x):
    status, out = common.status_line(), w.Output()
    for f in (common.face_text, common.dice_text, common.percent, common.status_text,
              common.keep_alive):
        only_value_error(f, x)
    only_value_error(common.say, x, "text")
    only_value_error(common.figure_output, x)
    only_value_error(common.show_figure, out, x)
    only_value_error(common.show_figure, x, go.Figure())
    only_value_error(common.show_text, x, "text")
    only_value_error(common.button, x, "tip", lambda: None)
    only_value_error(common.button, "Go", x, lambda: None)
    only_value_error(common.button, "Go", "tip", x)
    only_value_error(common.bot_move, x)
    only_value_error(common.bots_play, x)
    only_value_error(common.flag, x, "a flag")
    only_value_error(common.bot_specs, x, 3, "Hens")
    only_value_error(common.bot_buttons, x, lambda: None)
    common.say(status, str(x))  # any text is fine


@QUICK
@given(x=junk(), where=st.integers(0, 5))
def test_arena_widget(x, where):
    args: list[Any] = ["hens", ["greedy", "random"], 4, 0]
    kwargs: dict[str, Any] = {"show_chart": False}
    if where < 4:
        args[where] = x
    elif where == 4:
        kwargs["executor"] = x
    else:
        kwargs["show_chart"] = x
    only_value_error(Arena, *args, **kwargs)


@pytest.fixture(scope="module")
def summary():
    t = arena.run_tournament("henpen", ["greedy", "random"], 2, 0, cache=False)
    return t.summary()


@FAST
@given(junk())
def test_arena_charts_and_style(summary, x):
    for chart in (arena_charts.win_rate_chart, arena_charts.mean_score_chart):
        only_value_error(chart, x)
        only_value_error(chart, summary, x)
    only_value_error(arena_charts.mean_score_chart, summary, "t", x)
    for f in (style.face_label, style.face_colour, style.breed_colour, style.series_colour):
        only_value_error(f, x)
    only_value_error(style.layout, x, "x", "y")
    only_value_error(style.layout, "t", "x", "y", chance_axis=x)
    only_value_error(style.figure, x, {})
    only_value_error(style.figure, [], x)
