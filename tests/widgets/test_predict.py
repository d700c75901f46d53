"""Predict, experiment, then the exact answer: reading and scoring a prediction (no widgets),
and the widget clicked headlessly (the lock, the seeded experiment, the answer kept back)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import ipywidgets as w
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from henkit.core import make_rng
from henkit.display import DASHBOARD_ENV
from henkit.henpen.dice import WORM, sample_roll
from henkit.widgets import DiceTray
from henkit.widgets.common import status_text
from henkit.widgets.pieces import FONT_PX, ROOT_CLASS, contrast
from henkit.widgets.predict import MAX_FRACTION_DIGITS, Predict, Question, percent_text

from ..fuzz_values import junk, only_value_error

FEW = settings(max_examples=12, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow])
CHANCE = Question()
SEVEN_EIGHTEENTHS = Fraction(7, 18)


@pytest.fixture(autouse=True)
def notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """These widgets run as in a notebook (the notebook's seed is played)."""
    monkeypatch.delenv(DASHBOARD_ENV, raising=False)


# ----- reading a prediction ---------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "chance"), [
    ("30", Fraction(3, 10)), ("30 %", Fraction(3, 10)), ("30%", Fraction(3, 10)),
    (" 37.5 ", Fraction(3, 8)), ("37,5", Fraction(3, 8)), ("1/3", Fraction(1, 3)),
    ("0", Fraction(0)), ("100", Fraction(1)), ("0.5", Fraction(1, 200)), ("1/1", Fraction(1)),
])
def test_a_chance_is_read_in_percent_or_as_a_fraction(typed, chance):
    assert CHANCE.parse(typed) == chance


@pytest.mark.parametrize(("typed", "words"), [
    ("", "type a prediction first"), ("   ", "type a prediction first"),
    ("abc", "is not a number"), ("150", "from 0 to 100"), ("-5", "from 0 to 100"),
    ("4/3", "at most 1"), ("1/0", "divides by zero"), ("1/3 %", "is not a number"),
    ("3" * 50, "is not a number"), (None, "type a prediction first"), (30, "type a prediction"),
])
def test_a_chance_that_is_not_one_is_refused_in_words(typed, words):
    with pytest.raises(ValueError, match=words) as e:
        CHANCE.parse(typed)
    assert len(str(e.value)) < 200


def test_a_number_is_read_within_its_range_and_whole_when_asked():
    q = Question("number", low=21, high=36, whole_only=True)
    assert q.parse("25") == 25
    for typed, words in (("20", "outside the range"), ("25.5", "whole number"), ("x", "not a number")):
        with pytest.raises(ValueError, match=words):
            q.parse(typed)
    q = Question("number", low=0, high=5, unit="worms", digits=3)
    assert q.parse("1.25") == Fraction(5, 4) and q.parse("4/3") == Fraction(4, 3)
    assert "from 0 to 5 (worms)" in q.hint


def test_a_choice_is_one_of_the_choices():
    q = Question("choice", choices=("stop", "roll"))
    assert q.parse("roll") == "roll"
    with pytest.raises(ValueError, match="pick one first: stop, roll"):
        q.parse(None)
    with pytest.raises(ValueError, match="pick one of: stop, roll"):
        q.parse("maybe")


# ----- scoring ------------------------------------------------------------------------------------


def test_a_chance_is_scored_in_percentage_points_with_the_exact_fraction():
    s = CHANCE.score("30", SEVEN_EIGHTEENTHS)
    off = 100 * (Fraction(3, 10) - SEVEN_EIGHTEENTHS)
    assert s.off == off and not s.right
    assert s.exact == f"{100 * float(SEVEN_EIGHTEENTHS):.1f} % (7/18)"
    assert s.text == (f"You said 30 %; exact {s.exact}: {abs(float(off)):.1f} percentage points "
                      "low.")
    high = CHANCE.score(Fraction(1, 2), SEVEN_EIGHTEENTHS)
    assert high.off > 0 and "percentage points high" in high.text


@given(said=st.fractions(0, 1, max_denominator=1000), exact=st.fractions(0, 1))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_a_chance_score_says_how_far_off_and_which_way(said, exact):
    s = CHANCE.score(said, exact)
    assert s.off == 100 * (said - exact)
    assert s.right == (said == exact)
    assert s.text.startswith(f"You said {CHANCE.say(said)}; exact {CHANCE.exact_text(exact)}: ")
    if said == exact:
        assert s.text.endswith("exactly right.")
    else:
        assert ("high" in s.text) == (said > exact) and ("low" in s.text) == (said < exact)
        size = f"{abs(float(s.off)):.1f}"
        assert (size in s.text) or (size == "0.0" and "less than 0.1" in s.text)
    assert ("spot on" in s.text) == (said != exact and abs(s.off) <= Fraction(1, 2))


