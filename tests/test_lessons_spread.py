"""Lesson 10 (spread, risk and waiting) says what the engine says.

Every number its text states is recomputed here from the engine (henkit.henpen.spread, the
solver, the card table) and must stand in the text; every exercise's answer code is run and
must print what the answer says it prints; every prediction widget's exact answer is the
engine's, and its experiment lands near it; no answer shows outside its toggle; the students'
text names no code.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from henkit.henpen.dice import roll_outcomes
from henkit.henpen.spread import (
    chance_at_least,
    draws_until,
    geometric,
    policy_worms,
    roll_total_distribution,
    spread_of,
    sum_of_turns,
    waiting_spread,
)
from henkit.hens.cards import card, deck_cards

from . import lesson_text
from .lesson_text import fold, outside_answers, source

LESSON = "10_spread_risk_and_waiting"
CAREFUL, BOLD, MOST = "best chance of 21 or more", "best chance of 29 or more", "most worms"


def cells() -> tuple[dict, ...]:
    """The notebook's cells."""
    return lesson_text.cells(LESSON)


def markdown() -> str:
    """All the markdown of the lesson, folded."""
    return lesson_text.markdown(LESSON)


def outputs() -> str:
    """Everything the code cells' outputs show (a widget's record aside)."""
    return lesson_text.outputs(LESSON)


def says(*needles: str) -> None:
    """The lesson's text holds every needle."""
    text = markdown()
    for needle in needles:
        assert fold(needle) in text, f"lesson 10 does not say {needle!r}"


def pct(x: object, digits: int = 1) -> str:
    """A chance as the lesson writes it: '92.5 %'."""
    return f"{100 * float(x):.{digits}f} %"


@cache
def worms() -> dict[str, dict[int, float]]:
    """Worms per turn of the lesson's three ways of playing (the solver, in decimals)."""
    return policy_worms([CAREFUL, BOLD, MOST])


# -- the text ----------------------------------------------------------------------------------


def test_one_rolls_total():
    totals = roll_total_distribution(8)
    s = spread_of(totals)
    mode = max(totals, key=totals.get)
    m, sd = float(s.mean), s.sd
    within = [sum(p for t, p in totals.items() if abs(t - s.mean) <= k * sd) for k in (1, 2)]
    inside = [t for t in totals if abs(t - s.mean) <= sd]
    says(f"{len(roll_outcomes(8)):,} counts", f"from 8 (eight 1s) to {max(totals)}",
         f"the likeliest total is {mode}", f"{pct(chance_at_least(totals, 21))} of rolls",
         f"**{s.mean}** = {m:.2f}", f"about {sd:.1f} points", f"{pct(within[0])} of rolls are within one SD",
         f"(totals {min(inside)} to {max(inside)})", f"{pct(within[1])} within two")
    assert (min(totals), max(totals)) == (8, 40)


def test_means_and_variances_add():
    one = spread_of(roll_total_distribution(1))
    eight = spread_of(roll_total_distribution(8))
    assert (one.mean, one.variance) == (Fraction(10, 3), Fraction(20, 9))
    says(f"mean {one.mean} and variance {one.variance}", f"8 &times; {one.mean} = {eight.mean}",
         f"8 &times; {one.variance} = {eight.variance}", f"&radic;8 &asymp; {math.sqrt(8):.2f}",
         f"The SD of one die is about {one.sd:.2f} points", f"&radic;2 &asymp; {math.sqrt(2):.2f}")
    sixteen = spread_of(roll_total_distribution(16))
    assert sixteen.sd == pytest.approx(math.sqrt(2) * eight.sd)


def test_risk_same_mean_different_spread():
    w = worms()
    c, b, m = (spread_of(w[k]) for k in (CAREFUL, BOLD, MOST))
    says(f"{c.mean:.2f} and {b.mean:.2f} worms per turn", f"SD {b.sd:.2f} against {c.sd:.2f}",
         f"fails in only {pct(w[CAREFUL][0])}", f"bold fails in {pct(w[BOLD][0])}",
         f"3 or more worms in {pct(chance_at_least(w[BOLD], 3))}", f"on average ({m.mean:.2f})")
    assert abs(c.mean - b.mean) < 0.05 and 1.9 < b.sd / c.sd < 2.1  # "about twice the spread"
    assert m.mean > max(c.mean, b.mean) and c.sd < m.sd < b.sd  # "a spread in between"


