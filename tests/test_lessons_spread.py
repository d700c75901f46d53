"""Lesson 10 (spread, risk and waiting) says what the engine says, as a student meets it.

Every number its text states is recomputed here from the engine (henkit.henpen.spread, the
solver, the card table) and must stand in the text; the ways of playing a turn are the ones the
text states (careful and bold play on for the most worms once their total is out of reach); every
exercise's worked answer states what its explorer cell prints; every prediction box has its key,
its exact answer is the engine's and its experiment lands near it; no box's answer is in the text
a student sees before the lock.
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

from henkit.henpen.odds import TurnReward, solve_turn
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
from .lesson_text import fold, source
from .test_lessons_for_students import output_text, plain, tags

LESSON = "10_spread_risk_and_waiting"
CAREFUL = "best chance of 21 or more, then most worms"
BOLD = "best chance of 29 or more, then most worms"
MOST = "most worms"
THIRTY_THREE = "best chance of 33 or more, then most worms"


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


def further() -> int:
    """The index of the "Going further" cell."""
    return next(i for i, c in enumerate(cells()) if "going-further" in tags(c))


def before_any_lock() -> str:
    """What a student reads before locking any box: the core path's cells that no box hides
    (markdown outside the worked answers, and the outputs of cells that are not explorer)."""
    parts = []
    for c in cells()[:further()]:
        if any(t == "explorer" or t.startswith("answer:") for t in tags(c)):
            continue
        if c["cell_type"] == "markdown":
            parts.append(plain(re.sub(r"<details>.*?</details>", " ", source(c), flags=re.DOTALL)))
        else:
            parts.append(output_text(c))
    return fold(" ".join(parts))


# -- the text ----------------------------------------------------------------------------------


def test_one_rolls_total():
    totals = roll_total_distribution(8)
    s = spread_of(totals)
    m, sd = float(s.mean), s.sd
    within = [sum(p for t, p in totals.items() if abs(t - s.mean) <= k * sd) for k in (1, 2)]
    inside = [t for t in totals if abs(t - s.mean) <= sd]
    says(f"{pct(chance_at_least(totals, 21))} of rolls", f"**{s.mean}** = {m:.2f}",
         f"about {sd:.1f} points", f"{pct(within[0])} of rolls are within one SD",
         f"(totals {min(inside)} to {max(inside)})", f"{pct(within[1])} within two")
    shown = outputs()
    mode = max(totals, key=totals.get)
    for line in (f"totals from {min(totals)} to {max(totals)}",
                 f"the likeliest total: {mode}, chance {totals[mode]}", f"mean     = {s.mean}",
                 f"variance = {s.variance}", f"SD       = {sd:.4f}"):
        assert line in shown, line
    assert (min(totals), max(totals)) == (8, 40)
    assert min(t for t in totals if t >= 21) == 21  # "21 or more, the smallest serving"


def test_means_and_variances_add():
    one = spread_of(roll_total_distribution(1))
    eight = spread_of(roll_total_distribution(8))
    assert (one.mean, one.variance) == (Fraction(10, 3), Fraction(20, 9))
    says(f"mean {one.mean}, variance {one.variance}", f"8 &times; {one.mean} = {eight.mean}",
         f"8 &times; {one.variance} = {eight.variance}", f"&radic;8 &asymp; {math.sqrt(8):.2f}",
         f"The SD of one die is about {one.sd:.2f} points, that of 8 dice about {eight.sd:.2f}",
         f"&radic;2 &asymp; {math.sqrt(2):.2f}")
    sixteen = spread_of(roll_total_distribution(16))
    assert sixteen.sd == pytest.approx(math.sqrt(2) * eight.sd)
    says(f"about {sixteen.sd:.2f} points: not twice")


def test_the_ways_of_playing_are_the_ones_the_text_states():
    """Careful and bold play for their total and, once it is out of reach, for the most worms:
    the text says so, the table is computed so, and the rule changes the numbers (the solver
    playing for 29 alone stops with nothing once 29 is lost, and fails more often)."""
    says("Once careful or bold can no longer reach its total, it plays on for the most worms it "
         "can still win", "best chance of a total of 21 or more", "best chance of 29 or more")
    code = "\n".join(source(c) for c in cells() if c["cell_type"] == "code")
    assert f'"careful": "{CAREFUL}"' in code and f'"bold": "{BOLD}"' in code
    assert code.count("target_policy(21)") + code.count("target_policy(target)") >= 2
    alone = policy_worms(["best chance of 29 or more"])["best chance of 29 or more"]
    assert pct(alone[0]) != pct(worms()[BOLD][0])  # the stated rule is what the table shows
    says(f"bold in {pct(worms()[BOLD][0])}")


def test_risk_same_mean_different_spread():
    w = worms()
    c, b, m = (spread_of(w[k]) for k in (CAREFUL, BOLD, MOST))
    says(f"{c.mean:.2f} and {b.mean:.2f} worms per turn", f"SD {b.sd:.2f} against {c.sd:.2f}",
         f"careful fails in {pct(w[CAREFUL][0])}", f"bold in {pct(w[BOLD][0])}",
         f"3 or more worms in {pct(chance_at_least(w[BOLD], 3))}")
    assert abs(c.mean - b.mean) < 0.05 and 1.9 < b.sd / c.sd < 2.1  # "about twice the spread"
    assert m.mean > max(c.mean, b.mean)
    table = outputs()
    for name, key in (("careful", CAREFUL), ("bold", BOLD), ("most worms", MOST)):
        s = spread_of(w[key])
        row = f"{name:>14} {s.mean:>6.3f} {s.sd:>6.3f} {w[key][0]:>11.4f} {chance_at_least(w[key], 3):>12.4f}"
        assert row in table, row


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
    says("On average **6 rolls**", "mean **1/p**", f"(SD {s.sd:.2f})",
         f"{pct((1 - p) ** 10)} of cases you need more than 10", "= (5/6)<sup>3</sup> = P(wait > 3)")
    assert sum(geometric(p, n) for n in range(1, 11)) == 1 - (1 - p) ** 10
    w = worms()
    for name in (MOST, BOLD):
        big = chance_at_least(w[name], 3)
        says(f"{float(big):.4f}", f"{1 / float(big):.2f} turns")


def test_waiting_for_a_card():
    deck = deck_cards()
    n = len(deck)
    assert n == 72 and deck.count(card("Ce1")) == 1 and deck.count(card("Pa1")) == 2
    one = spread_of(draws_until(n, 1))
    says(f"full deck of {n} cards", f"P(wait = n) = 1/{n} for every n from 1 to {n}",
         f"({n} + 1)/2 = **{float(one.mean):g}** draws", f"with mean **{n}**",
         f"one of the {n - 30} cards left", f"1/{n - 30}, more than the 1/{n} of the first draw")
    assert waiting_spread(Fraction(1, n)).mean == n and float(one.mean) == pytest.approx(n / 2, abs=0.5)
    # "each miss makes the next draw a little likelier to hit (1/72, then 1/71, ...)"
    law = draws_until(n)
    says(f"(1/{n}, then 1/{n - 1}, ...)")
    assert [law[k] / (1 - sum(law[j] for j in range(1, k))) for k in (1, 2)] == [Fraction(1, n), Fraction(1, n - 1)]
    two = spread_of(draws_until(n, 2))
    assert f"mean wait {two.mean} = {float(two.mean):.2f} draws" in outputs()


# -- the exercises -----------------------------------------------------------------------------


def printed_text(cell: dict) -> str:
    """What a code cell printed, its stream's pieces joined as they came (a kernel may cut a
    line into several pieces)."""
    return "".join(source({"source": out["text"]}) for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream")


def exercises() -> list[tuple[str, str]]:
    """(exercise markdown with its worked answer, what the exercise's own cell prints)."""
    found, i = [], 0
    body = cells()
    while i < len(body):
        c = body[i]
        text = source(c)
        if c["cell_type"] == "markdown" and re.match(r"\*\*\d\.\*\*", text):
            question, printed = text, ""
            j = i + 1
            while j < len(body) and not (body[j]["cell_type"] == "markdown"
                                         and re.match(r"\*\*\d\.\*\*", source(body[j]))):
                if body[j]["cell_type"] == "code":
                    printed += printed_text(body[j])
                else:
                    question += "\n" + source(body[j])
                j += 1
            found.append((fold(question), printed))
            i = j
        else:
            i += 1
    return found


def test_there_are_five_exercises_each_with_its_answer_in_a_toggle_after_going_further():
    found = exercises()
    assert [re.match(r"\*\*(\d)\.\*\*", q).group(1) for q, _ in found] == list("12345")
    assert all("<details><summary>Answer</summary>" in q for q, _ in found)
    first = next(i for i, c in enumerate(cells()) if re.match(r"\*\*1\.\*\*", source(c)))
    assert first > further()


def run_explorer(number: int) -> str:
    """Run exercise `number`'s explorer cell again, in the lesson's names; what it prints."""
    ns: dict = {}
    for c in cells():
        first = "from henkit" in source(c) and "explorer" in tags(c)
        if c["cell_type"] == "code" and (first or source(c).startswith("totals = ")):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(source(c), ns)  # noqa: S102 - the lesson's own imports and totals
    starts = [i for i, c in enumerate(cells()) if re.match(r"\*\*\d\.\*\*", source(c))]
    start = starts[number - 1]
    end = starts[number] if number < len(starts) else len(cells())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for c in cells()[start:end]:
            if c["cell_type"] == "code":
                exec(source(c), ns)  # noqa: S102 - the lesson's own answer
    return out.getvalue()


@pytest.mark.parametrize("number", range(1, 6))
def test_each_exercise_cell_prints_what_its_saved_output_shows(number):
    """The cells that work each exercise out print, run again, what the notebook saved."""
    _question, printed = exercises()[number - 1]
    assert run_explorer(number).strip() == printed.strip()


def test_the_worked_answers_state_the_engines_numbers():
    q = [text for text, _ in exercises()]
    ten = spread_of(roll_total_distribution(10))
    assert f"10 &times; 10/3 = **{ten.mean}** and 10 &times; 20/9 = **{ten.variance}**" in q[0]
    assert f"&asymp; **{ten.sd:.2f}**" in q[0] and f"&radic;10 &asymp; {math.sqrt(10):.1f}" in q[0]
    totals = roll_total_distribution(8)
    at_30 = chance_at_least(totals, 30)
    s = spread_of(totals)
    assert f"{at_30} is" in q[1] or f"is {at_30}" in q[1]
    assert f"&asymp; **{float(at_30):.4f}**: just over one roll in four" in q[1]
    assert Fraction(1, 4) < at_30 < Fraction(1, 3)
    z = (30 - float(s.mean)) / s.sd
    assert f"&asymp; {z:.1f} SD above the mean: a little less than one SD" in q[1] and z < 1
    pair = policy_worms(["stop at 22", THIRTY_THREE])
    a, b = (spread_of(d) for d in pair.values())
    ratio = pair[THIRTY_THREE][4] / pair["stop at 22"][4]
    for needle in (f"**{pct(pair[THIRTY_THREE][4], 2)}**", f"about {round(ratio)} times as often",
                   f"({pct(pair['stop at 22'][4], 2)})", f"({b.mean:.2f} against {a.mean:.2f} worms)",
                   f"(SD {b.sd:.2f} against {a.sd:.2f})"):
        assert fold(needle) in q[2], needle
    assert b.mean > a.mean and pair[THIRTY_THREE][0] > pair["stop at 22"][0]  # "fails far more often"
    # The rule matters here: the solver playing for 33 alone (stopping with nothing once 33 is
    # lost) has the mean of "stop at 22" to 3 decimals, the old exercise's "equal means".
    alone = spread_of(policy_worms(["best chance of 33 or more"])["best chance of 33 or more"])
    assert abs(alone.mean - a.mean) < 0.001 < b.mean - a.mean
    p_none = Fraction(5, 6) ** 8
    assert f"{p_none} &asymp; {float(p_none):.4f}" in q[3] and f"&asymp; **{float(1 / p_none):.2f}**" in q[3]
    assert 4 < 1 / p_none < 4.5  # "a little over 4"
    assert f"2/{72 - 30} = **{Fraction(2, 72 - 30)}**" in q[4] and "(2/72 = 1/36)" in q[4]


def test_exercise_three_shows_its_table_to_students():
    """Exercise 3 is read from a table a student sees (not from an explorer cell)."""
    table_cell = next(c for c in cells() if c["cell_type"] == "code" and "stop at 22" in source(c))
    assert "explorer" not in tags(table_cell)
    pair = policy_worms(["stop at 22", THIRTY_THREE])
    s = spread_of(pair[THIRTY_THREE])
    assert f"{'33 or more':>18} {s.mean:>6.4f} {s.sd:>6.4f}" in output_text(table_cell)


# -- what a student sees before a lock -----------------------------------------------------------


def shows(number: str, text: str) -> bool:
    """True when `number` ('1/42', '5.96') stands in `text` as a whole number (not in 25.963)."""
    return re.search(rf"(?<![\d./]){re.escape(number)}(?!\d|[./]\d)", text) is not None


def test_no_box_gives_its_answer_before_the_lock():
    seen = before_any_lock()
    mean = spread_of(roll_total_distribution(8)).mean
    sd16 = spread_of(roll_total_distribution(16)).sd
    for form in (str(mean), f"{float(mean):.2f}", f"{sd16:.2f}", "1/42", "2.4 %", "0.024"):
        assert not shows(form, seen), form
    # The mean of a geometric wait is said after the box that asks for it, not above it.
    assert "1/p" not in seen and "mean 6" not in seen
    assert shows("5.96", "SD 5.96 points") and not shows("5.96", "average 5.963")


def test_the_exercises_answers_are_not_in_what_students_see_at_once():
    shown = " ".join(output_text(c) for c in cells() if "explorer" not in tags(c))
    for number in ("100/3", "200/9", "4.7140", "4.30", "1/21"):
        assert not shows(number, shown), number


# -- the prediction widgets --------------------------------------------------------------------


@pytest.fixture(scope="module")
def predictions():
    """Every Predict the lesson makes: its prompt, exact answer and options (not shown)."""
    made = []

    def record(prompt, answer, **kw):
        made.append((prompt, answer() if callable(answer) else answer, kw))

    ns: dict = {}
    exec(source(next(c for c in cells() if c["cell_type"] == "code")), ns)  # noqa: S102
    ns["Predict"] = record
    for c in cells():
        code = source(c)
        if c["cell_type"] == "code" and ("Predict(" in code or code.startswith("names = ")):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, ns)  # noqa: S102 - the lesson's own cell
    return made


