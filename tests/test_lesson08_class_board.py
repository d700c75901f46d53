"""Lesson 8, the class board, as students meet it on the projector: the board and what its
charts mean, with no server instructions (those are on the teacher's page), and what it says
of the distance band recomputed: a band drawn point by point, and a line inside it only
consistent with fair dice."""

from __future__ import annotations

import re
from math import comb

import numpy as np

from henkit.classpool.exact import distance_band, first_roll_law, tv_constant

from . import lesson_text
from .lesson_text import fold
from .test_lessons_for_students import plain, student_text

LESSON = "08_class_board"
TEACHER = lesson_text.NOTEBOOKS.parent / "docs" / "teacher" / "08_class_board.md"
NS = sorted({round(10 ** (k / 4)) for k in range(17)})  # the chart's points: 1 to 10,000 rolls
RUNNING = ("make serve", "HENKIT_CLASS_DB", "postgresql://", "henkit class new",
           "henkit class status", "henkit class export")


def text() -> str:
    """All the lesson's markdown, folded."""
    return lesson_text.markdown(LESSON)


def says(*needles: str) -> None:
    for needle in needles:
        assert fold(needle) in text(), f"lesson 8 does not say {needle!r}"


def law() -> np.ndarray:
    return np.array([float(p) for p in first_roll_law(8)])


def distances(p_true: np.ndarray, classes: int, seed: int) -> np.ndarray:
    """The distance to B(8, 1/6) of `classes` classes rolling first rolls from `p_true`, one
    growing pool each, read at every point of the chart (rows: classes, columns: NS)."""
    rng = np.random.default_rng(seed)
    exact = law()
    draws = rng.choice(len(p_true), size=(classes, NS[-1]), p=p_true)
    counts = np.zeros((classes, len(exact)))
    out, done = [], 0
    for n in NS:
        counts += (draws[:, done:n, None] == np.arange(len(exact))).sum(axis=1)
        done = n
        out.append(0.5 * np.abs(counts / n - exact).sum(axis=1))
    return np.array(out).T


def test_students_read_no_server_instructions_and_the_teacher_page_has_them():
    seen = plain(student_text(LESSON, core_only=False, with_answers=True))
    for word in RUNNING:
        assert word not in seen, word
    page = TEACHER.read_text(encoding="utf-8")
    for word in RUNNING:
        assert word in page, f"the teacher page lacks {word!r}"


def test_the_band_is_drawn_point_by_point_not_for_the_whole_line():
    """At each point about 95 % of fair classes are inside the band; over the whole line, nearly
    half of them step outside it somewhere (a seeded simulation of 1,000 fair classes)."""
    says("The shaded band is drawn **point by point**: at each number of first rolls, 95 % of "
         "classes rolling fair dice have their distance inside it",
         "It is not a band for the whole line: nearly half of fair classes step outside it "
         "somewhere between 1 and 10,000 first rolls")
    band = distance_band(first_roll_law(8), NS, seed=8)
    assert tuple(band.n) == tuple(NS) and band.level == 0.95
    d = distances(law(), 1000, seed=1)
    inside = (d >= np.array(band.low) - 1e-12) & (d <= np.array(band.high) + 1e-12)
    at_each = inside.mean(axis=0)
    assert (at_each > 0.92).all() and abs(at_each[NS.index(100):].mean() - 0.95) < 0.015
    left = 1 - inside.all(axis=1).mean()
    assert 0.38 < left < 0.5, left  # "nearly half"


def test_a_line_inside_the_band_is_only_consistent_with_fair_dice():
    """Dice showing a worm 1 time in 5 stay inside the band at 100 first rolls in about two
    classes in three, and in none at 1,000."""
    says("A class inside the band is **consistent with fair dice**, not proven fair",
         "dice that show a worm 1 time in 5 instead of 1 in 6 keep about two classes in three "
         "inside the band after 100 first rolls, and none after 1,000")
    assert "is rolling fair dice" not in text()
    loaded = np.array([comb(8, k) * 0.2**k * 0.8 ** (8 - k) for k in range(9)])
    band = distance_band(first_roll_law(8), NS, seed=8)
    d = distances(loaded, 2000, seed=2)
    inside = (d >= np.array(band.low)) & (d <= np.array(band.high))
    at_100, at_1000 = inside[:, NS.index(100)].mean(), inside[:, NS.index(1000)].mean()
    assert abs(at_100 - 2 / 3) < 0.06, at_100
    assert at_1000 == 0


def test_the_numbers_the_lesson_prints_and_its_exercise():
    c = tv_constant(first_roll_law(8))
    shown = lesson_text.outputs(LESSON)
    assert f"C = {c:.3f}: expected distance {c / 10:.3f} after 100 first rolls" in shown
    m = re.search(r"(\d+) first rolls pooled", shown)
    assert m, "the lesson prints how many first rolls the demo class pooled"
    pooled = int(m.group(1))
    need = (c / 0.01) ** 2
    says(f"C = {c:.3f}", "about 5,700 first rolls: some 10 times what the demo class rolled")
    assert round(need, -2) == 5700 and round(need / pooled) == 10
