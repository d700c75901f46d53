"""No door outwards (issue 39): every chart henkit builds, shown the way henkit shows it, in
JupyterLab (plotly's mimetype) and on a dashboard (henkit's own draw script), carries the config
that leaves out plotly's "Share chart..." (Plotly Cloud) button and its logo link to plotly.com.

The builders are found by reading henkit.charts (every public function that returns a figure),
so a new chart without an entry here fails the coverage test instead of going unchecked.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go
import pytest

import henkit.charts
from henkit import display
from henkit.arena import run_tournament
from henkit.charts import arena, classboard, henpen, hens, learning, spread, style, tree
from henkit.classpool.base import Board
from henkit.classpool.exact import (
    bust_cells,
    distance_band,
    first_roll_comparisons,
    first_roll_law,
)
from henkit.henpen import State as HenpenState
from henkit.henpen import distributions as dist
from henkit.henpen.learning import learning_curve
from henkit.henpen.odds import position_reward, solve_turn
from henkit.hens import State as HensState
from henkit.hens import make_bot, simulate

# What the config must say, written out here rather than read from henkit.display: a change to
# chart_config that reopens a door fails this test.
NO_DOORS = {"showSendToCloud": False, "plotlyServerURL": "", "displaylogo": False,
            "watermark": False}
CLOUD_BUTTON = "sendChartToCloud"

BOARD = Board(first_rolls={(8, 0): 5, (8, 1): 8, (8, 2): 4}, busts={(3, 2): (1, 4)},
              endings={}, draws={})
TREE = [tree.TreeNode("root", "total 21", "decision"),
        tree.TreeNode("stop", "1 worm", "end", "root", "stop")]


def builders() -> dict[str, Callable[..., Any]]:
    """Every public function of henkit.charts' modules whose return annotation is a figure."""
    found = {}
    for info in pkgutil.iter_modules(henkit.charts.__path__):
        module = importlib.import_module(f"henkit.charts.{info.name}")
        for name, f in inspect.getmembers(module, inspect.isfunction):
            if (f.__module__ == module.__name__ and not name.startswith("_")
                    and inspect.signature(f).return_annotation in ("go.Figure", go.Figure)):
                found[f"{info.name}.{name}"] = f
    return found


@pytest.fixture(scope="module")
def figures() -> dict[str, go.Figure]:
    """One figure from each chart builder, from small valid inputs."""
    dists = dist.policy_distributions((21, 25))
    games = simulate([make_bot("greedy"), make_bot("random")], 2, seed=3)
    t = run_tournament("henpen", ["threshold:25", "greedy"], games=4, seed=2)
    law = first_roll_law(8)
    worms = {"careful": {0: Fraction(1, 2), 1: Fraction(1, 2)}, "bold": {0: Fraction(2, 3),
                                                                         3: Fraction(1, 3)}}
    return {
        "arena.win_rate_chart": arena.win_rate_chart(t),
        "arena.mean_score_chart": arena.mean_score_chart(t, unit="worms"),
        "classboard.comparison_chart": classboard.comparison_chart(
            first_roll_comparisons(BOARD)[0], "worms shown"),
        "classboard.bust_chart": classboard.bust_chart(bust_cells(BOARD)),
        "classboard.distance_chart": classboard.distance_chart(
            [(10, 0.3)], distance_band(law, [10], sims=50, seed=1), law),
        "henpen.roll_count_chart": henpen.roll_count_chart(8, 6, simulated=2),
        "henpen.law_of_large_numbers_chart": henpen.law_of_large_numbers_chart(
            Fraction(1, 6), [1, 0, 0, 1]),
        "henpen.bust_heatmap": henpen.bust_heatmap(),
        "henpen.end_distribution_chart": henpen.end_distribution_chart(dists),
        "henpen.chance_at_least_chart": henpen.chance_at_least_chart(dists),
        "henpen.policy_map": henpen.policy_map(solve_turn(position_reward())),
        "henpen.turn_outlook_chart": henpen.turn_outlook_chart(HenpenState.new(2)),
        "hens.score_waterfall": hens.score_waterfall(games[0].final.score_sheets()[0]),
        "hens.draw_odds_chart": hens.draw_odds_chart(HensState.new(3, seed=7).view(0), ["Pa"]),
        "hens.score_distribution_chart": hens.score_distribution_chart(games),
        "learning.learning_curve_chart": learning.learning_curve_chart(
            learning_curve(1_000, 500, seed=4, batch=250)),
        "spread.distribution_chart": spread.distribution_chart({1: 0.5, 2: 0.5}, "t", "x"),
        "spread.policy_spread_chart": spread.policy_spread_chart(worms),
        "spread.need_chart": spread.need_chart(worms, 2),
        "style.figure": style.figure([{"type": "bar", "y": [1]}], style.layout("t", "x", "y")),
        "tree.tree_chart": tree.tree_chart(TREE),
    }


def test_every_chart_builder_is_checked(figures):
    assert set(builders()) == set(figures)
    assert all(isinstance(fig, go.Figure) for fig in figures.values())


def shown_config(fig: go.Figure, where: str, monkeypatch) -> dict[str, Any]:
    """The plotly.js config a figure is drawn with, as henkit shows it `where` (lab or dashboard):
    read from the bundle that reaches the browser, not from henkit's own helpers."""
    if where == "dashboard":
        monkeypatch.setenv(display.DASHBOARD_ENV, "/")
        html = display.figure_bundle(fig)["text/html"]
        found = re.search(r"const figure = (.*);\n", html)
        assert found and "Plotly.newPlot(el, figure.data, figure.layout, figure.config)" in html
        return json.loads(found.group(1).replace("<\\/", "</"))["config"]
    monkeypatch.delenv(display.DASHBOARD_ENV, raising=False)
    bundle = display.figure_bundle(fig)
    assert set(bundle) == {display.PLOTLY_MIME, "text/plain"}
    # JupyterLab's renderer draws {data, layout, config} of this JSON: config is read from here.
    return json.loads(json.dumps(bundle[display.PLOTLY_MIME]))["config"]


@pytest.mark.parametrize("where", ["lab", "dashboard"])
def test_every_chart_is_shown_with_no_share_cloud_or_logo_door(figures, where, monkeypatch):
    for name, fig in figures.items():
        config = shown_config(fig, where, monkeypatch)
        assert {k: config.get(k) for k in NO_DOORS} == NO_DOORS, (name, where, config)
        assert CLOUD_BUTTON in config["modeBarButtonsToRemove"], (name, where)
        # Nothing in the config adds a button back or shows the mode bar without its switches.
        assert not config.get("modeBarButtonsToAdd") and not config.get("modeBarButtons")