def test_the_exact_fraction_is_shown_when_it_is_short_and_exact():
    worm = 1 - Fraction(5, 6) ** 8  # notebook 1: at least one worm in 8 dice
    assert CHANCE.exact_text(worm) == f"{percent_text(worm)} ({worm.numerator}/{worm.denominator})"
    assert "/" not in CHANCE.exact_text(float(worm))  # a float is no exact fraction
    long = Fraction(1, 3 ** 40)
    assert len(str(long.denominator)) > MAX_FRACTION_DIGITS
    assert "/" not in CHANCE.exact_text(long)
    assert CHANCE.exact_text(long) != "0.0 %"  # a tiny chance never reads as 0
    assert CHANCE.exact_text(Fraction(1)) == "100.0 %"


def test_a_number_is_scored_in_its_unit():
    q = Question("number", low=0, high=5, unit="worms", digits=3)
    s = q.score("1", Fraction(4, 3))
    assert s.exact == "4/3 = 1.333 worms"
    assert s.text == "You said 1 worm; exact 4/3 = 1.333 worms: 0.333 worms low."
    assert q.score("1.5", 1.3059).exact == "1.306 worms"
    whole = Question("number", low=21, high=36, whole_only=True)
    assert whole.score("25", 25).text.endswith("exactly right.") and whole.score("25", 25).right
    assert whole.score("23", 25).off == -2 and whole.score("23", 25).text.endswith("2 low.")


