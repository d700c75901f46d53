"""Charts of lesson 10: a distribution with its mean and spread, worms per turn by way of
playing, the chance to gather enough worms in a few turns, and waiting times.

Every number drawn comes from `henkit.henpen.spread` (exact distributions, means, variances);
these functions only draw it. Chances the lesson talks about are written on the bars, so a
class watching a projector sees them without hovering.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    LABEL_SIZE,
    NEUTRAL_COLOUR,
    SIMULATED_COLOUR,
    figure,
    layout,
    series_colour,
)
from henkit.checks import whole
from henkit.henpen.spread import Spread, chance_at_least, spread_of, sum_of_turns
from henkit.results import frequencies

__all__ = ["distribution_chart", "need_chart", "policy_spread_chart"]

MAX_LABELLED_BARS = 16
"""Bars get their chance written on them when a chart has at most this many (more would overlap)."""
MAX_BARS = 200
"""The most values a distribution chart draws."""


def _percent(p: Any) -> str:
    x = 100 * float(p)
    return "0%" if x == 0 else "<0.1%" if x < 0.1 else f"{x:.1f}%"


def _frac_text(p: Any) -> str:
    return f"<br>exactly {p}" if isinstance(p, Fraction) and p.denominator < 10**12 else ""


def _text(x: object, what: str) -> str:
    if not isinstance(x, str):
        raise ValueError(f"{what} must be text, not {x!r}")
    return x


def _dist(dist: object, what: str = "dist", whole_law: bool = True) -> dict[int, Any]:
    # spread_of checks the chances (0 to 1, adding up to 1); the chart also needs whole values.
    # A part of a distribution (`whole_law` False) has chances from 0 to 1 adding up to 1 at most.
    if not isinstance(dist, Mapping) or not dist:
        raise ValueError(f"{what} must be a dict of value -> chance, not {dist!r}"[:300])
    if whole_law:
        spread_of(dist)
    else:
        chances = [p if isinstance(p, float) else Fraction(p) if isinstance(p, int | Fraction) and not
                   isinstance(p, bool) else None for p in dist.values()]
        if any(p is None or not 0 <= p <= 1 for p in chances) or sum(chances) > 1 + 1e-9:
            raise ValueError(f"{what}'s chances must be from 0 to 1 and add up to 1 at most")
    values = [whole(v, f"each value of {what}") for v in dist]
    if max(values) - min(values) >= MAX_BARS:
        raise ValueError(f"{what} spans more than {MAX_BARS} values: cut it to the part to draw")
    return dict(zip(values, dist.values(), strict=True))


def distribution_chart(
    dist: Mapping[int, Any],
    title: str,
    x_title: str,
    *,
    simulated: Sequence[int] | np.ndarray | None = None,
    spread: Spread | None = None,
    what: str = "rolls",
) -> go.Figure:
    """The exact chance of each value (bars), its mean (a line) and one standard deviation
    either side (a band), with the frequencies of `simulated` values beside the bars.

    `spread`: the mean and variance of the whole distribution when `dist` is only its start (a
    waiting time has no largest value); without it `dist` is the whole distribution.
    """
    if spread is not None and not isinstance(spread, Spread):
        raise ValueError(f"spread must be the Spread of the distribution or None, not {spread!r}")
    d = _dist(dist, whole_law=spread is None)
    title, x_title, what = _text(title, "title"), _text(x_title, "x_title"), _text(what, "what")
    s = spread_of(d) if spread is None else spread
    xs = sorted(d)
    exact = [d[v] for v in xs]
    labelled = len(xs) <= MAX_LABELLED_BARS
    data: list[dict[str, Any]] = [{
        "type": "bar", "name": "exact", "x": xs, "y": [float(p) for p in exact],
        "marker": {"color": EXACT_COLOUR},
        "text": [_percent(p) for p in exact] if labelled else None, "textposition": "outside",
        "textfont": {"size": LABEL_SIZE}, "cliponaxis": False,
        "customdata": [_frac_text(p) for p in exact],
        "hovertemplate": "%{x}: %{y:.4f}%{customdata}<extra>exact</extra>",
    }]
    if simulated is not None:
        values = np.asarray(simulated) if isinstance(simulated, list | tuple | np.ndarray) else None
        if values is None or values.ndim != 1 or values.size == 0 or values.dtype.kind not in "iu":
            raise ValueError(f"simulated must be a non-empty list of whole numbers, not {simulated!r}"[:300])
        if values.min() < 0 or values.max() >= 100 * MAX_BARS:
            raise ValueError(f"simulated values must be from 0 to {100 * MAX_BARS - 1}")
        tally, shares = frequencies(values, int(values.max()) + 1)
        seen = [shares[v] if v < len(shares) else 0.0 for v in xs]
        count = [int(tally[v]) if v < len(tally) else 0 for v in xs]
        data.append({
            "type": "bar", "name": f"simulated ({values.size:,} {what})", "x": xs,
            "y": [float(x) for x in seen], "marker": {"color": SIMULATED_COLOUR},
            "customdata": count,
            "hovertemplate": f"%{{x}}: %{{y:.4f}} (%{{customdata}} of {values.size:,})<extra>simulated</extra>",
        })
    mean, sd = float(s.mean), s.sd
    shapes = [
        {"type": "rect", "xref": "x", "yref": "paper", "x0": mean - sd, "x1": mean + sd, "y0": 0,
         "y1": 1, "fillcolor": NEUTRAL_COLOUR, "opacity": 0.10, "line": {"width": 0}, "layer": "below"},
        {"type": "line", "xref": "x", "yref": "paper", "x0": mean, "x1": mean, "y0": 0, "y1": 1,
         "line": {"color": NEUTRAL_COLOUR, "width": 3, "dash": "dash"}},
    ]
    note = {"xref": "x", "yref": "paper", "x": mean, "y": 1.0, "yanchor": "bottom",
            "showarrow": False, "font": {"size": LABEL_SIZE},
            "text": f"mean {mean:.2f}; the band: mean ± 1 SD ({sd:.2f})"}
    lay = layout(title, x_title, "probability", chance_axis="y", barmode="group",
                 shapes=shapes, annotations=[note], xaxis={"dtick": 1 if len(xs) <= 20 else 2},
                 margin={"t": 110})
    return figure(data, lay)


def _dists(dists: object) -> dict[str, dict[int, Any]]:
    if not isinstance(dists, Mapping) or not dists:
        raise ValueError(f"dists must be a dict of name -> distribution, not {dists!r}"[:300])
    return {_text(name, "each name"): _dist(d, f"the distribution of {name!r}") for name, d in dists.items()}


def policy_spread_chart(
    dists: Mapping[str, Mapping[int, Any]], title: str = "Worms won in one turn"
) -> go.Figure:
    """The chance of each number of worms a turn wins, several ways of playing side by side;
    each legend entry gives its mean and standard deviation, each bar its chance."""
    ds = _dists(dists)
    title = _text(title, "title")
    worms = sorted({w for d in ds.values() for w in d})
    data = []
    for i, (name, d) in enumerate(ds.items()):
        s = spread_of(d)
        probs = [d.get(w, 0) for w in worms]
        data.append({
            "type": "bar", "name": f"{name}: mean {float(s.mean):.2f}, SD {s.sd:.2f}", "x": worms,
            "y": [float(p) for p in probs], "marker": {"color": series_colour(i)},
            "text": [_percent(p) for p in probs], "textposition": "outside",
            "textfont": {"size": LABEL_SIZE}, "cliponaxis": False,
            "hovertemplate": f"{name}<br>%{{x}} worms: %{{y:.4f}}<extra></extra>",
        })
    lay = layout(title, "worms won in the turn", "probability", chance_axis="y",
                 barmode="group", xaxis={"dtick": 1},
                 legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return figure(data, lay)


def need_chart(dists: Mapping[str, Mapping[int, Any]], turns: int, title: str | None = None) -> go.Figure:
    """The chance of winning at least k worms in `turns` turns, for each k, several ways of
    playing (each turn's worms independent, with the distribution given)."""
    ds = _dists(dists)
    turns = whole(turns, "turns", 1, 50)
    sums = {name: sum_of_turns(d, turns) for name, d in ds.items()}
    top = max(max(d) for d in sums.values())
    ks = list(range(1, top + 1))
    lines = {name: [float(chance_at_least(d, k)) for k in ks] for name, d in sums.items()}
    data = []
    for i, (name, ys) in enumerate(lines.items()):
        # Each chance is written above its point where this line is the highest at that k, below
        # it elsewhere, so that two lines' numbers do not sit on each other.
        top = [all(y >= other[j] for other in lines.values()) for j, y in enumerate(ys)]
        data.append({
            "type": "scatter", "mode": "lines+markers+text", "name": name, "x": ks, "y": ys,
            "line": {"color": series_colour(i), "width": 3}, "marker": {"size": 10},
            "text": [_percent(y) if y >= 0.01 else "" for y in ys],
            "textposition": ["top center" if t else "bottom center" for t in top],
            "textfont": {"size": LABEL_SIZE, "color": series_colour(i)},
            "hovertemplate": f"{name}<br>at least %{{x}} worms: %{{y:.4f}}<extra></extra>",
        })
    title = (f"The chance of winning at least k worms in {turns} turns" if title is None
             else _text(title, "title"))
    lay = layout(title, "k: the worms you need", "probability", chance_axis="y",
                 xaxis={"dtick": 1}, legend={"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0})
    return figure(data, lay)
