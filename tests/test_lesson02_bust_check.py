"""Lesson 2's own bust check (the one its 200,000-roll experiment calls, on all its rolls at
once) says what the rule says: with the 5s and the worms taken, a roll busts exactly when every
die shows one of them. Its exercise 5 (two rolls in a row) asks and answers "at least one of
the two rolls busts", recomputed with that rule."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from henkit.henpen.dice import FACES, WORM, roll_outcomes, roll_probabilities
from henkit.henpen.odds import bust_chance
from henkit.henpen.rules import is_bust

from .lesson_text import cells, source

TAKEN = tuple(1 if face in (5, WORM) else 0 for face in FACES)  # a die of each set aside


def lesson_is_bust():
    (cell,) = [c for c in cells("02_push_your_luck")
               if c["cell_type"] == "code" and source(c).startswith("def is_bust(")]
    code = source(cell)
    namespace: dict = {"np": np}  # the lesson's first cell imports numpy as np
    exec(code[: code.index("\n\n\n")], namespace)  # noqa: S102 - the lesson's own function only
    return namespace["is_bust"]


def test_the_lessons_bust_check_is_the_rule_for_every_roll() -> None:
    check = lesson_is_bust()
    for n in range(9):
        rolls = roll_outcomes(n)
        rule = [is_bust(roll, TAKEN) for roll in rolls]
        assert [bool(check(roll)) for roll in rolls] == rule  # one roll's counts
        assert check(np.array(rolls)).tolist() == rule  # many rolls' counts, a row each


def exercise_5() -> str:
    """Lesson 2's exercise 5: its question and its collapsed answer, whitespace folded."""
    (cell,) = [c for c in cells("02_push_your_luck")
               if c["cell_type"] == "markdown" and source(c).lstrip().startswith("**5.**")]
    return " ".join(source(cell).split())


def test_exercise_5_asks_for_at_least_one_bust_and_answers_it() -> None:
    """Two rolls of 3 dice (5s and worms taken): the exercise asks, without ambiguity, for at
    least one bust of the two, and its answer states that chance and the far smaller chance of
    both busting, recomputed from every pair of rolls with the rules' bust check."""
    laws = list(zip(roll_outcomes(3), roll_probabilities(3), strict=True))
    bust = {roll: is_bust(roll, TAKEN) for roll, _p in laws}
    at_least_one = sum(p * q for a, p in laws for b, q in laws if bust[a] or bust[b])
    both = sum(p * q for a, p in laws for b, q in laws if bust[a] and bust[b])
    one = sum(p for roll, p in laws if bust[roll])
    assert one < at_least_one < 2 * one and both == one ** 2 < one
    question, answer = exercise_5().split("<details>", 1)
    assert "**at least one** of the two rolls busts" in question
    assert "(the first, the second, or both)" in question
    assert "a bust in *two* rolls in a row" not in question  # read as "both rolls bust"
    assert f"**{at_least_one}**, about **{float(at_least_one):.4f}**" in answer
    assert f"(1/27)<sup>2</sup> = **{both}**" in answer and one == Fraction(1, 27)


def test_the_tray_exercise_states_the_solvers_advice() -> None:
    """The tray exercise's answer (lesson 2, total 25, worms and 5s taken, 3 dice left) gives
    the solver's exact worth of rolling and of stopping, and rolls (the solver's choice)."""
    from henkit.henpen import ROLL, State, Take
    from henkit.henpen.advice import advice

    position = (State.new(1)
                .apply(ROLL).apply((1, 0, 1, 1, 3, 2)).apply(Take(WORM))
                .apply(ROLL).apply((1, 1, 0, 1, 3, 0)).apply(Take(5)))
    assert "set aside 5 5 5 W W, total 25, 3 dice left" in position.describe()
    best, *others = advice(position, exact=True)
    (stop,) = others
    assert str(best.action) == "roll the dice" and best.value > stop.value
    (cell,) = [c for c in cells("02_push_your_luck") if c["cell_type"] == "markdown"
               and "Class experiment: does the class bust" in source(c)]
    answer = " ".join(source(cell).split("</details>")[0].split())
    assert answer.startswith("<details><summary>Answer</summary> **Roll.**")
    assert f"Rolling is worth **{best.value}**, about **{float(best.value):.3f}** worms" in answer
    assert f"stopping is worth **{stop.value}** worms for sure" in answer
    assert f"The bust chance is only {bust_chance(3, {5, WORM})}" in answer