def test_a_choice_is_scored_right_or_not():
    q = Question("choice", choices=("stop", "roll"))
    assert q.score("roll", "roll").right and q.score("roll", "roll").text.endswith("right.")
    wrong = q.score("stop", "roll")
    assert not wrong.right and wrong.off is None and "not this time" in wrong.text


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"kind": "guess"}, "kind must be one of chance, number, choice"),
    ({"kind": "number"}, "needs low and high"),
    ({"kind": "number", "low": 5, "high": 5}, "low must be below high"),
    ({"kind": "number", "low": "a", "high": 5}, "low must be a number"),
    ({"kind": "choice"}, "choices must be 2 to 12 different texts"),
    ({"kind": "choice", "choices": ("a", "a")}, "choices must be 2 to 12 different texts"),
    ({"kind": "choice", "choices": ("a", "b"), "unit": "x"}, "give choices only"),
    ({"kind": "chance", "low": 0}, "a chance is always from 0 to 100"),
    ({"kind": "chance", "choices": ("a", "b")}, "choices are only for kind='choice'"),
    ({"digits": -1}, "digits"),
])
def test_a_question_that_is_not_one_is_refused(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        Question(**kwargs)


def test_an_exact_answer_that_does_not_fit_the_question_is_refused():
    with pytest.raises(ValueError, match="from 0 to 1"):
        CHANCE.answer(Fraction(3, 2))
    with pytest.raises(ValueError, match="finite"):
        CHANCE.answer(float("nan"))
    with pytest.raises(ValueError, match="one of the choices"):
        Question("choice", choices=("stop", "roll")).answer("wait")


# ----- the widget -------------------------------------------------------------------------------


def shown(widget: w.Widget) -> bool:
    return widget.layout.display != "none"


def worms_in_20(rng: np.random.Generator) -> str:
    """A lesson's experiment: 20 first rolls of 8 dice, how many showed a worm."""
    hits = sum(sample_roll(8, rng)[WORM - 1] > 0 for _ in range(20))
    return f"{hits} of 20 rolls showed a worm"


def test_without_an_experiment_the_answer_opens_at_the_lock():
    p = Predict("How likely?", SEVEN_EIGHTEENTHS)
    assert not shown(p.answer_html) and p.answer_html.value == ""
    assert p.lock_button.disabled  # nothing to lock yet
    p.set_prediction("30")
    assert "Your prediction: <b>30 %</b>" in p.reading.value and not p.lock_button.disabled
    assert p.lock() and p.revealed
    assert p.reading.value == "<div>Your locked prediction: <b>30 %</b></div>"  # said in full
    assert p.answer_text.startswith(CHANCE.score("30", SEVEN_EIGHTEENTHS).text)
    assert shown(p.answer_html) and p.input.disabled and p.lock_button.disabled


def test_the_experiment_and_the_answer_stay_hidden_until_the_lock():
    calls = []

    def exact() -> Fraction:
        calls.append(1)
        return 1 - Fraction(5, 6) ** 8

    p = Predict("At least one worm in 8 dice?", exact, run=worms_in_20, seed=3,
                run_label="Roll 8 dice 20 times")
    assert not shown(p.experiment_box) and not shown(p.reveal_button)
    assert p.run_once() is None and p.results == []  # the experiment waits for the lock
    assert "Lock your prediction first" in status_text(p.status)
    assert p.reveal() is None and not calls and p.answer_html.value == ""
    assert "1288991" not in repr(p)  # the exact answer is nowhere in the page yet
    p.set_prediction("70 %")
    p.lock()
    assert shown(p.experiment_box) and shown(p.reveal_button) and not p.revealed
    assert not calls  # worked out only when asked for
    s = p.reveal()
    assert calls == [1] and s is not None and "1288991/1679616" in p.answer_text
    assert not shown(p.reveal_button)


def test_the_experiment_replays_its_seed():
    p = Predict("At least one worm?", Fraction(1, 2), run=worms_in_20, seed=5)
    p.set_prediction("50")
    p.lock()
    lines = [p.run_once() for _ in range(3)]
    rng = make_rng(5)
    assert lines == [worms_in_20(rng) for _ in range(3)]
    assert p.results == lines[::-1]  # newest first
    assert lines[0] in p.results_html.value
    p.seed_box.set_seed(5)  # the same seed again: the same results again
    assert p.results == [] and p.run_once() == lines[0]
    p.seed_box.set_seed(6)
    assert p.run_once() == worms_in_20(make_rng(6))


def test_on_a_dashboard_each_viewer_gets_a_seed_unless_pinned(monkeypatch):
    monkeypatch.setenv(DASHBOARD_ENV, "/")
    pinned = Predict("Q?", Fraction(1, 2), run=worms_in_20, seed=7, pin_seed=True)
    assert pinned.seed_box.seed == 7 and "pinned" in pinned.seed_box.note_text
    seeds = {Predict("Q?", Fraction(1, 2), run=worms_in_20, seed=7).seed_box.seed for _ in range(4)}
    assert len(seeds) > 1


def test_bad_input_is_said_in_the_widget_and_nothing_is_locked():
    p = Predict("How likely?", SEVEN_EIGHTEENTHS)
    assert not p.set_prediction("150")
    assert "Not a prediction yet" in p.reading.value and "from 0 to 100" in p.reading.value
    assert p.lock_button.disabled  # a click cannot lock it
    assert not p.lock() and not p.locked and not p.revealed  # nor can a call
    assert "Not allowed:" in status_text(p.status) and "from 0 to 100" in status_text(p.status)
    p.input.value = "lots"  # what the browser sends as the student types
    assert "is not a number" in p.reading.value and p.lock_button.disabled
    p.input.value = ""
    assert p.reading.value == "" and p.lock_button.disabled
    p.input.value = "40"
    assert not p.lock_button.disabled
    assert p.lock() and p.prediction == Fraction(2, 5)
    assert not p.set_prediction("20") and p.prediction == Fraction(2, 5)  # locked stays locked


def test_a_choice_widget_uses_radio_buttons():
    p = Predict("Stop or roll?", "roll", kind="choice", choices=["stop", "roll"],
                explain="Rolling is worth 6811/2592 worms on average.")
    assert isinstance(p.input, w.RadioButtons) and p.input.value is None
    assert p.lock_button.disabled
    assert not p.lock() and "pick one first" in status_text(p.status)
    assert not p.set_prediction("wait") and p.input.value is None
    p.set_prediction("stop")
    p.lock()
    assert "not this time" in p.answer_text and "6811/2592" in p.answer_text
    p.again()
    assert not p.locked and p.answer_html.value == "" and not shown(p.answer_html)
    assert "your last prediction was stop" in status_text(p.status)
    p.set_prediction("roll")
    p.lock()
    assert p.score.right and "hk-right" in p.answer_html.value


def test_a_widget_experiment_is_shown_only_after_the_lock():
    tray = DiceTray(seed=1, show_advice=False, show_chart=False, pool=False)
    p = Predict("How many worms in your first roll?", Fraction(4, 3), kind="number", low=0,
                high=8, digits=2, experiment=tray)
    assert tray in p.experiment_box.children and not shown(p.experiment_box)
    p.set_prediction("2")
    p.lock()
    assert shown(p.experiment_box) and not p.revealed
    assert p.reveal().text == "You said 2; exact 4/3 = 1.33: 0.67 high."


def controls(root: w.Widget):
    """Every visible descendant widget."""
    stack = [root]
    while stack:
        x = stack.pop()
        if getattr(x.layout, "display", None) == "none":
            continue
        yield x
        stack.extend(getattr(x, "children", ()))


def test_every_control_has_words_and_the_text_is_projector_sized():
    p = Predict("Q?", Fraction(1, 2), run=worms_in_20, seed=1)
    for step in (lambda: None, lambda: p.set_prediction("20"), p.lock, p.reveal):
        step()
        for c in controls(p):
            if isinstance(c, w.Button | w.Text | w.RadioButtons):
                assert c.description and c.tooltip, c
    assert ROOT_CLASS in p._dom_classes
    styles = " ".join(c.value for c in p.children if isinstance(c, w.HTML) and "<style>" in c.value)
    sizes = [int(x) for x in re.findall(r"font-size:\s*(\d+)px", styles)]
    assert sizes and min(sizes) >= 16 and FONT_PX >= 16
    for ink, paper in (("#1A1A1A", "#F3F7FC"), ("#1B5E20", "#F3F7FC")):  # the answer box
        assert ink in styles and paper in styles and contrast(ink, paper) >= 4.5


def test_an_answer_function_that_fails_is_said_not_raised():
    p = Predict("Q?", lambda: Fraction(3, 2))
    p.set_prediction("10")
    p.lock()
    assert not p.revealed and "could not be worked out" in status_text(p.status)


def test_an_experiment_that_refuses_or_gives_no_text_is_said_not_raised():
    def refuses(_rng):
        raise ValueError("no dice left")

    p = Predict("Q?", Fraction(1, 2), run=refuses, seed=1)
    p.set_prediction("10")
    p.lock()
    assert p.run_once() is None and "no dice left" in status_text(p.status)
    q = Predict("Q?", Fraction(1, 2), run=lambda rng: 3, seed=1)
    q.set_prediction("10")
    q.lock()
    assert q.run_once() is None and "not a line of text" in status_text(q.status)


PREDICT = {"prompt": "Q?", "answer": Fraction(1, 3), "kind": "chance", "unit": "", "digits": 1,
           "whole_only": False, "run": None, "run_label": "Run", "experiment": None,
           "explain": "", "seed": None, "pin_seed": False, "trial": None, "trials": 20,
           "event": "happened"}
NUMBER = {**PREDICT, "kind": "number", "low": 0, "high": 10, "answer": 5}


@pytest.mark.parametrize("name", list(PREDICT))
@FEW
@given(x=junk())
@example(x=None)
@example(x=1.5)
@example(x=-1)
@example(x="x")
@example(x=np.int64(1))
def test_predict_refuses_bad_arguments_with_value_error(name: str, x: Any):
    only_value_error(Predict, **{**PREDICT, name: x})


@pytest.mark.parametrize("name", ["low", "high", "choices"])
@FEW
@given(x=junk())
@example(x=float("nan"))
@example(x=["a", 1])
def test_number_and_choice_arguments_refuse_with_value_error(name: str, x: Any):
    only_value_error(Predict, **{**NUMBER, name: x})
    only_value_error(Predict, **{**PREDICT, "kind": "choice", "answer": "a", name: x})


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"prompt": ""}, "prompt must be the question"),
    ({"answer": Fraction(3, 2)}, "from 0 to 1"),
    ({"seed": 3}, "seed is for the experiment: give run= or trial= too"),
    ({"run": 3}, "run must be a function"),
    ({"experiment": "tray"}, "experiment must be a widget"),
    ({"pin_seed": 1}, "pin_seed must be True or False"),
    ({"kind": "choice", "choices": ("a", "b"), "answer": "c"}, "one of the choices (a, b)"),
])
def test_predict_says_what_is_allowed(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        Predict(**{"prompt": "Q?", "answer": Fraction(1, 3), **kwargs})


def one_first_roll(rng: np.random.Generator) -> bool:
    """One try: a first roll of 8 dice shows at least one worm."""
    return bool(sample_roll(8, rng)[WORM - 1] > 0)


def test_a_trial_is_counted_press_after_press_and_restarts_with_the_seed():
    p = Predict("At least one worm in 8 dice?", 1 - Fraction(5, 6) ** 8, trial=one_first_roll,
                trials=10, event="showed a worm", seed=2)
    assert p.run_button.description == "Try it 10 times"
    assert "hk-predict-run" in p.run_button._dom_classes and "hk-predict" in p._dom_classes
    p.set_prediction("80")
    p.lock()
    rng = make_rng(2)
    hits = [sum(one_first_roll(rng) for _ in range(10)) for _ in range(2)]
    first, second = p.run_once(), p.run_once()
    assert first.startswith(f"{hits[0]} of 10 showed a worm; so far {hits[0]} of 10 (")
    assert second.startswith(f"{hits[1]} of 10 showed a worm; so far {sum(hits)} of 20 (")
    assert f"({percent_text(Fraction(sum(hits), 20))})" in second
    p.reveal()
    assert f"Your experiment: {sum(hits)} of 20" in p.answer_text
    p.seed_box.set_seed(2)
    assert p.tally.tries == 0 and p.run_once() == first


def test_a_trial_that_says_neither_yes_nor_no_is_said_not_raised():
    p = Predict("Q?", Fraction(1, 2), trial=lambda rng: 1, seed=1)
    p.set_prediction("50")
    p.lock()
    assert p.run_once() is None and "yes or no" in status_text(p.status)
    assert p.tally.tries == 0


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"trial": one_first_roll, "run": worms_in_20}, "not both"),
    ({"trial": one_first_roll, "kind": "number", "low": 0, "high": 1, "answer": 1},
     "goes with kind='chance'"),
    ({"trial": one_first_roll, "trials": 0}, "trials (tries per press) must be from 1"),
    ({"trial": one_first_roll, "event": ""}, "event must be a few words"),
    ({"trial": 5}, "trial must be a function"),
])
def test_a_trial_that_is_not_one_is_refused(kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        Predict(**{"prompt": "Q?", "answer": Fraction(1, 3), **kwargs})


@given(typed=st.one_of(st.text(max_size=30), junk()))
@settings(max_examples=80, deadline=None, derandomize=True)
@example(typed="1e5")
@example(typed="٣٠")  # digits of another script
@example(typed="nan")
@example(typed="1//2")
def test_reading_anything_is_a_prediction_or_a_value_error(typed):
    for question in (CHANCE, Question("number", low=21, high=36, whole_only=True),
                     Question("choice", choices=("stop", "roll"))):
        value = only_value_error(question.parse, typed)
        if value is not None and question.kind == "chance":
            assert 0 <= value <= 1
        if value is not None and question.kind == "number":
            assert 21 <= value <= 36 and value.denominator == 1


@given(said=st.fractions(0, 10, max_denominator=100), exact=st.fractions(0, 10))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_a_number_score_says_how_far_off_and_which_way(said, exact):
    q = Question("number", low=0, high=10, unit="worms", digits=2)
    s = q.score(said, exact)
    assert s.off == said - exact and s.right == (said == exact)
    if said != exact:
        assert ("high" in s.text) == (said > exact) and ("low" in s.text) == (said < exact)


def test_the_parts_after_the_lock_are_made_then_in_their_place():
    p = Predict("Q?", Fraction(1, 2), run=worms_in_20, seed=2)
    assert len(p.children) == 6  # question, box and Lock, reading, status, two styles
    p.again()  # nothing to hide yet: still nothing made
    assert len(p.children) == 6 and p.answer_text == ""
    p.set_prediction("20")
    p.lock()
    assert p.children[4:8] == (p.experiment_box, p.reveal_button, p.answer_html, p.again_button)
    assert p.experiment_box.children[:2] == (p.seed_box, p.run_button)
    assert "hk-predict-run" in p.run_button._dom_classes
    assert shown(p.experiment_box) and shown(p.again_button) and not shown(p.answer_html)
    first = p.children
    p.reveal()
    p.again()
    p.set_prediction("30")
    p.lock()
    assert p.children == first  # made once


# ----- the box's key: the lesson's answer cells shown with the answer ---------------------------


def test_a_keyed_box_marks_the_page_only_while_its_answer_is_shown():
    p = Predict("At least one worm in 8 dice?", 1 - Fraction(5, 6) ** 8, run=worms_in_20,
                seed=3, key="eight-dice-worm")
    assert p.key == "eight-dice-worm"
    assert "hk-revealed-eight-dice-worm" not in p._dom_classes
    p.set_prediction("70")
    p.lock()
    assert "hk-revealed-eight-dice-worm" not in p._dom_classes  # locked, not yet revealed
    p.reveal()
    assert "hk-revealed-eight-dice-worm" in p._dom_classes
    p.again()  # a new prediction hides the answer cells again
    assert "hk-revealed-eight-dice-worm" not in p._dom_classes


@pytest.mark.parametrize("key", ["", "Two", "two_dice", "-two", "a" * 41, 3, "two dice"])
def test_a_key_that_is_not_a_name_is_refused(key):
    with pytest.raises(ValueError, match="key must be 1 to 40 lower-case letters"):
        Predict("How likely?", Fraction(1, 2), key=key)
