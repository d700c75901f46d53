"""Class board charts: the class's pooled frequencies beside the exact values.

Every number comes from `henkit.classpool.exact` (the exact laws, the comparisons of a `Board`
with them, the distance band); these functions only draw it. Pooled frequencies are bars in the
"simulated" colour, exact chances are markers in the "exact" colour, so a projected board reads
the same way as the lessons' charts. Each builder has a twin `*_alt` that says in words what the
chart shows (the figure's text form for screen readers and nbval).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    LABEL_SIZE,
    NEUTRAL_COLOUR,
    SIMULATED_COLOUR,
    breed_colour,
    figure,
    layout,
)
from henkit.checks import whole
from henkit.classpool.exact import (
    BustCell,
    Comparison,
    DistanceBand,
    expected_distance,
    tv_constant,
)
from henkit.henpen.state import FAILURES
from henkit.hens.cards import BREED_INDEX
from henkit.results import wilson_interval

__all__ = [
    "bust_alt",
    "bust_chart",
    "comparison_alt",
    "comparison_chart",
    "distance_alt",
    "distance_chart",
]

DIAMOND = {"symbol": "diamond", "size": 14, "color": EXACT_COLOUR,
           "line": {"color": "white", "width": 1.5}}


def _fraction_text(p: Fraction) -> str:
    """'1/6' for a short fraction, '' when the fraction is long (the decimal says enough)."""
    if p.denominator == 1 or len(str(p.denominator)) > 6:
        return ""
    return f" = {p.numerator}/{p.denominator}"


def _percent(p: Fraction) -> str:
    """A chance written on a chart: '0%', '<0.1%' for a tiny non-zero one, else '12.3%'."""
    if p == 0:
        return "0%"
    return "<0.1%" if p < Fraction(1, 1000) else f"{float(p):.1%}"


def _exact_trace(x: list[str], exact: Sequence[Fraction], name: str) -> dict[str, Any]:
    """The exact chances as diamonds, each written above its diamond (a projected class sees no
    hover text)."""
    return {
        "type": "scatter", "mode": "markers+text", "name": name, "x": x,
        "y": [float(p) for p in exact], "marker": DIAMOND,
        "text": [_percent(p) for p in exact], "textposition": "top center",
        "textfont": {"size": LABEL_SIZE, "color": EXACT_COLOUR}, "cliponaxis": False,
        "customdata": [_fraction_text(p) for p in exact],
        "hovertemplate": "%{x}: exact %{y:.2%}%{customdata}<extra>exact</extra>",
    }


def _comparison(c: object) -> Comparison:
    if not isinstance(c, Comparison):
        raise ValueError(f"a class board chart draws a Comparison (henkit.classpool.exact), "
                         f"not {c!r}"[:300])
    return c


def _label(key: Any) -> str:
    return str(key)


def comparison_chart(comparison: Comparison, x_title: str = "outcome",
                     title: str | None = None) -> go.Figure:
    """Pooled frequencies (bars, with each outcome's count in the hover) beside the exact
    chances (diamonds) of one comparison: first-roll worms, turn endings or deck draws."""
    c = _comparison(comparison)
    if not isinstance(x_title, str) or (title is not None and not isinstance(title, str)):
        raise ValueError("x_title and title are text")
    x = [_label(k) for k in c.keys]
    n = c.n
    colours: list[str] | str = SIMULATED_COLOUR
    if all(isinstance(k, str) and k in BREED_INDEX for k in c.keys):
        colours = [breed_colour(k) for k in c.keys]
    elif any(k in FAILURES for k in c.keys):
        colours = [FAIL_COLOUR if k in FAILURES else SIMULATED_COLOUR for k in c.keys]
    data: list[dict[str, Any]] = [{
        "type": "bar", "name": f"the class ({n:,} pooled)", "x": x, "y": list(c.shares),
        "marker": {"color": colours, "line": {"color": "#333333", "width": 1}},
        "customdata": list(c.counts),
        "hovertemplate": f"%{{x}}: %{{y:.1%}} (%{{customdata}} of {n:,})<extra>the class</extra>",
    }]
    if c.has_law:
        data.append(_exact_trace(x, c.exact, "exact chance"))
    distance = c.distance
    sub = f"{n:,} pooled" + (f", distance to exact {distance:.3f}" if distance is not None
                             else "")
    lay = layout(f"{title or c.title.capitalize()}<br><sup>{sub}</sup>", x_title, "share",
                 chance_axis="y", xaxis={"type": "category"},
                 legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1,
                         "xanchor": "right"},
                 margin={"t": 120})
    return figure(data, lay)


def comparison_alt(comparison: Comparison) -> str:
    """The comparison in words: each outcome's pooled share and count beside its exact chance."""
    c = _comparison(comparison)
    if not c.n:
        return f"{c.title.capitalize()}: nothing pooled yet."
    law = c.has_law
    parts = [f"{_label(k)} {s:.1%} ({n})" + (f" vs exact {float(p):.1%}" if law else "")
             for k, n, s, p in zip(c.keys, c.counts, c.shares, c.exact, strict=True)
             if n or (law and p)]
    distance = f" Distance to exact: {c.distance:.3f}." if c.distance is not None else ""
    return f"{c.title.capitalize()}, {c.n:,} pooled: " + "; ".join(parts) + "." + distance


def _cells(cells: object) -> list[BustCell]:
    if isinstance(cells, str | bytes) or not isinstance(cells, Sequence) or not all(
            isinstance(x, BustCell) for x in cells):
        raise ValueError(f"cells are a list of BustCell (exact.bust_cells(board)), "
                         f"not {cells!r}"[:300])
    return [x for x in cells if x.rolls]


def bust_chart(cells: Sequence[BustCell]) -> go.Figure:
    """The class's bust frequency for each (faces taken, dice rolled) seen, with its 95% interval
    (Wilson), beside the exact chance (k/6)^n."""
    shown = _cells(cells)
    x = [f"{c.taken} taken, {c.dice} dice" for c in shown]
    shares = [c.busts / c.rolls for c in shown]
    intervals = [wilson_interval(c.busts, c.rolls) for c in shown]
    data: list[dict[str, Any]] = [{
        "type": "bar", "name": "the class's busts (95% interval)", "x": x, "y": shares,
        "marker": {"color": FAIL_COLOUR, "opacity": 0.8},
        "error_y": {"type": "data", "symmetric": False, "color": NEUTRAL_COLOUR,
                    "array": [hi - s for s, (_, hi) in zip(shares, intervals, strict=True)],
                    "arrayminus": [s - lo for s, (lo, _) in zip(shares, intervals, strict=True)]},
        "customdata": [[c.busts, c.rolls] for c in shown],
        "hovertemplate": ("%{x}: %{y:.1%} bust (%{customdata[0]} of %{customdata[1]} rolls)"
                          "<extra>the class</extra>"),
    }, _exact_trace(x, [c.exact for c in shown], "exact (k/6)^n")]
    rolls = sum(c.rolls for c in shown)
    lay = layout(f"Busts by faces taken and dice rolled<br><sup>{rolls:,} rolls pooled</sup>",
                 "faces taken before the roll, dice rolled", "share of rolls that bust",
                 chance_axis="y", xaxis={"type": "category", "tickangle": -45},
                 legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1,
                         "xanchor": "right"},
                 margin={"t": 120})
    return figure(data, lay)


