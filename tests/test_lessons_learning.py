"""Lesson 11, learning vs solving: every number its text states is recomputed here from the
engine (the same seeds the notebook uses), and its text must say it; its prediction box keeps
the learner's worms lost until the lock; each exercise's answer shows only inside its toggle
(its working in explorer cells); the students' text names no code and no developer words."""

from __future__ import annotations

import re
from fractions import Fraction
from math import factorial

import pytest

from henkit.henpen.dice import describe_roll
from henkit.henpen.learning import QLearner, learning_curve
from henkit.henpen.odds import bust_chance, position_reward
from henkit.henpen.turnspace import TurnPoint

from . import lesson_text
from .lesson_text import fold, markdown, source
from .test_lessons_for_students import before_any_lock, output_text, tags

LESSON = "11_learning_vs_solving"


def cells() -> tuple[dict, ...]:
    return lesson_text.cells(LESSON)


def text() -> str:
    return markdown(LESSON)


def outside_answers() -> str:
    return lesson_text.outside_answers(text())


def answers() -> list[str]:
    return re.findall(r"<details><summary>Answer</summary>(.*?)</details>", text())


def outputs() -> str:
    return lesson_text.outputs(LESSON)


def student_outputs() -> str:
    """What the cells a student sees print (explorer cells left out)."""
    return "\n".join(output_text(c) for c in cells() if "explorer" not in tags(c))


