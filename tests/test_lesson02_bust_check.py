"""Lesson 2's own bust check (the one its 200,000-roll experiment calls, on all its rolls at
once) says what the rule says: with the 5s and the worms taken, a roll busts exactly when every
die shows one of them."""

from __future__ import annotations

import numpy as np

from henkit.henpen.dice import FACES, WORM, roll_outcomes
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