def bust_alt(cells: Sequence[BustCell]) -> str:
    """The bust chart in words: each (faces taken, dice) with the class's share and the exact."""
    shown = _cells(cells)
    if not shown:
        return "Busts by faces taken and dice rolled: no roll pooled yet."
    parts = [f"{c.taken} taken, {c.dice} dice: {c.busts} of {c.rolls} bust "
             f"({c.busts / c.rolls:.1%}, exact {float(c.exact):.1%})" for c in shown]
    return "Busts by faces taken and dice rolled: " + "; ".join(parts) + "."


def _history(history: object) -> list[tuple[int, float]]:
    if isinstance(history, str | bytes) or not isinstance(history, Sequence):
        raise ValueError(f"history is a list of (n, distance) pairs, not {history!r}"[:300])
    out = []
    for item in history:
        if not isinstance(item, Sequence) or len(item) != 2:
            raise ValueError(f"each history point is (n, distance), not {item!r}"[:300])
        n = whole(item[0], "n (observations)", 1)
        d = item[1]
        if isinstance(d, bool) or not isinstance(d, float | int | np.floating) or not (
                0 <= float(d) <= 1):
            raise ValueError(f"a distance is a number from 0 to 1, not {d!r}")
        out.append((n, float(d)))
    return sorted(out)