def test_ahead_or_behind():
    w = worms()
    careful, bold = sum_of_turns(w[CAREFUL], 3), sum_of_turns(w[BOLD], 3)
    says(f"Needing 3 worms, careful makes it {pct(chance_at_least(careful, 3))} of the time, "
         f"bold only {pct(chance_at_least(bold, 3))}",
         f"Needing 6 worms, careful makes it only {pct(chance_at_least(careful, 6))} of the time, "
         f"bold {pct(chance_at_least(bold, 6))}", "The lines cross between 4 and 5 worms")
    for k in range(1, 10):
        careful_better = chance_at_least(careful, k) > chance_at_least(bold, k)
        assert careful_better == (k <= 4), k


def test_waiting_times():
    p = Fraction(1, 6)
    s = waiting_spread(p)
    assert s.mean == 6 and s.variance == 30
    says("On average **6 rolls**", f"(SD {s.sd:.2f})", f"{pct((1 - p) ** 10)} of cases you need more than 10",
         "= (5/6)<sup>3</sup> = P(wait > 3)")
    assert sum(geometric(p, n) for n in range(1, 11)) == 1 - (1 - p) ** 10
    w = worms()
    for name in (MOST, BOLD):
        big = chance_at_least(w[name], 3)
        says(f"{float(big):.4f}", f"{1 / float(big):.2f} turns")


def test_waiting_for_a_card():
    deck = deck_cards()
    n = len(deck)
    assert n == 72 and deck.count(card("Ce1")) == 1 and deck.count(card("Pa1")) == 2
    one, two = spread_of(draws_until(n, 1)), spread_of(draws_until(n, 2))
    says(f"full deck of {n} cards", f"P(wait = n) = 1/{n} for every n from 1 to {n}",
         f"({n} + 1)/2 = **{float(one.mean):g}** draws", f"with mean **{n}** draws",
         f"{float(two.mean):.2f} draws on average")
    assert waiting_spread(Fraction(1, n)).mean == n and float(one.mean) == pytest.approx(n / 2, abs=0.5)
    # "each miss makes the next draw a little likelier to hit (1/72, then 1/71, ...)"
    law = draws_until(n)
    says(f"(1/{n}, then 1/{n - 1}, ...)")
    assert [law[k] / (1 - sum(law[j] for j in range(1, k))) for k in (1, 2)] == [Fraction(1, n), Fraction(1, n - 1)]


# -- the answers -------------------------------------------------------------------------------


def answer_blocks() -> list[tuple[str, str, str]]:
    """(exercise text, answer code, what the answer says it prints) of every exercise."""
    found = []
    for c in cells():
        text = source(c)
        if c["cell_type"] != "markdown" or "<summary>Answer</summary>" not in text:
            continue
        code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
        printed = re.search(r"prints\s*```\n(.*?)```", text, re.DOTALL)
        assert code and printed, f"an answer without code and what it prints: {text[:80]!r}"
        found.append((text, code.group(1), printed.group(1)))
    return found


@cache
def namespace() -> dict:
    """The lesson's imports and the names its answers use (totals), as the notebook has them."""
    ns: dict = {}
    first_code = next(c for c in cells() if c["cell_type"] == "code")
    exec(source(first_code), ns)  # noqa: S102 - the lesson's own imports
    ns["totals"] = roll_total_distribution(8)
    return ns


def test_there_are_five_exercises_each_with_its_answer_in_a_toggle():
    blocks = answer_blocks()
    assert [re.search(r"\*\*(\d)\.\*\*", t).group(1) for t, _, _ in blocks] == list("12345")


