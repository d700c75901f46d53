"""Tournament charts draw the arena's own win rates, means and 95% intervals."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from henkit.arena import run_tournament
from henkit.charts import arena as ch


@pytest.fixture(scope="module")
def tournament():
    return run_tournament("henpen", ["threshold:25", "greedy", "random"], games=12, seed=4)


def test_win_rate_chart_bars_and_error_bars_are_the_summary(tournament):
    fig = ch.win_rate_chart(tournament)
    (bar,) = fig.data
    summary = tournament.summary()
    assert list(bar.x) == [s.bot for s in summary]
    assert list(bar.y) == [s.win_rate for s in summary]
    assert sum(bar.y) == pytest.approx(1.0)
    for s, up, down, y in zip(summary, bar.error_y.array, bar.error_y.arrayminus, bar.y,
                              strict=True):
        assert y + up == pytest.approx(s.win_high) and y - down == pytest.approx(s.win_low)
        assert up >= 0 and down >= 0
    assert fig.layout.yaxis.title.text == "share of games won" and fig.layout.xaxis.title.text
    assert "12 games" in fig.layout.title.text


def test_seat_summaries_get_one_bar_per_bot_and_seat(tournament):
    fig = ch.mean_score_chart(tournament.seat_summary(), unit="worms")
    (bar,) = fig.data
    assert len(bar.x) == 9 and "threshold 25 (seat 1)" in bar.x
    rows = tournament.seat_summary()
    assert list(bar.y) == [s.mean_score for s in rows]
    assert fig.layout.yaxis.title.text == "mean worms per game"
    # One colour per bot, whatever the seat.
    colours = dict(zip([s.bot for s in rows], bar.marker.color, strict=True))
    assert len(set(colours.values())) == 3


def test_arena_charts_are_deterministic_and_reject_bad_input(tournament):
    a, b = ch.win_rate_chart(tournament), ch.win_rate_chart(tournament)
    assert type(a) is go.Figure and a.to_json() == b.to_json()
    for bad in ([], "x", [1, 2]):
        with pytest.raises(ValueError):
            ch.win_rate_chart(bad)
    twice = tournament.summary() * 2
    with pytest.raises(ValueError, match="once"):
        ch.mean_score_chart(twice)
