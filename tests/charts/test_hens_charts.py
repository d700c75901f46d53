"""Hens charts: waterfall steps, draw odds and score distributions are the engine's numbers."""

from __future__ import annotations

from collections import Counter
from math import comb

import plotly.graph_objects as go
import pytest

from henkit.charts import hens as ch
from henkit.hens import BREEDS, State, make_bot, play_game, simulate
from henkit.hens.odds import draw_odds


@pytest.fixture(scope="module")
def game():
    return play_game([make_bot("greedy"), make_bot("random")], seed=3)


@pytest.fixture(scope="module")
def view():
    return State.new(3, seed=7).view(0)


def test_score_waterfall_shows_each_step_and_the_total(game):
    score = game.final.score_sheets()[0]
    fig = ch.score_waterfall(score)
    (wf,) = fig.data
    assert list(wf.x) == [line.step for line in score.lines] + ["total"]
    assert list(wf.y) == [line.points for line in score.lines] + [score.total]
    assert list(wf.measure) == ["relative"] * 6 + ["total"]
    assert sum(wf.y[:-1]) == wf.y[-1] == game.totals[0]
    assert list(wf.customdata[:-1]) == [line.reason for line in score.lines]
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text == "points"


def test_score_waterfall_rejects_anything_but_a_score(game):
    with pytest.raises(ValueError, match="Score"):
        ch.score_waterfall(game.totals)


def test_draw_odds_chart_bars_are_the_exact_odds(view):
    kinds = ["Pa", "Ce6", 3]
    fig = ch.draw_odds_chart(view, kinds, draws=(1, 2, 3))
    assert [t.name for t in fig.data] == ["in the next 1 draw", "in the next 2 draws",
                                          "in the next 3 draws"]
    for k, trace in zip((1, 2, 3), fig.data, strict=True):
        for kind, y, (frac, matching, unseen) in zip(kinds, trace.y, trace.customdata,
                                                      strict=True):
            odds = draw_odds(view, kind, k)
            assert y == float(odds.at_least_one) and frac == str(odds.at_least_one)
            # Hypergeometric by hand: 1 - C(unseen - matching, k) / C(unseen, k).
            assert y == pytest.approx(1 - comb(unseen - matching, k) / comb(unseen, k))
    # More draws never lower the chance of at least one.
    for a, b in zip(fig.data[0].y, fig.data[2].y, strict=True):
        assert b >= a


def test_draw_odds_chart_uses_breed_colours_for_one_k(view):
    present = [b.code for b in BREEDS if b.code not in view.removed_breeds]
    fig = ch.draw_odds_chart(view, present, draws=2)
    assert list(fig.data[0].marker.color) == [b.colour for b in BREEDS if b.code in present]


@pytest.mark.parametrize(("kinds", "draws"),
                         [([], 2), ("Pa", 2), (["Pa"], 0), (["Pa"], []), (["Zz9x"], 2),
                          (["Pa", "Pa"], 2)])
def test_draw_odds_chart_rejects_bad_input(view, kinds, draws):
    with pytest.raises(ValueError):
        ch.draw_odds_chart(view, kinds, draws)


def test_draw_odds_chart_needs_a_view():
    with pytest.raises(ValueError, match="View"):
        ch.draw_odds_chart(State.new(2, seed=1), ["Pa"])


def test_score_distribution_chart_pools_seats_per_bot():
    results = simulate([make_bot("greedy"), make_bot("random")], 12, seed=5)
    fig = ch.score_distribution_chart(results)
    assert len(fig.data) == 2
    for trace in fig.data:
        bot = trace.name.split(" (")[0]
        scores = [t for r in results for b, t in zip(r.bots, r.totals, strict=True) if b == bot]
        assert f"mean {sum(scores) / len(scores):.1f}" in trace.name
        assert sum(trace.y) == pytest.approx(1.0)
        tally = Counter(scores)
        assert {x: c for x, c in zip(trace.x, trace.customdata, strict=True) if c} == tally
    assert fig.layout.xaxis.title.text == "final score"


def test_score_distribution_chart_works_for_henpen_games_too():
    from henkit.henpen.bots import make_bot as henpen_bot
    from henkit.henpen.simulate import simulate as henpen_simulate

    results = henpen_simulate([henpen_bot("greedy"), henpen_bot("threshold:25")], 4, seed=1)
    fig = ch.score_distribution_chart(results)
    assert {t.name.split(" (")[0] for t in fig.data} == {"greedy", "threshold 25"}


def test_score_distribution_chart_rejects_bad_input():
    with pytest.raises(ValueError):
        ch.score_distribution_chart([])
    with pytest.raises(ValueError):
        ch.score_distribution_chart([1, 2])


def test_hens_figures_are_plain_and_deterministic(game, view):
    def build():
        return [ch.score_waterfall(game.final.score_sheets()[1]), ch.draw_odds_chart(view, ["Pa", 2]),
                ch.score_distribution_chart([game])]

    for a, b in zip(build(), build(), strict=True):
        assert type(a) is go.Figure and a.to_json() == b.to_json()