@pytest.mark.parametrize("number", range(5))
def test_each_answer_prints_what_it_says(number):
    _text, code, printed = answer_blocks()[number]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, dict(namespace()))  # noqa: S102 - the lesson's own answer
    assert out.getvalue().strip() == printed.strip()


def test_answers_words_follow_their_numbers():
    texts = [" ".join(t.split()) for t, _, _ in answer_blocks()]
    ten = spread_of(roll_total_distribution(10))
    assert f"&radic;10 &asymp; {math.sqrt(10):.1f}" in texts[0] and f"&asymp; {ten.sd:.2f}" in texts[0]
    assert f"10 &times; 10/3 = {ten.mean} and 10 &times; 20/9 = {ten.variance}" in texts[0]
    totals = roll_total_distribution(8)
    assert Fraction(1, 4) < chance_at_least(totals, 30) < Fraction(1, 3)  # "just over one in four"
    s = spread_of(totals)
    assert s.mean < 30 < s.mean + Fraction(s.sd)  # "a little less than one SD above the mean"
    pair = policy_worms(["stop at 22", "best chance of 33 or more"])
    a, b = (spread_of(d) for d in pair.values())
    assert round(a.mean, 3) == round(b.mean, 3) and b.sd > 1.5 * a.sd  # "equal to 3 decimals"
    ratio = pair["best chance of 33 or more"][4] / pair["stop at 22"][4]
    assert f"about {round(ratio)} times larger" in texts[2]
    assert 4 < 1 / (Fraction(5, 6) ** 8) < 4.5  # "a little over 4 rolls"


def shows(number: str, text: str) -> bool:
    """True when `number` ('1/42', '5.96') stands in `text` as a whole number (not in 25.963)."""
    return re.search(rf"(?<![\d./]){re.escape(number)}(?!\d|[./]\d)", text) is not None


def test_no_answer_shows_outside_its_toggle():
    shown = outputs()
    for _text, _code, printed in answer_blocks():
        for line in printed.strip().splitlines():
            for number in re.findall(r"\d+/\d+|\d+\.\d+", line):
                assert not shows(number, shown), f"the answer's {number} shows in an output"
    # The prediction widgets' answers are worked out only when asked: none is in an output.
    for exact in (f"{spread_of(roll_total_distribution(16)).sd:.2f}", "1/42", "2.4"):
        assert not shows(exact, shown), exact
    assert shows("5.96", "SD 5.96 points") and not shows("5.96", "average 5.963")


def test_students_text_names_no_code():
    prose = outside_answers(" ".join(source(c) for c in cells() if c["cell_type"] == "markdown"))
    for word in ("ValueError", "immutable", "0-based", "Fraction(", "np.", "henkit."):
        assert word not in prose, word
    assert not re.findall(r"`[^`]+`", prose), "the students' text shows code"
    assert not re.findall(r"\b\w+_\w+\(", prose)


# -- the prediction widgets --------------------------------------------------------------------


@pytest.fixture(scope="module")
def predictions():
    """Every Predict the lesson makes: its prompt, exact answer and experiment (not shown)."""
    made = []

    def record(prompt, answer, **kw):
        made.append((prompt, answer() if callable(answer) else answer, kw))

    ns = dict(namespace())
    ns["Predict"] = record
    for c in cells():
        if c["cell_type"] == "code" and "Predict(" in source(c):
            exec(source(c), ns)  # noqa: S102 - the lesson's own cell
    return made


def test_a_prediction_comes_before_each_experiment(predictions):
    assert len(predictions) == 5
    for prompt, _answer, kw in predictions:
        assert kw.get("run") is not None and kw.get("seed") is not None, prompt
    # Each Predict cell comes before the section's exact answer: the code that prints it.
    order = [i for i, c in enumerate(cells()) if c["cell_type"] == "code" and "Predict(" in source(c)]
    exact_cells = [next(i for i, c in enumerate(cells()) if c["cell_type"] == "code" and key in source(c))
                   for key in ("likeliest", "simulate_roll_totals(8, 10_000", "in_three =",
                               "mean wait:", "deck = deck_cards()")]
    assert all(p < e for p, e in zip(order, exact_cells, strict=True))