def distance_chart(history: Sequence[tuple[int, float]], band: DistanceBand,
                   law: Any = None, what: str = "first-roll worms") -> go.Figure:
    """The class's distance to the exact law as it pools more (points, n on a log axis) inside
    the band where 95% of classes' distances lie, with the expected C/sqrt(n) (dashed). Every
    text is plain ASCII or Latin-1 (a classroom's font may lack a square root sign)."""
    points = _history(history)
    if not isinstance(band, DistanceBand):
        raise ValueError(f"band is a DistanceBand (exact.distance_band), not {band!r}"[:300])
    if not isinstance(what, str):
        raise ValueError(f"what is text, not {what!r}")
    ns = list(band.n)
    share = f"{band.level:.0%}"
    data: list[dict[str, Any]] = [
        {"type": "scatter", "mode": "lines", "x": ns, "y": list(band.high),
         "line": {"width": 0}, "hoverinfo": "skip", "showlegend": False,
         "name": f"{share} band (upper edge)"},
        {"type": "scatter", "mode": "lines", "x": ns, "y": list(band.low), "line": {"width": 0},
         "fill": "tonexty", "fillcolor": "rgba(0,114,178,0.15)",
         "name": f"{share} of classes fall here", "hoverinfo": "skip"},
    ]
    if law is not None:
        c = tv_constant(law)
        data.append({
            "type": "scatter", "mode": "lines", "x": ns, "y": list(expected_distance(law, ns)),
            "name": f"expected: {c:.2f}/sqrt(n)", "line": {"color": EXACT_COLOUR, "dash": "dash",
                                                      "width": 3},
            "hovertemplate": "n = %{x:,}: expected %{y:.3f}<extra></extra>",
        })
    data.append({
        "type": "scatter", "mode": "lines+markers", "name": "the class",
        "x": [n for n, _ in points], "y": [d for _, d in points],
        "line": {"color": SIMULATED_COLOUR, "width": 3}, "marker": {"size": 10},
        "hovertemplate": "after %{x:,}: distance %{y:.3f}<extra>the class</extra>",
    })
    lay = layout(f"Distance to the exact law ({what})<br><sup>shrinks like 1/sqrt(n) as the "
                 "class pools more</sup>",
                 "observations pooled (n)", "total variation distance",
                 xaxis={"type": "log"}, yaxis={"rangemode": "tozero"},
                 legend={"x": 0.98, "xanchor": "right", "y": 0.98})
    return figure(data, lay)


def distance_alt(history: Sequence[tuple[int, float]], band: DistanceBand,
                 what: str = "first-roll worms") -> str:
    """The distance chart in words: the class's latest distance and the band at that n."""
    points = _history(history)
    if not isinstance(band, DistanceBand):
        raise ValueError(f"band is a DistanceBand (exact.distance_band), not {band!r}"[:300])
    if not points:
        return f"Distance to the exact law ({what}): nothing pooled yet."
    n, d = points[-1]
    i = int(np.argmin([abs(math.log(m) - math.log(n)) for m in band.n]))
    return (f"Distance to the exact law ({what}): {d:.3f} after {n:,} observations; "
            f"{band.level:.0%} of classes are between {band.low[i]:.3f} and {band.high[i]:.3f} "
            f"at about {band.n[i]:,}. The band narrows like 1/sqrt(n).")
