"""The lessons say what the engine says.

Every number a notebook's text states is recomputed here from the engine (or, for a seeded
tournament or simulation that is too slow to replay in a unit test, read from the notebook's
own committed output, which nbval checks against a fresh run), and the text must contain it:
a change to the engine that moves a number fails here until the lesson's text follows.

Also checked: an exercise's answer appears only inside its collapsed "Answer" toggle (never in
an output the page shows), the students' text is free of developer words, and the developer
appendix is a notebook of its own that is not published as a dashboard.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from henkit.henpen.dice import FACES, WORM, face_value, roll_outcomes, roll_probabilities
from henkit.henpen.odds import chance_at_least, position_reward, solve_turn
from henkit.henpen.rules import may_stop, takeable_faces, turn_ends_by_itself
from henkit.henpen.turnspace import TurnPoint, take_preference

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SITE = ROOT / "dashboards" / "site"
LESSONS = {
    3: "03_expected_value_and_stopping.ipynb",
    4: "04_playing_henpen.ipynb",
    5: "05_hens_deck_and_drawing.ipynb",
    6: "06_placing_hens.ipynb",
    7: "07_strategy_arena.ipynb",
}
APPENDIX = "appendix_for_developers.ipynb"


# -- reading the notebooks ---------------------------------------------------------------------


@cache
def cells(lesson: int | str) -> tuple[dict, ...]:
    """The cells of a lesson (by number) or of a notebook (by file name)."""
    name = LESSONS[lesson] if isinstance(lesson, int) else lesson
    return tuple(json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"])


def source(cell: dict) -> str:
    """A cell's source as one string."""
    s = cell["source"]
    return s if isinstance(s, str) else "".join(s)


def text(lesson: int) -> str:
    """All the markdown of a lesson, whitespace folded (a number may sit across a line break)."""
    return " ".join(" ".join(source(c) for c in cells(lesson) if c["cell_type"] == "markdown").split())


def section(lesson: int, heading: str) -> str:
    """The markdown cell that contains `heading`, whitespace folded."""
    found = [source(c) for c in cells(lesson) if c["cell_type"] == "markdown" and heading in source(c)]
    assert len(found) == 1, f"notebook {lesson}: {len(found)} markdown cells hold {heading!r}"
    return " ".join(found[0].split())


def outside_answers(markdown: str) -> str:
    """Markdown with every <details> answer block cut out: what a student sees at once."""
    return re.sub(r"<details>.*?</details>", " ", markdown, flags=re.DOTALL)


def answers(lesson: int) -> list[str]:
    """The inside of every <details> answer block of a lesson, in order, whitespace folded."""
    found = re.findall(r"<details><summary>Answer</summary>(.*?)</details>",
                       "\n".join(source(c) for c in cells(lesson) if c["cell_type"] == "markdown"),
                       flags=re.DOTALL)
    return [" ".join(a.split()) for a in found]


def output_text(cell: dict) -> str:
    """Everything a code cell's outputs show: printed text, plain and HTML results, charts."""
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(source({"source": out["text"]}))
        for kind, value in out.get("data", {}).items():
            if kind == "application/vnd.jupyter.widget-view+json":
                continue  # a widget: its view shows what the widget shows, not this record
            parts.append(value if isinstance(value, str)
                         else json.dumps(value) if isinstance(value, dict) else "".join(value))
    return "\n".join(parts)


def visible_outputs(lesson: int) -> str:
    """The outputs of every code cell of a lesson, one string."""
    return "\n".join(output_text(c) for c in cells(lesson) if c["cell_type"] == "code")


def output_after(lesson: int, code: str) -> str:
    """The output of the one code cell whose source contains `code`."""
    found = [c for c in cells(lesson) if c["cell_type"] == "code" and code in source(c)]
    assert len(found) == 1, f"notebook {lesson}: {len(found)} code cells hold {code!r}"
    return output_text(found[0])


def pct(x: float, digits: int = 1) -> str:
    """A chance as the lessons write it: '37.9 %' (also matched without the space)."""
    return f"{100 * x:.{digits}f}"


def says(haystack: str, *needles: str) -> None:
    """Assert that the text holds every needle, whitespace folded (so '38 %' matches '38%')."""
    def fold(s: str) -> str:
        return " ".join(s.replace("&nbsp;", " ").split()).replace(" %", "%")

    for needle in needles:
        assert fold(needle) in fold(haystack), f"the lesson does not say {needle!r}"