def test_the_widgets_exact_answers_are_the_engines(predictions):
    answers = [a for _p, a, _kw in predictions]
    assert answers[0] == Fraction(80, 3)
    assert answers[1] == pytest.approx(math.sqrt(Fraction(320, 9)))
    assert answers[2] == "bold"
    assert answers[3] == 6
    assert answers[4] == Fraction(1, 42)
    # The card: among the 42 places after 30, every one alike.
    law = draws_until(72)
    assert law[31] / (1 - sum(law[n] for n in range(1, 31))) == Fraction(1, 42)


def test_the_experiments_land_near_the_exact_answers(predictions):
    lines = [kw["run"](np.random.default_rng(7)) for _p, _a, kw in predictions]
    numbers = [[float(x) for x in re.findall(r"\d+\.\d+", line)] for line in lines]
    assert abs(numbers[0][0] - 80 / 3) < 4 * 4.2164 / 10  # 100 rolls: 4 standard errors
    assert abs(numbers[1][1] - math.sqrt(320 / 9)) < 0.6
    careful, bold = numbers[2]
    assert bold > careful
    assert abs(numbers[3][0] - 6) < 4 * math.sqrt(30) / 10
    assert numbers[4][0] < 10  # percent: the exact chance is 2.4 %


def test_the_experiments_are_the_sizes_the_text_says():
    code = "\n".join(source(c) for c in cells() if c["cell_type"] == "code")
    for said, done in [("each press rolls 8 dice 100 times", "simulate_roll_totals(8, 100, rng)"),
                       ("rolls 8 dice 1,000 times", "simulate_roll_totals(8, 1000, seed)"),
                       ("rolls 16 dice 1,000 times", "simulate_roll_totals(16, 1000, rng)"),
                       ("checks the 8 dice with 10,000 rolls", "simulate_roll_totals(8, 10_000, seed)"),
                       ("plays 1,000 sets of 3 turns", "simulate_turns(policy, 3000, rng)"),
                       ("plays 20,000 seeded sets of 3 turns", "solve_turn(goal)), 60_000, seed)"),
                       ("120,000 seeded rolls of one die", "simulate_face_counts(1, WORM, 120_000, seed)")]:
        says(said)
        assert done in code, done


def test_the_teacher_page_states_the_engines_numbers():
    page = fold((lesson_text.NOTEBOOKS.parent / "docs" / "teacher" / "10_spread_risk_and_waiting.md")
                .read_text(encoding="utf-8"))
    totals = roll_total_distribution(8)
    s = spread_of(totals)
    w = worms()
    c, b = spread_of(w[CAREFUL]), spread_of(w[BOLD])
    careful, bold = sum_of_turns(w[CAREFUL], 3), sum_of_turns(w[BOLD], 3)
    within = sum(p for t, p in totals.items() if abs(t - s.mean) <= s.sd)
    big = chance_at_least(w[MOST], 3)
    for needle in (f"80/3, 160/9, about {s.sd:.2f} points", f"{pct(within)} of rolls",
                   f"1.21 worms, SD {c.sd:.2f}", f"{b.mean:.2f} worms, SD {b.sd:.2f}",
                   f"careful {pct(chance_at_least(careful, 3))} vs bold {pct(chance_at_least(bold, 3))}",
                   f"6 worms: {pct(chance_at_least(careful, 6))} vs {pct(chance_at_least(bold, 6))}",
                   f"bold fails in {pct(w[BOLD][0])} of turns and careful in {pct(w[CAREFUL][0])}",
                   f"SD {waiting_spread(Fraction(1, 6)).sd:.2f}", f"{pct(Fraction(5, 6) ** 10)} of waits",
                   f"{1 / float(big):.2f} turns playing for most worms",
                   f"{float(spread_of(draws_until(72)).mean):g} draws on average, not 72"):
        assert fold(needle) in page, needle
    assert f"{c.mean:.2f}" == "1.21"
