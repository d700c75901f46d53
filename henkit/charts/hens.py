"""Hens charts: a score broken down step by step, draw odds, and score distributions per bot.

Numbers come from the engine (`henkit.hens.scoring.score`, `henkit.hens.odds.draw_odds`) or from
finished games (`henkit.results.score_distributions`); these functions only arrange them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from numbers import Integral
from typing import Any

import numpy as np
import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    LABEL_SIZE,
    NEUTRAL_COLOUR,
    STOP_COLOUR,
    breed_colour,
    figure,
    layout,
    series_colour,
)
from henkit.checks import whole
from henkit.hens.cards import breed_named
from henkit.hens.odds import DrawOdds, Kind, draw_odds
from henkit.hens.scoring import Score
from henkit.hens.view import View
from henkit.results import score_distributions

__all__ = ["draw_odds_chart", "score_distribution_chart", "score_waterfall"]


def score_waterfall(score: Score, title: str = "Score, step by step") -> go.Figure:
    """A waterfall of the six scoring steps of a Score, ending at its total."""
    if not isinstance(score, Score):
        raise ValueError(f"score must be a henkit.hens Score (scoring.score(...)), "
                         f"not {type(score).__name__}")
    steps = [line.step for line in score.lines]
    points = [line.points for line in score.lines]
    if sum(points) != score.total:
        raise ValueError(f"the steps add up to {sum(points)}, not the total {score.total}")
    reasons = [line.reason for line in score.lines] + [f"{score.total} points in all"]
    data = [{
        "type": "waterfall", "x": [*steps, "total"], "y": [*points, score.total],
        "measure": ["relative"] * len(points) + ["total"],
        "text": [f"{p:+d}" for p in points] + [str(score.total)], "textposition": "outside",
        "customdata": reasons,
        "hovertemplate": "%{x}: %{text} points<br>%{customdata}<extra></extra>",
        "increasing": {"marker": {"color": STOP_COLOUR}},
        "decreasing": {"marker": {"color": FAIL_COLOUR}},
        "totals": {"marker": {"color": NEUTRAL_COLOUR}},
        "connector": {"line": {"color": "#999999", "dash": "dot"}},
    }]
    lay = layout(title, "scoring step", "points", showlegend=False,
                 xaxis={"type": "category"}, yaxis={"rangemode": "tozero"})
    return figure(data, lay)


def _draw_counts(draws: object) -> list[int]:
    """`draws` as a non-empty list of whole numbers of draws (each checked by draw_odds)."""
    what = "draws must be a number of draws (1, 2, ...) or a non-empty list of them"
    if isinstance(draws, Integral | np.integer) and not isinstance(draws, bool | np.bool_):
        return [whole(draws, "draws", 1)]
    if isinstance(draws, str | bytes | dict) or not isinstance(draws, Iterable):
        raise ValueError(f"{what}, not {draws!r}"[:300])
    ks = list(draws)
    if not ks:
        raise ValueError(what)
    return [whole(k, "each number of draws", 1) for k in ks]


def draw_odds_chart(
    view: View,
    kinds: Sequence[Kind | str | int | tuple[int, int]],
    draws: int | Iterable[int] = (1, 2),
) -> go.Figure:
    """Exact chance of at least one card of each kind in the next k deck draws, from a view.

    Kinds as `henkit.hens.odds.draw_odds` takes them: a breed ('Pa'), a card ('Pa3'), a number
    (1-6), a cell of the player's barnyard, or a Kind. One bar per kind and k; with a single k,
    breeds (and cards) are drawn in their breed's colour.
    """
    if not isinstance(view, View):
        raise ValueError(f"view must be a henkit.hens View (state.view(player)), not {type(view).__name__}")
    if isinstance(kinds, str | bytes) or not isinstance(kinds, Sequence) or not kinds:
        raise ValueError("kinds must be a non-empty list of kinds, e.g. ['Pa', 'Ce6', 3]")
    ks = _draw_counts(draws)
    odds: list[list[DrawOdds]] = [[draw_odds(view, kind, k) for kind in kinds] for k in ks]
    labels = [o.kind for o in odds[0]]
    if len(set(labels)) != len(labels):
        raise ValueError(f"each kind must appear once, not {labels}")
    data = []
    for i, (k, row) in enumerate(zip(ks, odds, strict=True)):
        if len(ks) == 1:
            colours = [breed_colour(b.code) if (b := breed_named(kind)) else EXACT_COLOUR
                       for kind in kinds]
        else:
            colours = [series_colour(i)] * len(kinds)
        data.append({
            "type": "bar", "name": f"in the next {k} draw{'s' if k > 1 else ''}", "x": labels,
            "y": [float(o.at_least_one) for o in row],
            "marker": {"color": colours, "line": {"color": "#333333", "width": 1}},
            # The exact chances in plain sight (a projected class sees no hover text).
            "texttemplate": "%{y:.1%}", "textposition": "outside",
            "textfont": {"size": LABEL_SIZE}, "cliponaxis": False,
            "customdata": [[str(o.at_least_one), o.matching, o.unseen] for o in row],
            "hovertemplate": (f"%{{x}} in the next {k} draw(s): %{{y:.1%}} (= %{{customdata[0]}})"
                              "<br>%{customdata[1]} of the %{customdata[2]} unseen cards match"
                              "<extra></extra>"),
        })
    lay = layout(f"Chance of drawing at least one (player {view.player + 1}'s view)",
                 "card wanted", "probability", chance_axis="y", barmode="group",
                 showlegend=len(ks) > 1, xaxis={"type": "category"})
    return figure(data, lay)


def score_distribution_chart(results: Iterable[Any], title: str = "Scores by bot") -> go.Figure:
    """Share of each bot's games ending at each score (all seats pooled), with the mean; the
    numbers are `henkit.results.score_distributions` (any game's results)."""
    dists = score_distributions(results)
    data = []
    for i, d in enumerate(dists):
        xs = list(range(d.low, d.low + len(d.counts)))
        data.append({
            "type": "bar", "name": f"{d.bot} (mean {d.mean:.1f}, {d.games} games)", "x": xs,
            "y": list(d.shares), "customdata": list(d.counts),
            "marker": {"color": series_colour(i)},
            "hovertemplate": (f"{d.bot}: score %{{x}} in %{{customdata}} of {d.games} games "
                              "(%{y:.1%})<extra></extra>"),
        })
    lay = layout(title, "final score", "share of the bot's games", chance_axis="y",
                 barmode="group", legend={"orientation": "h", "y": -0.25})
    return figure(data, lay)
