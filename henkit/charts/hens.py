"""Hens charts: a score broken down step by step, draw odds, and score distributions per bot.

Numbers come from the engine (`henkit.hens.scoring.score`, `henkit.hens.odds.draw_odds`) or from
finished games; these functions only arrange them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    NEUTRAL_COLOUR,
    STOP_COLOUR,
    breed_colour,
    figure,
    layout,
    series_colour,
)
from henkit.hens.cards import BREEDS, breed_index, card
from henkit.hens.odds import DrawOdds, Kind, draw_odds
from henkit.hens.scoring import Score
from henkit.hens.view import HensView

__all__ = ["draw_odds_chart", "score_distribution_chart", "score_waterfall", "scores_by_bot"]


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


def _kind_breed(kind: Any) -> str | None:
    """The breed code a kind is about (a breed or a single card), else None."""
    if isinstance(kind, str):
        try:
            return card(kind).breed.code
        except ValueError:
            try:
                return BREEDS[breed_index(kind)].code
            except ValueError:
                return None
    return None


def draw_odds_chart(
    view: HensView,
    kinds: Sequence[Kind | str | int | tuple[int, int]],
    draws: int | Iterable[int] = (1, 2),
) -> go.Figure:
    """Exact chance of at least one card of each kind in the next k deck draws, from a view.

    Kinds as `henkit.hens.odds.draw_odds` takes them: a breed ('Pa'), a card ('Pa3'), a number
    (1-6), a cell of the player's barnyard, or a Kind. One bar per kind and k; with a single k,
    breeds (and cards) are drawn in their breed's colour.
    """
    if not isinstance(view, HensView):
        raise ValueError(f"view must be a HensView (state.view(player)), not {type(view).__name__}")
    if isinstance(kinds, str | bytes) or not isinstance(kinds, Sequence) or not kinds:
        raise ValueError("kinds must be a non-empty list of kinds, e.g. ['Pa', 'Ce6', 3]")
    ks = [draws] if isinstance(draws, int) else list(draws)
    if not ks:
        raise ValueError("draws must be a number of draws or a non-empty list of them")
    odds: list[list[DrawOdds]] = [[draw_odds(view, kind, k) for kind in kinds] for k in ks]
    labels = [o.kind for o in odds[0]]
    if len(set(labels)) != len(labels):
        raise ValueError(f"each kind must appear once, not {labels}")
    data = []
    for i, (k, row) in enumerate(zip(ks, odds, strict=True)):
        if len(ks) == 1:
            colours = [breed_colour(b) if (b := _kind_breed(kind)) else EXACT_COLOUR
                       for kind in kinds]
        else:
            colours = [series_colour(i)] * len(kinds)
        data.append({
            "type": "bar", "name": f"in the next {k} draw{'s' if k > 1 else ''}", "x": labels,
            "y": [float(o.at_least_one) for o in row],
            "marker": {"color": colours, "line": {"color": "#333333", "width": 1}},
            "customdata": [[str(o.at_least_one), o.matching, o.unseen] for o in row],
            "hovertemplate": (f"%{{x}} in the next {k} draw(s): %{{y:.1%}} (= %{{customdata[0]}})"
                              "<br>%{customdata[1]} of the %{customdata[2]} unseen cards match"
                              "<extra></extra>"),
        })
    lay = layout(f"Chance of drawing at least one (player {view.player + 1}'s view)",
                 "card wanted", "probability", chance_axis="y", barmode="group",
                 showlegend=len(ks) > 1, xaxis={"type": "category"})
    return figure(data, lay)


def scores_by_bot(results: Iterable[Any]) -> dict[str, list[int]]:
    """Every score each bot made, by bot name (all seats pooled), from finished games."""
    if hasattr(results, "records"):  # an arena Tournament
        results = results.records
    out: dict[str, list[int]] = {}
    for r in results:
        try:
            pairs = zip(r.bots, r.totals, strict=True)
            for bot, total in pairs:
                out.setdefault(str(bot), []).append(int(total))
        except (AttributeError, TypeError, ValueError):
            raise ValueError("results must be finished games with .bots and .totals (simulate's "
                             f"GameResult or an arena record), not {type(r).__name__}") from None
    if not out:
        raise ValueError("no results to chart: play at least one game")
    return out


def score_distribution_chart(results: Iterable[Any], title: str = "Scores by bot") -> go.Figure:
    """Share of each bot's games ending at each score (all seats pooled), with the mean."""
    by_bot = scores_by_bot(results)
    lo = min(min(s) for s in by_bot.values())
    hi = max(max(s) for s in by_bot.values())
    xs = list(range(lo, hi + 1))
    data = []
    for i, (bot, scores) in enumerate(by_bot.items()):
        arr = np.asarray(scores)
        counts = np.bincount(arr - lo, minlength=hi - lo + 1)
        mean = float(arr.mean())
        data.append({
            "type": "bar", "name": f"{bot} (mean {mean:.1f}, {arr.size} games)", "x": xs,
            "y": (counts / arr.size).tolist(), "customdata": counts.tolist(),
            "marker": {"color": series_colour(i)},
            "hovertemplate": (f"{bot}: score %{{x}} in %{{customdata}} of {arr.size} games "
                              "(%{y:.1%})<extra></extra>"),
        })
    lay = layout(title, "final score", "share of the bot's games", chance_axis="y",
                 barmode="group", legend={"orientation": "h", "y": -0.25})
    return figure(data, lay)
