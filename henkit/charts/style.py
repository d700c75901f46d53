"""One place for how henkit's charts look: colours, fonts, the template and a layout helper.

Every chart builds a plain `plotly.graph_objects.Figure` (not a FigureWidget: a FigureWidget
ships all of plotly.js over the kernel connection and costs seconds per dashboard page load)
with the small `TEMPLATE` set explicitly, so a figure's JSON never depends on the user's
default template and the same inputs always give the same JSON. Fonts are large: a teacher
projects these charts in class.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import plotly.graph_objects as go

from henkit.checks import whole
from henkit.henpen.dice import FACES, WORM, face_name

# -- colours -----------------------------------------------------------------------------------


@cache
def _breed_colours() -> Mapping[str, str]:
    # The card table lives in henkit.hens: importing it loads the whole card game, which the
    # Henpen lessons' charts never need, so it is read on first use (BREED_COLOURS below).
    from henkit.hens.cards import BREEDS

    return {b.code: b.colour for b in BREEDS}


def __getattr__(name: str) -> Any:
    """`BREED_COLOURS`: breed code -> its colour, read from the card table on first use (CSS
    colour names plotly understands); `TEMPLATE`: the charts' plotly template (a few layout
    settings: cheap to apply, stable JSON), built on first use."""
    if name == "BREED_COLOURS":
        return _breed_colours()
    if name == "TEMPLATE":
        return _template()
    raise AttributeError(f"module 'henkit.charts.style' has no attribute {name!r}")


# One colour per die face, from the Okabe-Ito palette (readable by colour-blind students).
FACE_COLOURS: Mapping[int, str] = dict(zip(
    FACES, ("#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#E69F00", "#8C510A"), strict=True,
))
"""Die face (1..5, WORM=6) -> colour; the worm is earthy brown."""

FAIL_COLOUR = "#D55E00"
"""A failed turn / bust (vermilion)."""
EXACT_COLOUR = "#0072B2"
"""Exact values computed by the engines."""
SIMULATED_COLOUR = "#E69F00"
"""Frequencies from a simulation, drawn beside the exact values."""
NEUTRAL_COLOUR = "#555555"
"""Reference lines and totals."""
STOP_COLOUR = "#009E73"
"""The solver says stop."""
ROLL_COLOUR = "#56B4E9"
"""The solver says roll."""
TIE_COLOUR = "#E6E6E6"
"""Stopping and rolling are worth the same."""
MIXED_COLOUR = "#999999"
"""The solver's choice depends on something not shown (e.g. which faces are taken)."""

SERIES_COLOURS: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
)
"""Colours for several series (policies, bots) in order."""

SEQUENTIAL_SCALE: tuple[tuple[float, str], ...] = (
    (0.0, "#FFFFFF"), (0.25, "#FDD49E"), (0.5, "#FC8D59"), (0.75, "#D7301F"), (1.0, "#7F0000"),
)
"""White to dark red, for chances from 0 to 1 (heatmaps)."""

# -- fonts and template ------------------------------------------------------------------------

FONT_FAMILY = "Arial, Helvetica, sans-serif"
FONT_SIZE = 18
TITLE_SIZE = 24
HOVER_SIZE = 16
LABEL_SIZE = 16
"""Numbers written on bars and cells: a projected class reads them (at least 16 px)."""

@cache
def _template() -> go.layout.Template:
    # Built on first use: plotly validates every setting as the Template is made, loading a
    # validator module for each (about 0.1 s in a fresh kernel), which a lesson would otherwise
    # pay in its first cell, before its first widget, whether or not a chart comes first.
    return go.layout.Template(layout={
        "font": {"family": FONT_FAMILY, "size": FONT_SIZE, "color": "#222222"},
        "title": {"x": 0.02, "xanchor": "left", "font": {"size": TITLE_SIZE}},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "colorway": list(SERIES_COLOURS),
        "xaxis": {"showline": True, "linecolor": "#444444", "ticks": "outside",
                  "gridcolor": "#E5E5E5", "automargin": True, "title": {"standoff": 10}},
        "yaxis": {"showline": True, "linecolor": "#444444", "ticks": "outside",
                  "gridcolor": "#E5E5E5", "zerolinecolor": "#999999", "automargin": True,
                  "title": {"standoff": 10}},
        "legend": {"font": {"size": HOVER_SIZE}, "bgcolor": "rgba(255,255,255,0.8)"},
        "hoverlabel": {"font": {"size": HOVER_SIZE, "family": FONT_FAMILY}},
        "margin": {"l": 70, "r": 30, "t": 80, "b": 70},
    })

PERCENT = ".1%"
"""How chances are shown on axes and in hover text."""


def _face(face: object) -> int:
    return whole(face, f"a die face (1 to 5, or {WORM} for the worm)", min(FACES), max(FACES))


def face_label(face: int) -> str:
    """A face as a chart label: '1'..'5' or 'worm'."""
    return face_name(_face(face))


def face_colour(face: int) -> str:
    """The colour of a die face (1..5, WORM)."""
    return FACE_COLOURS[_face(face)]


def breed_colour(code: str) -> str:
    """The colour of a breed (by code, e.g. 'Pa')."""
    colours = _breed_colours()
    if not isinstance(code, str) or code not in colours:
        raise ValueError(f"no breed {code!r}; breeds are {', '.join(colours)}")
    return colours[code]


def series_colour(i: int) -> str:
    """The i-th colour for several series (cycles)."""
    return SERIES_COLOURS[whole(i, "the series number") % len(SERIES_COLOURS)]


def layout(
    title: str,
    x_title: str,
    y_title: str,
    *,
    chance_axis: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A layout dict with the henkit template, a title and axis titles.

    `chance_axis="y"` (or "x") formats that axis as percentages from 0.
    """
    for what, text in (("title", title), ("x_title", x_title), ("y_title", y_title)):
        if not isinstance(text, str):
            raise ValueError(f"{what} must be text, not {text!r}")
    out: dict[str, Any] = {
        "template": _template(),
        "title": {"text": title},
        "xaxis": {"title": {"text": x_title}},
        "yaxis": {"title": {"text": y_title}},
    }
    if chance_axis is not None:
        if chance_axis not in ("x", "y"):
            raise ValueError(f"chance_axis must be 'x', 'y' or None, not {chance_axis!r}")
        out[f"{chance_axis}axis"].update(tickformat=".0%", rangemode="tozero")
    for key, value in extra.items():
        if key in out and isinstance(out[key], dict) and isinstance(value, dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def figure(data: list[dict[str, Any]], layout_dict: dict[str, Any]) -> go.Figure:
    """A plain go.Figure from trace and layout dicts (the one constructor every chart uses)."""
    if not isinstance(data, list | tuple) or not all(isinstance(t, dict) for t in data):
        raise ValueError(f"data must be a list of trace dicts, not {data!r}")
    if not isinstance(layout_dict, dict):
        raise ValueError(f"layout must be a dict (see layout()), not {layout_dict!r}")
    try:
        return go.Figure({"data": list(data), "layout": layout_dict})
    except TypeError as e:  # plotly's own checks raise ValueError, except for odd keys
        raise ValueError(f"not a plotly figure's data and layout: {e}") from None