def test_a_prediction_comes_before_each_experiment(predictions):
    assert [kw["key"] for _p, _a, kw in predictions] == [
        "mean-total", "sd-16", "need-six", "mean-wait", "next-cemani"]
    for prompt, _answer, kw in predictions:
        assert kw.get("run") is not None and kw.get("seed") is not None, prompt
    # Every cell that works a box's answer out stands after its box and waits for it.
    order = [i for i, c in enumerate(cells()) if c["cell_type"] == "code" and "Predict(" in source(c)]
    for key, marker in (("mean-total", "likeliest"), ("need-six", "in_three ="),
                        ("mean-wait", "mean wait:")):
        i = next(i for i, c in enumerate(cells()) if c["cell_type"] == "code" and marker in source(c))
        assert f"answer:{key}" in tags(cells()[i]), key
    box = dict(zip([kw["key"] for _p, _a, kw in predictions], order, strict=True))
    for i, c in enumerate(cells()):
        for t in tags(c):
            if t.startswith("answer:"):
                assert box[t[7:]] < i


def test_the_widgets_exact_answers_are_the_engines(predictions):
    answers = [a for _p, a, _kw in predictions]
    assert answers[0] == Fraction(80, 3)
    assert answers[1] == pytest.approx(math.sqrt(Fraction(320, 9)))
    assert answers[2] == "bold"
    w = worms()
    assert chance_at_least(sum_of_turns(w[BOLD], 3), 6) > chance_at_least(sum_of_turns(w[CAREFUL], 3), 6)
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
                       ("1,000 rolls of your own", "simulate_roll_totals(8, 1000, seed)"),
                       ("rolls 16 dice 1,000 times", "simulate_roll_totals(16, 1000, rng)"),
                       ("Ten thousand rolls of 8 dice", "simulate_roll_totals(8, 10_000, seed)"),
                       ("plays 1,000 sets of 3 turns", "simulate_turns(target_policy(target), 3000, rng)"),
                       ("20,000 seeded sets of 3 turns", "target_policy(target), 60_000, seed)"),
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
                   f"{c.mean:.2f} worms, SD {c.sd:.2f}", f"{b.mean:.2f} worms, SD {b.sd:.2f}",
                   f"careful {pct(chance_at_least(careful, 3))} vs bold {pct(chance_at_least(bold, 3))}",
                   f"6 worms: {pct(chance_at_least(careful, 6))} vs {pct(chance_at_least(bold, 6))}",
                   f"bold fails in {pct(w[BOLD][0])} of turns and careful in {pct(w[CAREFUL][0])}",
                   f"SD {waiting_spread(Fraction(1, 6)).sd:.2f}", f"{pct(Fraction(5, 6) ** 10)} of waits",
                   f"{1 / float(big):.2f} turns playing for most worms",
                   f"{float(spread_of(draws_until(72)).mean):g} draws on average, not 72"):
        assert fold(needle) in page, needle
    # The stated rule, and what the solver playing for its total alone did instead.
    solo = {t: solve_turn(TurnReward.at_least(t, 40)).end_distribution() for t in (29, 33)}
    low = {t: sum(e.at_total[:21]) for t, e in solo.items()}
    pair = policy_worms(["stop at 22", THIRTY_THREE])
    a, b = (spread_of(d) for d in pair.values())
    alone = spread_of(policy_worms(["best chance of 33 or more"])["best chance of 33 or more"])
    for needle in ("plays on for the most worms it can still win",
                   f"does that in {pct(low[29])} of turns, and playing for 33 alone in {pct(low[33])}",
                   f"look equal in the mean ({alone.mean:.3f} each)",
                   f"a mean of {b.mean:.2f} worms against {a.mean:.2f}",
                   f"mean {a.mean:.4f}, SD {a.sd:.4f}, P(4 worms) {pair['stop at 22'][4]:.4f}",
                   f"mean {b.mean:.4f}, SD {b.sd:.4f}, P(4 worms) {pair[THIRTY_THREE][4]:.4f}",
                   f"fails in {pct(pair[THIRTY_THREE][0])} of turns against {pct(pair['stop at 22'][0])}"):
        assert fold(needle) in page, needle
    assert f"{a.mean:.3f}" == f"{alone.mean:.3f}"
