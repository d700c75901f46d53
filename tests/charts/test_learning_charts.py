"""The learning-vs-solving chart draws the learner's grades as they are: one point per grade,
the last values written on it, nothing computed by the chart; bad input is a ValueError."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from henkit.charts.learning import learning_curve_chart
from henkit.charts.style import LABEL_SIZE
from henkit.henpen.learning import learning_curve


@pytest.fixture(scope="module")
def grades():
    return learning_curve(6_000, 2_000, seed=4, batch=500)


def test_the_chart_draws_every_grade_and_writes_the_last(grades):
    fig = learning_curve_chart(grades)
    lost, reached, every = fig.data
    turns = [g.episodes for g in grades]
    assert list(lost.x) == turns == list(reached.x) == list(every.x)
    assert list(lost.y) == [g.value_lost for g in grades]
    assert list(reached.y) == [g.agreement_weighted for g in grades]
    assert list(every.y) == [g.agreement for g in grades]
    assert lost.text[-1] == f"{grades[-1].value_lost:.3f}" and set(lost.text[:-1]) == {""}
    assert reached.text[-1] == f"{grades[-1].agreement_weighted:.1%}"
    assert all(t.textfont.size >= LABEL_SIZE for t in fig.data)
    assert fig.layout.yaxis2.tickformat == ".0%" and lost.yaxis == "y" and every.yaxis == "y2"
    # Deterministic: the same grades draw the same figure.
    assert json.dumps(fig.to_plotly_json(), default=str) == json.dumps(
        learning_curve_chart(grades).to_plotly_json(), default=str)
    assert learning_curve_chart(grades, "Mine").layout.title.text == "Mine"


@pytest.mark.parametrize("bad", [None, "grades", [], [1, 2], 3.0])
def test_bad_grades_are_refused(bad):
    with pytest.raises(ValueError, match="grades must be"):
        learning_curve_chart(bad)


def test_grades_out_of_order_or_a_bad_title_are_refused(grades):
    with pytest.raises(ValueError, match="in order of turns played"):
        learning_curve_chart(grades[::-1])
    with pytest.raises(ValueError, match="in order of turns played"):
        learning_curve_chart([grades[0], replace(grades[1], episodes=0)])
    with pytest.raises(ValueError, match="title must be text"):
        learning_curve_chart(grades, title=5)
