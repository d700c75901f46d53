"""Learning vs solving: how a Q-learner's play approaches the exact solver's, turn after turn.

The grades come from `henkit.henpen.learning` (exact evaluation, no simulation); this module only
draws them.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    LABEL_SIZE,
    NEUTRAL_COLOUR,
    SIMULATED_COLOUR,
    figure,
    layout,
)
from henkit.henpen.learning import Grade

__all__ = ["learning_curve_chart"]


def _check_grades(grades: object) -> list[Grade]:
    """The grades as a list, in order of turns played; ValueError naming what is allowed."""
    if isinstance(grades, str | bytes) or not isinstance(grades, Sequence):
        raise ValueError(f"grades must be a list of learning grades, not {grades!r}"[:300])
    if not grades or not all(isinstance(g, Grade) for g in grades):
        raise ValueError("grades must be a non-empty list of learning grades (QLearner.grade)")
    out = list(grades)
    turns = [g.episodes for g in out]
    if turns != sorted(set(turns)):
        raise ValueError(f"grades must be in order of turns played, each once, not {turns}"[:300])
    return out


def learning_curve_chart(grades: Sequence[Grade], title: str | None = None) -> go.Figure:
    """Two panels over the turns played: worms lost per turn against perfect play (top), and
    how often the learned play chooses as the solver does (bottom), the last values written."""
    grades = _check_grades(grades)
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be text or None, not {title!r}"[:300])
    x = [g.episodes for g in grades]
    last = len(grades) - 1

    def labels(values: list[float], fmt: str) -> list[str]:
        # Only the last point carries its number: the value reached so far.
        return [f"{v:{fmt}}" if i == last else "" for i, v in enumerate(values)]

    lost = [g.value_lost for g in grades]
    reached = [g.agreement_weighted for g in grades]
    every = [g.agreement for g in grades]
    text = {"mode": "lines+markers+text", "textposition": "top left",
            "textfont": {"size": LABEL_SIZE}}
    data = [
        {"type": "scatter", "x": x, "y": lost, "name": "worms lost per turn", **text,
         "text": labels(lost, ".3f"), "line": {"color": FAIL_COLOUR, "width": 3},
         "yaxis": "y", "hovertemplate": "%{x} turns: %{y:.3f} worms lost per turn<extra></extra>"},
        {"type": "scatter", "x": x, "y": reached, "name": "same choice, where perfect play goes",
         **text, "text": labels(reached, ".1%"), "line": {"color": EXACT_COLOUR, "width": 3},
         "yaxis": "y2",
         "hovertemplate": "%{x} turns: %{y:.1%} of perfect play's choices<extra></extra>"},
        {"type": "scatter", "x": x, "y": every, "name": "same choice, every position", **text,
         "textposition": "bottom left",  # below the line above it: the two labels never meet
         "text": labels(every, ".1%"), "line": {"color": SIMULATED_COLOUR, "width": 3,
                                                  "dash": "dot"},
         "yaxis": "y2",
         "hovertemplate": "%{x} turns: %{y:.1%} of all positions<extra></extra>"},
    ]
    lay = layout(title or "Learning from play, graded by the exact solver", "turns played",
                 "worms lost per turn")
    lay["yaxis"].update(domain=[0.56, 1.0], rangemode="tozero")
    lay["yaxis2"] = {"title": {"text": "same choice as the solver"}, "domain": [0.0, 0.44],
                     "tickformat": ".0%", "range": [0, 1.05], "anchor": "x"}
    lay["xaxis"].update(anchor="y2", separatethousands=True)
    lay["legend"] = {"orientation": "h", "y": -0.18}
    lay["height"] = 560
    lay["shapes"] = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": 0,
                      "y1": 0, "line": {"color": NEUTRAL_COLOUR, "width": 1, "dash": "dash"}}]
    return figure(data, lay)