# -- an independent walk of a fresh turn, through the engine's own rules -----------------------


@cache
def failure_chance(kept: tuple[int, ...], target: int, worms_first: bool) -> Fraction:
    """The exact chance that a fresh turn on a full grill fails, played by a threshold rule.

    The rule stops at `target` or more once a worm is set aside (the greedy bot is target 21:
    it stops at the first serving it can claim) and takes the worms first while it has none if
    `worms_first` (the threshold bot), else always the face worth most points (the engine's
    `take_preference`). A turn that ends by itself (decision P5) with no worm or a total below
    21 fails, like a bust. Built from the rules' functions and the dice's exact laws only.
    """
    dice = 8 - sum(kept)
    total = sum(k * face_value(f) for f, k in zip(FACES, kept, strict=True))
    claimable = may_stop(kept) and total >= 21
    if turn_ends_by_itself(dice, sum(1 for k in kept if k)):
        return Fraction(0) if claimable else Fraction(1)
    if claimable and total >= target:
        return Fraction(0)
    fail = Fraction(0)
    for roll, p in zip(roll_outcomes(dice), roll_probabilities(dice), strict=True):
        faces = takeable_faces(roll, kept)
        if not faces:
            fail += p  # bust
            continue
        if worms_first and WORM in faces and not may_stop(kept):
            face = WORM
        else:
            face = min(faces, key=lambda f: take_preference(f, roll[f - 1]))
        after = tuple(k + (roll[f - 1] if f == face else 0) for f, k in zip(FACES, kept, strict=True))
        fail += p * failure_chance(after, target, worms_first)
    return fail


FRESH = (0,) * 6


def threshold_fails(target: int) -> Fraction:
    """P(fail) of 'stop at target' on a full grill with nothing to lose, as the rules count."""
    return failure_chance(FRESH, target, True)


def greedy_fails() -> Fraction:
    """P(fail) of the greedy bot's turn on a full grill with nothing to lose."""
    return failure_chance(FRESH, 21, False)


def test_the_walk_agrees_with_the_engines_threshold_policy():
    # The walk above is the tests' own; the notebooks use the engine's threshold policy. Both
    # must agree, or one of them misreads the rules.
    from henkit.henpen.batch import threshold_policy

    for target in (21, 25, 29):
        ends = threshold_policy(target).end_distribution(exact=True)
        assert 1 - ends.chance_at_least(21) == threshold_fails(target)


# -- notebook 3 --------------------------------------------------------------------------------


def test_nb3_failure_chances_count_turns_ending_below_21():
    out = output_after(3, "stop_at_25 = as_the_rules_count")
    says(out, f"P(fail)          = {threshold_fails(25)} = {float(threshold_fails(25)):.4f}")
    assert f"{float(threshold_fails(25)):.4f}" == "0.3796"  # issue 12: 0.3742 left some out
    table = output_after(3, "fail_by_threshold[T] = d.fail")
    for target in range(21, 37):
        row = re.search(rf"^ *{target} +(\S+) ", table, flags=re.MULTILINE)
        assert row and row.group(1) == f"{float(threshold_fails(target)):.4f}", target
    sim = output_after(3, "simulate_turns(threshold_policy(25)")
    says(sim, f"failed   {float(threshold_fails(25)):.4f}")


def test_nb3_the_chart_has_no_stop_below_21():
    cell = next(c for c in cells(3) if "end_distribution_chart(dists" in source(c))
    chart = next(o["data"]["application/vnd.plotly.v1+json"] for o in cell["outputs"]
                 if "application/vnd.plotly.v1+json" in o.get("data", {}))
    for trace in chart["data"]:
        totals = [int(x) for x in trace["x"] if x != "failed"]
        assert min(totals) >= 21, trace["name"]
        assert trace["y"][0] == pytest.approx(float(threshold_fails(int(trace["name"][-2:]))))


