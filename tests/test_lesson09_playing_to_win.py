"""Lesson 9, playing to win, as students meet it: its one prediction box asks for the chance to
win the start position and keeps it until the lock; every chance the lesson prints or states is
the endgame solver's, recomputed here; the teacher's answers to "Your turn" are the solver's."""

from __future__ import annotations

import pytest

from henkit.henpen import State
from henkit.henpen.endgame import positions, win_chance

from . import lesson_text
from .lesson_text import fold, source
from .test_lessons_for_students import before_any_lock, tags

LESSON = "09_playing_to_win"
START = State.new(2, grill=[21, 25], stacks=[[30, 22], [33]])
STACKS = {-2: [], -1: [21], 0: [26], 1: [29], 2: [33], 3: [33, 21], 4: [33, 26], 5: [33, 29]}


def cells() -> tuple[dict, ...]:
    return lesson_text.cells(LESSON)


def text() -> str:
    return lesson_text.markdown(LESSON)


def says(*needles: str) -> None:
    for needle in needles:
        assert fold(needle) in text(), f"lesson 9 does not say {needle!r}"


@pytest.fixture(scope="module")
def box():
    """The lesson's prediction box: prompt, exact answer, options (recorded, not shown)."""
    made = []
    ns: dict = {}
    exec(source(cells()[1]), ns)  # noqa: S102 - the lesson's imports
    ns["Predict"] = lambda prompt, answer, **kw: made.append((prompt, answer(), kw))
    exec(source(next(c for c in cells() if "Predict(" in source(c))), ns)  # noqa: S102
    assert len(made) == 1
    return made[0]


def test_the_start_chance_is_predicted_first_and_kept_until_the_lock(box):
    _prompt, answer, kw = box
    assert kw["key"] == "start-chance" and kw["kind"] == "chance"
    assert answer == pytest.approx(win_chance(START)) and 0.5 < answer < 0.6
    seen = before_any_lock(LESSON)
    for form in (f"{100 * answer:.1f} %", f"{100 * answer:.1f}%", f"{answer:.3f}"):
        assert form not in seen, form
    # The chart that starts at the start position's chance waits for the box.
    chart = next(c for c in cells() if "Player 1's chance to win after each turn" in source(c))
    assert "answer:start-chance" in tags(chart)


def test_where_the_goals_disagree():
    behind = State.new(2, grill=[23], stacks=[[24], [26]])
    shown = lesson_text.outputs(LESSON)
    exact = win_chance(behind, exact=True)
    assert f"Your chance to win: {float(exact):.2%}" in shown
    assert f"The other player's: {float(1 - exact):.2%}" in shown
    says("Taking 23 gives you 2 worms against 2", "a tie goes to the player holding the highest "
         "serving: 26", "Stopping is worth +1 worm, the best of the worms column, and a **0 %** "
         "chance to win")
    assert "stop and take 23 from the grill             +1.000          0.00%" in shown


def test_what_a_lead_is_worth():
    shown = lesson_text.outputs(LESSON)
    chance = {}
    for lead, mine in STACKS.items():
        chance[lead] = win_chance(State.new(2, grill=[24], stacks=[mine, [25]]))
        held = " and ".join(map(str, mine)) or "nothing"
        assert f"lead {lead:+d} worms (you hold {held}): {chance[lead]:.1%} to win" in shown
    rows = [line for line in shown.splitlines() if line.startswith("lead ")]
    assert len(rows) == len(STACKS) and not any("[" in row for row in rows)  # no Python list
    says("Holding nothing (a lead of &minus;2) is better than holding 21",
         "Leads of 0, +1 and +2 give the same chance", "With two servings, a failed turn still "
         "leaves you one: the chance jumps")
    assert chance[-2] > chance[-1]
    assert chance[0] == pytest.approx(chance[1]) == pytest.approx(chance[2])
    assert chance[3] > chance[2] + 0.1


def test_the_teachers_answers_to_your_turn():
    page = fold((lesson_text.NOTEBOOKS.parent / "docs" / "teacher" / f"{LESSON}.md")
                .read_text(encoding="utf-8"))
    assert f"{win_chance(START):.1%}" in page
    assert f"{positions(START):,} positions" in page
    for lead, mine in ((-2, []), (-1, [21])):
        before = win_chance(State.new(2, grill=[24], stacks=[mine, [25]]))
        after = win_chance(State.new(2, grill=[24], stacks=[mine, [28]]))
        assert f"{before:.1%} to {after:.1%}" in page, lead
    wider = State.new(2, grill=[21, 25, 27], stacks=[[30, 22], [33]])
    assert f"{positions(wider):,} positions instead of {positions(START)}" in page
    assert f"{win_chance(wider):.1%} with 27" in page