def printed(cell: dict) -> str:
    """What a code cell printed, its stream's pieces joined as they came."""
    return "".join(source({"source": o["text"]}) for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream")


def says(haystack: str, *needles: str) -> None:
    for needle in needles:
        assert fold(needle) in haystack, f"lesson 11 does not say {needle!r}"


@pytest.fixture(scope="module")
def run():
    """The notebook's learner (seed 1), its grades every 10,000 turns up to 200,000."""
    learner = QLearner(seed=1)
    grades = learning_curve(200_000, 10_000, learner=learner)
    return learner, grades


def test_the_learner_the_text_describes_is_the_default_one():
    learner = QLearner(seed=1)
    says(text(), "3 times in 10", "30% of the way")
    assert learner.exploration == 0.3 and learner.learning_rate == 0.3
    assert learner.reward == position_reward() or (
        learner.reward.stop_value == position_reward().stop_value
        and learner.reward.fail_value == 0)
    # "At the start every guess is 0"; untrained, it stops as soon as it may and keeps the
    # face worth most points (the first face in the solver's preference order).
    sp, policy = learner.space, learner.policy()
    assert not learner.q_take[~learner.bust_edge].any() and not learner.q_roll.any()
    assert (policy.stop[:-1] == (~sp.rollable | sp.has_worm)).all()
    assert (policy.choice == sp.pair_edge_start[:-1]).all()
    # The same roll at two moments: 1s and worms taken, 3 dice left, totals 13 and 17.
    says(text(), "two 4s and a 3 with 3 dice left, 1s and worms taken, is one roll at a total "
                 "of 13 and another at a total of 17")
    for total in (13, 17):
        i = sp.index(TurnPoint(3, {1, 6}, total))
        assert sp.rollable[i] and learner.space.roll_pair(i, (0, 0, 1, 2, 0, 0)) >= 0
    size = learner.table_counts()
    shown = outputs()
    for key in ("stop or roll", "pick a face", "guesses"):
        assert f"{size[key]:,}" in shown


def test_watching_it_learn_numbers(run):
    _learner, grades = run
    start, end = grades[0], grades[-1]
    assert end.episodes == 200_000 and len(grades) == 21
    says(text(), "plays 200,000 turns", "Every 10,000 turns")
    says(text(), f"The best play earns {end.optimum:.4f} worms per turn",
         f"earns {start.value:.4f}: it loses {start.value_lost:.4f} worms per turn against the "
         "best play",
         f"After 200,000 turns it earns {end.value:.4f} worms per turn and loses only "
         f"{end.value_lost:.4f}", f"{end.agreement_weighted:.1%} of the time")
    by = {g.episodes: g for g in grades}
    assert by[80_000].value_lost > by[70_000].value_lost  # "bumpy"
    says(text(), "at 80,000 turns it lost more than at 70,000")
    # Fast at first, then slowly: the first 50,000 turns win more than the last 150,000.
    assert start.value_lost - by[50_000].value_lost > by[50_000].value_lost - end.value_lost
    # The dotted line "hardly moves": within 3 points all along.
    every = [g.agreement for g in grades]
    assert max(every) - min(every) < 0.03


def test_where_the_learner_disagrees(run):
    learner, _ = run
    found = learner.disagreements(400)
    top = found[:4]
    assert all(d.shown is None for d in top)  # all about when to stop
    assert max(d.reach for d in top) <= Fraction(1, 30)
    says(text(), "at most 1 turn in 30")
    first = top[0]
    point = TurnPoint(2, {3, 5, 6}, 28)
    assert first.point == point and (first.optimal, first.learned) == ("roll", "stop")
    rules_worms = position_reward().stop_value
    assert rules_worms[28] == 2 and rules_worms[29] == 3 and rules_worms[36] == 4
    assert bust_chance(2, {3, 5, 6}) == Fraction(1, 4)
    sol = learner.solution
    assert sol.value_if_roll(point) >= 0.75 * 3 and sol.value_if_stop(point) == 2
    says(text(), "serving 28 (2 worms)", "29 or more, worth 3 worms", "a chance of 1/4",
         "3/4 × 3 = 2.25 worms".replace("×", "&times;"), "meeting this moment 1,550 times")
    assert first.met == 1550
    guess = learner.guesses_at(point)
    assert guess["met"] == 1550 and guess["stop"] == 2.0
    says(text(), f"rates rolling at {guess['roll']:.3f} worms instead of "
                 f"{sol.value_if_roll(point):.3f}")
    faces = [d for d in found if d.shown is not None]
    opening = faces[1]
    assert opening.point == TurnPoint.fresh(8) and describe_roll(opening.shown) == "1 2 3 4 5 5 W W"
    assert (opening.optimal, opening.learned) == ("worm", "5")
    says(text(), "1 2 3 4 5 5 W W, which comes in " + f"{opening.reach:.2%}")
    assert opening.reach == pytest.approx(factorial(8) / 2 / 2 / 6**8)  # two 5s, two worms


def test_exercise_answers(run):
    learner, grades = run
    ex = answers()
    assert len(ex) == 3
    first = next(g.episodes for g in grades if g.value_lost < 0.2)
    later = [g.episodes for g in grades if g.episodes > first and g.value_lost >= 0.2]
    assert later == []  # "it stays below 0.2 at every grade"
    says(ex[0], f"After **{first:,}** turns", "stays below 0.2 at every grade",
         f"at 70,000 it lost {next(g for g in grades if g.episodes == 70_000).value_lost:.4f}")
    start, end = grades[0], grades[-1]
    met = learner.positions_met()
    assert len(met) == sum(v for k, v in learner.table_counts().items() if k != "guesses")
    exercise2 = next(source(c) for c in cells() if "### Exercise 2" in source(c))
    says(fold(exercise2), f"({start.agreement:.1%} before, {end.agreement:.1%} after)",
         f"of the {len(met):,} positions", f"never met {met.count(False):,} in 200,000 turns")
    says(ex[1], f"**{met.count(False):,}** positions were never met",
         f"(**{end.agreement_weighted:.1%}**)")
    assert end.agreement < start.agreement
    lost = {e: QLearner(seed=1, exploration=e).train(200_000).grade().value_lost
            for e in (0.1, 0.0)}
    says(ex[2], f"Exploring 1 move in 10, it loses **{lost[0.1]:.4f}** worms per turn",
         f"**{lost[0.0]:.4f}**, as much as before any training")
    says(text(), f"with the {end.value_lost:.4f} of the lesson's learner")
    assert f"{lost[0.0]:.4f}" == f"{start.value_lost:.4f}" and lost[0.1] > end.value_lost


def test_answers_show_only_in_their_toggles():
    shown = student_outputs()
    for leak in ("90000 []", "never met:", "exploring 10% of moves", "exploring 0% of moves"):
        assert leak not in shown
        assert leak in outputs()  # the explorer cells work them out
    assert "<summary>Answer</summary>" not in outside_answers()
    # Every exercise has its worked answer in a toggle, in its own cell or the next markdown cell.
    body = [c for c in cells() if c["cell_type"] == "markdown"]
    for i, cell in enumerate(body):
        if re.search(r"^### Exercise \d", source(cell), re.MULTILINE):
            following = source(body[i + 1]) if i + 1 < len(body) else ""
            assert "<summary>Answer</summary>" in source(cell) + following


def test_students_text_has_no_developer_words_and_names_no_code():
    words = outside_answers() + student_outputs()
    for word in ("ValueError", "immutable", "docstring", "0-based", "episode", "epsilon",
                 "Q-table", "array", "numpy"):
        assert word not in words, f"lesson 11 shows {word!r} to students"
    prose = outside_answers()
    spans = re.findall(r"`([^`]+)`", prose)
    calls = [c for c in spans if re.search(r"\w\(|^henkit\.|=", c)] + re.findall(r"\b\w+_\w+\(", prose)
    assert not calls, calls


def test_the_dashboards_own_learner_trains_on_click():
    """The widget cell, run with the notebook's imports: it starts with seed 7 at 50,000 turns;
    'Play 50,000 more turns' adds 50,000; 'Start again' with another seed starts over; the same
    seed gives the same words."""
    code = [source(c) for c in cells() if c["cell_type"] == "code"]
    ns: dict = {}
    exec(code[0], ns)  # noqa: S102 - the lesson's own imports
    exec(next(c for c in code if "Start again" in c), ns)  # noqa: S102 - its widget cell
    seed_box, again, more = ns["controls"].children
    first = ns["status"].value
    says(fold(first), "Seed 7, after 50,000 turns:")
    assert len(ns["chart"].outputs) == 1
    more.click()
    assert ns["mine"]["learner"].episodes == 100_000
    says(fold(ns["status"].value), "Seed 7, after 100,000 turns:")
    seed_box.value = 3
    again.click()
    assert ns["mine"]["learner"].episodes == 50_000 and ns["mine"]["seed"] == 3
    seed_box.value = 7
    again.click()
    assert ns["status"].value == first
    assert "50,000" in text() and ns["MORE"] == 50_000


def test_the_exercises_cells_print_what_the_notebook_saved(run, capsys):
    """Every exercise's explorer cell, run again on the lesson's learner, prints what the
    notebook saved (exercise 3's numbers are recomputed above by training anew)."""
    learner, grades = run
    ns: dict = {}
    exec(source(cells()[1]), ns)  # noqa: S102 - the lesson's imports
    ns.update(grades=grades, learner=learner, start=grades[0], end=grades[-1])
    exercises = [c for c in cells() if c["cell_type"] == "code" and "explorer" in tags(c)
                 and c is not cells()[1]]
    assert len(exercises) == 3
    for cell in exercises:
        exec(source(cell), ns)  # noqa: S102 - the lesson's own working
        assert capsys.readouterr().out == printed(cell)
    table = next(c for c in cells() if "for row in range(0, 21, 3)" in source(c))
    assert "answer:lost-after-training" in tags(table)  # it shows the box's answer: it waits
    for g in grades:
        assert f"{g.episodes:>7,} turns: {g.value_lost:.4f}" in printed(table)


@pytest.fixture(scope="module")
def box():
    made = []
    ns: dict = {}
    exec(source(cells()[1]), ns)  # noqa: S102 - the lesson's imports
    ns["Predict"] = lambda prompt, answer, **kw: made.append((prompt, answer, kw))
    exec(source(next(c for c in cells() if "Predict(" in source(c))), ns)  # noqa: S102
    assert len(made) == 1
    return made[0], ns


def test_the_box_keeps_the_worms_lost_until_the_lock(run, box):
    (_prompt, answer, kw), ns = box
    _learner, grades = run
    ns["grades"] = grades
    assert kw["key"] == "lost-after-training" and kw["kind"] == "number" and kw["digits"] == 4
    assert answer() == grades[-1].value_lost
    seen = before_any_lock(LESSON)
    assert f"{grades[-1].value_lost:.4f}" not in seen and f"{grades[-1].value:.4f}" not in seen
    said = fold(text())
    assert f"{grades[0].value_lost:.4f}" in said  # what it lost untrained is given, as a yardstick
    order = [i for i, c in enumerate(cells()) if "Predict(" in source(c)]
    for i, c in enumerate(cells()):
        if "answer:lost-after-training" in tags(c):
            assert i > order[0]
    curve = next(c for c in cells() if "grades = learning_curve(200_000" in source(c))
    assert "answer:lost-after-training" in tags(curve)


def test_the_teacher_page_states_the_lessons_numbers(run):
    learner, grades = run
    page = fold((lesson_text.NOTEBOOKS.parent / "docs" / "teacher" / f"{LESSON}.md")
                .read_text(encoding="utf-8"))
    by = {g.episodes: g for g in grades}
    start, end = grades[0], grades[-1]
    met = learner.positions_met()
    for needle in (f"{end.value_lost:.4f}", f"70,000 turns it lost {by[70_000].value_lost:.4f}",
                   f"at 80,000 ({by[80_000].value_lost:.4f})",
                   f"{start.agreement:.1%} before, {end.agreement:.1%} after",
                   f"{met.count(False):,} of {len(met):,} positions never met",
                   f"where perfect play goes ({end.agreement_weighted:.1%})"):
        assert fold(needle) in page, needle


def test_the_teacher_page_answers_another_seed():
    """The open question 'another seed, better or worse?': the teacher page's numbers."""
    page = fold((lesson_text.NOTEBOOKS.parent / "docs" / "teacher" / f"{LESSON}.md")
                .read_text(encoding="utf-8"))
    lost = {s: learning_curve(200_000, 200_000, learner=QLearner(seed=s))[-1].value_lost
            for s in (2, 3, 4, 7)}
    for s, value in lost.items():
        assert f"seed {s}" in page and f"{value:.4f}" in page, s
    one = learning_curve(200_000, 10_000, learner=QLearner(seed=1))[-1].value_lost
    assert min(lost.values()) < one < max(lost.values()) + 0.01  # "a little more or a little less"
