"""Tournament charts: win rates and mean scores with their 95% confidence intervals.

The numbers are `henkit.results`' summary (Wilson intervals for win rates, mean +- 1.96 standard
errors for scores, and how far each interval reaches either side); these charts only draw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from henkit.arena import BotSummary, Tournament
from henkit.charts.style import NEUTRAL_COLOUR, figure, layout, series_colour

__all__ = ["mean_score_chart", "win_rate_chart"]


def _rows(summary: Tournament | Sequence[BotSummary]) -> list[BotSummary]:
    if isinstance(summary, Tournament):
        return summary.summary()
    if isinstance(summary, str | bytes) or not isinstance(summary, Sequence) or not summary:
        raise ValueError("give a Tournament or a non-empty list of BotSummary "
                         "(tournament.summary() or .seat_summary())")
    for s in summary:
        if not isinstance(s, BotSummary):
            raise ValueError(f"summary rows must be BotSummary, not {type(s).__name__}")
    return list(summary)


def _text(x: object, what: str) -> None:
    if not isinstance(x, str):
        raise ValueError(f"{what} must be text, not {x!r}")


def _bars(rows: list[BotSummary], value: str, interval: tuple[str, str, str], fmt: str,
          what: str) -> dict:
    # Draws the summary's own numbers: values, their 95% intervals (BotSummary.win_error /
    # score_error) and labels; nothing is computed here.
    labels = [s.label for s in rows]
    if len(set(labels)) != len(labels):
        raise ValueError(f"each bot (and seat) must appear once, not {labels}")
    bots = list(dict.fromkeys(s.bot for s in rows))
    low, high, error = interval
    errors = [getattr(s, error) for s in rows]
    return {
        "type": "bar", "x": labels, "y": [getattr(s, value) for s in rows],
        "marker": {"color": [series_colour(bots.index(s.bot)) for s in rows]},
        "error_y": {"type": "data", "symmetric": False,
                    "array": [above for _, above in errors],
                    "arrayminus": [below for below, _ in errors],
                    "color": NEUTRAL_COLOUR, "thickness": 2, "width": 8},
        "customdata": [[getattr(s, low), getattr(s, high), s.games, s.wins] for s in rows],
        "hovertemplate": (f"%{{x}}: {what} %{{y:{fmt}}}<br>95% interval %{{customdata[0]:{fmt}}}"
                          f" to %{{customdata[1]:{fmt}}}<br>%{{customdata[3]:.4g}} wins in "
                          "%{customdata[2]} games<extra></extra>"),
    }


def _ticks(rows: list[BotSummary], value: str, low: str, high: str, fmt: str) -> dict:
    """A category axis whose labels carry each bar's value and 95% interval in plain sight
    (a projected class sees no hover text): 'greedy', '52.0%', '45.1% to 58.8%'."""
    labels = [s.label for s in rows]
    text = [f"{s.label}<br><b>{getattr(s, value):{fmt}}</b><br>{getattr(s, low):{fmt}} to "
            f"{getattr(s, high):{fmt}}" for s in rows]
    return {"type": "category", "tickmode": "array", "tickvals": labels, "ticktext": text}


def win_rate_chart(summary: Tournament | Sequence[BotSummary], title: str = "Win rates") -> go.Figure:
    """Each bot's share of games won (shared wins split), with its Wilson 95% interval."""
    rows = _rows(summary)
    _text(title, "title")
    data: list[dict[str, Any]] = [_bars(rows, "win_rate", ("win_low", "win_high", "win_error"),
                                        ".1%", "won")]
    games = sorted({s.games for s in rows})
    note = f"{games[0]} games each" if len(games) == 1 else "games per bot vary"
    lay = layout(f"{title} ({note}; bars: 95% confidence intervals)", "bot",
                 "share of games won", chance_axis="y", showlegend=False,
                 xaxis=_ticks(rows, "win_rate", "win_low", "win_high", ".1%"),
                 yaxis={"range": [0, 1]})
    return figure(data, lay)


def mean_score_chart(
    summary: Tournament | Sequence[BotSummary], title: str = "Mean scores", unit: str = "score"
) -> go.Figure:
    """Each bot's mean score with its 95% interval (unit: 'worms' for Henpen, 'points' for Hens)."""
    rows = _rows(summary)
    _text(title, "title")
    _text(unit, "unit")
    data: list[dict[str, Any]] = [_bars(rows, "mean_score",
                                        ("score_low", "score_high", "score_error"), ".2f",
                                        f"mean {unit}")]
    lay = layout(f"{title} (bars: 95% confidence intervals)", "bot", f"mean {unit} per game",
                 showlegend=False,
                 xaxis=_ticks(rows, "mean_score", "score_low", "score_high", ".2f"))
    return figure(data, lay)