def test_nb3_text_and_answers():
    reward = position_reward()
    optimal = solve_turn(reward)
    dists = {}
    from henkit.henpen.batch import threshold_policy

    for target in range(21, 37):
        dists[target] = threshold_policy(target).end_distribution().expectation(*reward.floats)
    best = max(dists, key=dists.get)
    says(text(3), f"The best threshold is {best}", f"P(&ge;21) = {float(chance_at_least(21)):.3%}",
         f"P(&ge;25) = {float(chance_at_least(25)):.3%}")
    # A steal takes exactly the opponent's serving's number, never "25 or more".
    assert "steal an opponent's serving 25 or to beat it" not in text(3)
    says(section(3, "Playing for a target"), "*exactly* the opponent's serving")
    ex = answers(3)
    assert len(ex) == 5
    says(ex[0], str(8 * Fraction(10, 3)))
    fail21 = float(threshold_fails(21))
    says(ex[1], f"stop at 21: P(fail) {fail21:.4f}, expected worms {dists[21]:.4f}")
    assert float(threshold_fails(25)) > 2 * fail21  # "fails more than twice as often"
    says(ex[1], "fails more than twice as often")
    gain = optimal.value() - dists[best]
    says(ex[2], f"{gain:.4f} worms per turn, about {12 * gain:.1f} worms in 12 turns")
    says(text(3), "About a third of a worm more per turn")
    assert 0.29 < gain < 0.38
    point = TurnPoint(2, {1, WORM}, 22)
    says(ex[3], f"{point} -> {optimal.best_decision(point)} (stop {optimal.value_if_stop(point):.3f}, "
                f"roll {optimal.value_if_roll(point):.3f})")
    says(ex[4], f"playing for >= 29: {chance_at_least(29):.3%}",
         f"playing for worms: {optimal.end_distribution().chance_at_least(29):.3%}")


def test_nb3_the_simulations_land_where_the_text_says():
    out = output_after(3, "for T in (21, 25):")
    for target in (21, 25):
        exact = float(chance_at_least(target))
        m = re.search(rf"P\(>= {target}\).*?\n\s+simulated ([\d.]+)% in [\d,]+ turns, 95% interval "
                      rf"([\d.]+)% to ([\d.]+)%", out, flags=re.DOTALL)
        assert m, out
        sim, low, high = (float(g) / 100 for g in m.groups())
        assert abs(sim - exact) < 0.001  # "within a tenth of a percentage point"
        assert low <= exact <= high  # "each 95% interval contains the exact value"
    says(section(3, "Both exact values match"), "within a tenth of a percentage point")


# -- notebook 4 --------------------------------------------------------------------------------

GRILL = (21, 22, 24, 25, 27, 28, 31, 32, 33, 35, 36)
OTHERS = {1: 26, 2: 29}


def test_nb4_failure_chances_of_the_two_plans():
    out = output_after(4, "risk_reward = position_reward(grill, 30, others)")
    for own_top, line in ((30, "plan for the risk:"), (None, "plan ignoring it:")):
        ends = solve_turn(position_reward(GRILL, own_top, OTHERS)).end_distribution()
        fails = 1 - ends.chance_at_least(min(GRILL))
        says(out, f"{line}    fails {fails:.1%} of turns")
    says(out, "fails 15.8% of turns", "fails 22.4% of turns")  # issue 12: 15.7 % / 22.3 % before


def test_nb4_how_often_the_threshold_and_greedy_bots_fail():
    threshold, greedy = float(threshold_fails(25)), float(greedy_fails())
    assert round(100 * threshold) == 38 and round(100 * greedy) == 19
    for where in (section(4, "The optimal bot wins most games"), answers(4)[3]):
        says(where, f"fails about {round(100 * threshold)} % of", f"about {round(100 * greedy)} % of")
        assert 0.4 < greedy / threshold < 0.6
        says(where, "about half as often")
        assert "fails rarely" not in where and "far less often" not in where


def test_nb4_answers():
    from henkit.henpen.odds import expected_worms

    ex = answers(4)
    assert len(ex) == 4
    says(ex[1], f"{expected_worms(GRILL, own_top=23, others_tops=OTHERS):+.3f} worms expected")
    # Exercise 1: which win-rate intervals overlap, read from the tournament's own table.
    table = output_after(4, 'run_tournament("henpen", specs, games=120')
    rows = re.findall(r"^(\w[\w ]*?)\s+120\s+[\d.]+\s+[\d.]+%\s+([\d.]+)%-([\d.]+)%", table,
                      flags=re.MULTILINE)
    assert len(rows) == 4
    for i, (a, a_lo, a_hi) in enumerate(rows):
        for b, b_lo, b_hi in rows[i + 1:]:
            apart = float(a_hi) < float(b_lo) or float(b_hi) < float(a_lo)
            says(ex[0], f"{a:>12} vs {b:<12} {'apart' if apart else 'overlap'}".rstrip())
