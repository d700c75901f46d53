"""Class board charts draw the board's counts and the exact laws of henkit.classpool.exact."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import plotly.graph_objects as go
import pytest

from henkit.charts import classboard as ch
from henkit.charts.style import EXACT_COLOUR, FAIL_COLOUR, breed_colour
from henkit.classpool.base import Board
from henkit.classpool.exact import (
    bust_cells,
    distance_band,
    draw_comparison,
    ending_comparisons,
    first_roll_comparisons,
    first_roll_law,
)
from henkit.display import figure_json

BOARD = Board(
    first_rolls={(8, 0): 5, (8, 1): 8, (8, 2): 4, (8, 4): 1},
    busts={(3, 2): (1, 4), (2, 5): (7, 10), (8, 0): (0, 18), (1, 1): (0, 0)},
    endings={("student", 25): 2, ("student", "bust"): 3, ("student", "no worm"): 1,
             ("greedy", 22): 4},
    draws={("deck", "Pa3", 4): 2, ("deck", "Mo1", 4): 1, ("pile", "Pa4", 4): 7},
)


def test_first_roll_chart_bars_are_the_class_markers_the_binomial() -> None:
    (comparison,) = first_roll_comparisons(BOARD)
    fig = ch.comparison_chart(comparison, "worms shown")
    assert isinstance(fig, go.Figure)
    bars, exact = fig.data
    assert bars.type == "bar" and exact.type == "scatter"
    assert list(bars.x) == [str(k) for k in range(9)] == list(exact.x)
    assert list(bars.customdata) == [5, 8, 4, 0, 1, 0, 0, 0, 0]
    assert list(bars.y) == pytest.approx([c / 18 for c in bars.customdata])
    assert list(exact.y) == pytest.approx([float(p) for p in first_roll_law(8)])
    assert exact.marker.color == EXACT_COLOUR
    # The exact chances are written on the chart (a projected class sees no hover text).
    assert list(exact.text[:3]) == ["23.3%", "37.2%", "26.0%"] and exact.text[8] == "<0.1%"
    assert exact.textfont.size >= 16
    assert "18 pooled" in fig.layout.title.text and "distance" in fig.layout.title.text
    alt = ch.comparison_alt(comparison)
    assert alt.startswith("Worms on a first roll of 8 dice, 18 pooled:")
    assert "1 27.8%" not in alt and "1 44.4% (8) vs exact 37.2%" in alt


def test_ending_chart_marks_failures_and_has_no_markers_without_a_law() -> None:
    students, greedy = ending_comparisons(BOARD, laws=False)
    fig = ch.comparison_chart(students, "end of the turn")
    (bars,) = fig.data  # no exact law asked for: bars only
    assert list(bars.x[:3]) == ["bust", "no worm", "no serving"]
    assert list(bars.marker.color[:3]) == [FAIL_COLOUR] * 3
    assert "distance" not in fig.layout.title.text
    assert ch.comparison_alt(greedy) == "Greedy's turns, 4 pooled: 22 100.0% (4)."


def test_draws_chart_colours_breeds() -> None:
    comparison = draw_comparison(BOARD, players=4)
    fig = ch.comparison_chart(comparison, "breed")
    bars, exact = fig.data
    assert list(bars.marker.color) == [breed_colour(k) for k in comparison.keys]
    assert list(exact.y) == pytest.approx([1 / 6, 1 / 6, 10 / 72, 10 / 72, 8 / 72, 8 / 72,
                                           6 / 72, 6 / 72])
    assert "12/72" not in str(exact.customdata) and "1/6" in str(exact.customdata)


def test_bust_chart_shows_each_cell_seen_with_its_interval() -> None:
    cells = bust_cells(BOARD)
    fig = ch.bust_chart(cells)
    bars, exact = fig.data
    # By faces taken, then dice; the cell with no roll (1 taken, 1 dice) is left out.
    assert list(bars.x) == ["0 taken, 8 dice", "2 taken, 3 dice", "5 taken, 2 dice"]
    assert list(bars.y) == pytest.approx([0.0, 0.25, 0.7])
    assert list(exact.y) == pytest.approx([0.0, 1 / 27, 25 / 36])
    for y, up, down in zip(bars.y, bars.error_y.array, bars.error_y.arrayminus, strict=True):
        assert 0 <= y - down <= y <= y + up <= 1
    assert "32 rolls pooled" in fig.layout.title.text
    assert ch.bust_alt(cells).endswith("; 5 taken, 2 dice: 7 of 10 bust (70.0%, exact 69.4%).")
    assert ch.bust_alt([]) == "Busts by faces taken and dice rolled: no roll pooled yet."


def test_distance_chart_draws_the_band_the_expectation_and_the_class() -> None:
    law = first_roll_law(8)
    band = distance_band(law, [10, 100, 1000], sims=500, seed=1)
    history = [(100, 0.07), (10, 0.3), (1000, 0.02)]
    fig = ch.distance_chart(history, band, law)
    upper, lower, expected, cls = fig.data
    assert list(upper.y) == list(band.high) and list(lower.y) == list(band.low)
    assert lower.fill == "tonexty"
    assert expected.y[0] * math.sqrt(10) == pytest.approx(expected.y[2] * math.sqrt(1000))
    assert list(cls.x) == [10, 100, 1000]  # in order of n
    assert fig.layout.xaxis.type == "log"
    alt = ch.distance_alt(history, band)
    assert "0.020 after 1,000 observations" in alt and "1/sqrt(n)" in alt


def test_charts_are_deterministic() -> None:
    (comparison,) = first_roll_comparisons(BOARD)
    band = distance_band(first_roll_law(8), [10, 100], sims=200, seed=3)
    for make in (lambda: ch.comparison_chart(comparison),
                 lambda: ch.bust_chart(bust_cells(BOARD)),
                 lambda: ch.distance_chart([(10, 0.2)], band, first_roll_law(8))):
        assert figure_json(make()) == figure_json(make())


def test_bad_input_is_a_value_error() -> None:
    band = distance_band([Fraction(1)], [10], sims=10)
    for call in (
        lambda: ch.comparison_chart(BOARD), lambda: ch.comparison_alt(None),
        lambda: ch.comparison_chart(first_roll_comparisons(BOARD)[0], x_title=3),
        lambda: ch.bust_chart("cells"), lambda: ch.bust_alt([1]),
        lambda: ch.distance_chart([(0, 0.1)], band), lambda: ch.distance_chart([(5, 2.0)], band),
        lambda: ch.distance_chart([(5, 0.1)], "band"), lambda: ch.distance_alt("h", band),
        lambda: ch.distance_chart([(5, 0.1)], band, what=1),
    ):
        with pytest.raises(ValueError):
            call()


def test_no_chart_text_needs_a_font_a_classroom_may_lack() -> None:
    # ASCII and Latin-1 only (no square root sign, no arrows): as tests/charts/test_chart_words.
    law = first_roll_law(8)
    band = distance_band(law, [10, 100], sims=200, seed=3)
    figs = [ch.comparison_chart(c) for c in (*first_roll_comparisons(BOARD),
                                              *ending_comparisons(BOARD),
                                              draw_comparison(BOARD))]
    figs += [ch.bust_chart(bust_cells(BOARD)), ch.distance_chart([(10, 0.2)], band, law)]
    texts = [json.dumps(figure_json(f), ensure_ascii=False) for f in figs]
    texts += [ch.bust_alt(bust_cells(BOARD)), ch.distance_alt([(10, 0.2)], band)]
    for text in texts:
        assert all(" " <= c <= "\u00ff" or c in "–—‘’“”…" for c in text), text[:200]
