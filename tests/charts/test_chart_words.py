"""Charts for a projected class: no symbol character a font may lack (the worm is the word
"worm"), numbers on bars at least 16 px, and the exact values the lessons talk about written on
the chart, not only in hover text; ranges read "a to b"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from henkit.arena import run_tournament
from henkit.charts import arena, henpen, hens
from henkit.charts.style import LABEL_SIZE
from henkit.henpen import State as HenpenState
from henkit.henpen import distributions as dist
from henkit.henpen.dice import FACES, WORM
from henkit.henpen.distributions import face_count_distribution
from henkit.henpen.odds import position_reward, solve_turn
from henkit.hens import State as HensState
from henkit.hens.bots import make_bot
from henkit.hens.odds import draw_odds
from henkit.hens.simulate import play_game, simulate

SAFE_EXTRA = set("–—‘’“”…")


def unsafe(text: str) -> set[str]:
    """Characters that may need a font the classroom's computer lacks."""
    return {ch for ch in text if not ("\n" == ch or " " <= ch <= "~" or "\u00a0" <= ch <= "\u00ff"
                                      or ch in SAFE_EXTRA)}


def strings(x: object) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from strings(v)
    elif isinstance(x, list | tuple):
        for v in x:
            yield from strings(v)


@pytest.fixture(scope="module")
def figures() -> dict[str, go.Figure]:
    dists = dist.policy_distributions((21, 25))
    game = play_game([make_bot("greedy"), make_bot("random")], seed=3)
    t = run_tournament("henpen", ["threshold:25", "greedy"], games=6, seed=2)
    out = {f"roll_count_{f}": henpen.roll_count_chart(8, f, simulated=1) for f in FACES}
    out.update(
        lln=henpen.law_of_large_numbers_chart(Fraction(1, 6), [1, 0, 0, 1, 0, 0, 0, 1]),
        bust=henpen.bust_heatmap(),
        ends=henpen.end_distribution_chart(dists),
        at_least=henpen.chance_at_least_chart(dists, best=True),
        policy=henpen.policy_map(solve_turn(position_reward())),
        outlook=henpen.turn_outlook_chart(HenpenState.new(2)),
        waterfall=hens.score_waterfall(game.final.score_sheets()[0]),
        draws=hens.draw_odds_chart(HensState.new(3, seed=7).view(0), ["Pa", "Ce6", 2]),
        scores=hens.score_distribution_chart(simulate([make_bot("greedy"), make_bot("random")],
                                                      4, seed=5)),
        wins=arena.win_rate_chart(t),
        means=arena.mean_score_chart(t, unit="worms"),
    )
    return out


def test_no_chart_shows_a_symbol_character(figures):
    for name, fig in figures.items():
        data = json.loads(fig.to_json())
        for text in strings(data):
            assert not unsafe(text), (name, sorted(unsafe(text)), text[:120])
    # The worm is said in words where a chart names it.
    assert "worm" in figures[f"roll_count_{WORM}"].layout.title.text


def test_numbers_written_on_charts_are_projector_sized(figures):
    for name, fig in figures.items():
        for trace in fig.data:
            if getattr(trace, "text", None) is not None or getattr(trace, "texttemplate", None):
                size = trace.textfont.size
                assert size is None or size >= 16, (name, size)
    assert LABEL_SIZE >= 16


@pytest.mark.parametrize("face", FACES)
def test_roll_count_bars_carry_their_exact_chance(face, figures):
    exact = face_count_distribution(8, face)
    bar = figures[f"roll_count_{face}"].data[0]
    assert bar.name == "exact" and bar.textposition == "outside"
    for p, text in zip(exact, bar.text, strict=True):
        assert text == ("0%" if p == 0 else "<0.1%" if p < Fraction(1, 1000) else f"{float(p):.1%}")


def test_the_failed_bar_carries_the_chance_of_failing(figures):
    dists = dist.policy_distributions((21, 25))
    fig = figures["ends"]
    for trace, d in zip(fig.data, dists.values(), strict=True):
        assert trace.x[0] == "failed"
        assert trace.text[0] == f"{float(d.fail):.1%}" and set(trace.text[1:]) == {""}


def test_draw_odds_bars_carry_their_chance(figures):
    fig = figures["draws"]
    view = HensState.new(3, seed=7).view(0)
    for trace in fig.data:
        k = int(trace.name.split()[3])
        assert trace.texttemplate == "%{y:.1%}"
        want = [float(draw_odds(view, kind, k).at_least_one) for kind in ["Pa", "Ce6", 2]]
        assert list(trace.y) == pytest.approx(want)


def test_arena_labels_carry_the_value_and_its_interval_as_a_to_b(figures):
    t = run_tournament("henpen", ["threshold:25", "greedy"], games=6, seed=2)
    for fig, value, low, high, fmt in ((figures["wins"], "win_rate", "win_low", "win_high", ".1%"),
                                       (figures["means"], "mean_score", "score_low",
                                        "score_high", ".2f")):
        ax = fig.layout.xaxis
        assert list(ax.tickvals) == list(fig.data[0].x)
        for s, text in zip(t.summary(), ax.ticktext, strict=True):
            lo, hi = getattr(s, low), getattr(s, high)
            assert text == (f"{s.label}<br><b>{getattr(s, value):{fmt}}</b><br>"
                            f"{lo:{fmt}} to {hi:{fmt}}")
            assert "--" not in text
