"""The Henpen lessons' predictions and their new section say what the engine says.

Lesson 3's backward induction by hand (issue 12 point 6): every chance, value and decision its
text and its printed output state is recomputed here from the dice's exact laws and the
engine's solver, and its two trees carry the same numbers. The prediction widgets of lessons
1-4 (issue 12 point 5): each is built by running the lesson's own code (the slow cells left
out), locked and revealed, and its exact answer must be the engine's; the numbers its
explanation states are recomputed; and no answer is printed above the widget that asks for it.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, sqrt
from pathlib import Path

import pytest

from henkit.display import DASHBOARD_ENV
from henkit.henpen import ROLL, State
from henkit.henpen.advice import advice
from henkit.henpen.batch import optimal_policy, threshold_policy
from henkit.henpen.dice import FACES, WORM, face_value, roll_outcomes, roll_probabilities
from henkit.henpen.distributions import face_count_distribution
from henkit.henpen.odds import bust_chance, expected_worms, position_reward, solve_turn
from henkit.henpen.rules import may_stop, takeable_faces, turn_ends_by_itself
from henkit.henpen.turnspace import TurnPoint, take_preference
from henkit.widgets import predict as predict_module

ROOT = Path(__file__).resolve().parents[1]
LESSONS = {1: "01_rolling_dice.ipynb", 2: "02_push_your_luck.ipynb",
           3: "03_expected_value_and_stopping.ipynb", 4: "04_playing_henpen.ipynb"}
# Cells too slow for a unit test (tournaments, games, large simulations) or that need a browser;
# none of them makes a prediction widget or anything a prediction cell uses.
SLOW = ("run_tournament(", "HenpenTable(", "game.run()", "win_rate_chart(", "DiceTray(",
        "for T in (21, 25):", "distance_band(", "chance_at_least_chart(",
        "tournament.summary()")  # lesson 4's exercise 1 reads the tournament's table


@cache
def cells(lesson: int) -> tuple[dict, ...]:
    """A lesson's cells."""
    return tuple(json.loads((ROOT / "notebooks" / LESSONS[lesson]).read_text("utf-8"))["cells"])


def source(cell: dict) -> str:
    """A cell's source as one string."""
    return "".join(cell["source"])


def fold(text: str) -> str:
    """Whitespace folded, so that a number may sit across a line break."""
    return " ".join(text.replace("&nbsp;", " ").split())


def says(haystack: str, *needles: str) -> None:
    """Assert that the text holds every needle (whitespace folded)."""
    for needle in needles:
        assert fold(needle) in fold(haystack), f"the lesson does not say {needle!r}"


def outputs(cell: dict) -> str:
    """What a code cell shows: printed text and plain-text results."""
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append("".join(out["text"]))
        plain = out.get("data", {}).get("text/plain")
        if plain:
            parts.append("".join(plain))
    return "\n".join(parts)


def plotly_outputs(cell: dict) -> list[dict]:
    """The plotly figures a code cell shows."""
    return [o["data"]["application/vnd.plotly.v1+json"] for o in cell.get("outputs", [])
            if "application/vnd.plotly.v1+json" in o.get("data", {})]


def index_of(lesson: int, needle: str, kind: str) -> int:
    """The position of the one cell of `kind` whose source holds `needle`."""
    found = [i for i, c in enumerate(cells(lesson)) if c["cell_type"] == kind and needle in source(c)]
    assert len(found) == 1, f"lesson {lesson}: {len(found)} {kind} cells hold {needle!r}"
    return found[0]


# -- lesson 3: backward induction by hand ---------------------------------------------------------

SMALL = TurnPoint(2, {1, 2, 3, WORM}, 21)


def group(roll: tuple[int, ...]) -> str:
    """The lesson's name for a roll of the last 2 dice (only 4s and 5s are new)."""
    fours, fives = roll[4 - 1], roll[5 - 1]
    return {(0, 0): "two old faces (bust)", (1, 0): "a 4 and an old face",
            (0, 1): "a 5 and an old face", (1, 1): "a 4 and a 5", (2, 0): "two 4s",
            (0, 2): "two 5s"}[fours, fives]


@cache
def small_case() -> tuple[dict[str, tuple[Fraction, Fraction]], object]:
    """Each outcome group of the 2 dice: (its exact chance, its value played best), and the
    exact solver, both from the engine."""
    optimal = solve_turn(position_reward(), exact=True)
    groups: dict[str, tuple[Fraction, Fraction]] = {}
    for roll, p in zip(roll_outcomes(2), roll_probabilities(2), strict=True):
        name = group(roll)
        value = optimal.value_of_roll(roll, SMALL)
        chance, seen = groups.get(name, (Fraction(0), value))
        assert seen == value, f"{name}: rolls of one group are worth the same"
        groups[name] = (chance + p, value)
    return groups, optimal


def test_the_small_case_by_the_engine():
    groups, optimal = small_case()
    reward = position_reward()
    sixth, old = Fraction(1, 6), Fraction(4, 6)
    assert {k: p for k, (p, _v) in groups.items()} == {
        "two old faces (bust)": old ** 2, "a 4 and an old face": 2 * sixth * old,
        "a 5 and an old face": 2 * sixth * old, "a 4 and a 5": 2 * sixth ** 2,
        "two 4s": sixth ** 2, "two 5s": sixth ** 2}
    assert sum(p for p, _v in groups.values()) == 1
    roll = sum(p * v for p, v in groups.values())
    assert roll == optimal.value_if_roll(SMALL) == Fraction(7, 6)
    assert optimal.value_if_stop(SMALL) == reward.stop_value[21] == 1
    assert optimal.best_decision(SMALL) == "roll"
    for face, total in ((4, 25), (5, 26)):
        moment = TurnPoint(1, {1, 2, 3, WORM, face}, total)
        assert optimal.value_if_stop(moment) == 2
        assert optimal.value_if_roll(moment) == sixth * reward.stop_value[30] == Fraction(1, 2)
        assert optimal.best_decision(moment) == "stop"
    assert all(v >= 2 for name, (_p, v) in groups.items() if "bust" not in name)


def test_the_small_case_text_states_the_engines_numbers():
    groups, optimal = small_case()
    worth = position_reward().stop_value
    start = index_of(3, "## Backward induction by hand: a small case", "markdown")
    solver = index_of(3, "## The optimal policy: backward induction", "markdown")
    assert start < solver  # by hand first, then the solver
    steps = fold(source(cells(3)[index_of(3, "**Backward induction** works back", "markdown")]))
    p = {k: v[0] for k, v in groups.items()}
    v = {k: v[1] for k, v in groups.items()}
    sixth = Fraction(1, 6)
    says(steps, f"Two 4s (chance {p['two 4s']}): you take both, total {21 + 8}, {worth[29]} worms",
         f"Two 5s (chance {p['two 5s']}): total {21 + 10}, {worth[31]} worms",
         f"(4/6)<sup>2</sup> = {p['two old faces (bust)']}, worth {v['two old faces (bust)']}",
         f"2 &times; 1/6 &times; 4/6 = {p['a 4 and an old face']}",
         f"total 25, 1 die left. Stopping there is worth {worth[25]} worms",
         f"chance {sixth}, total 30, {worth[30]} worms",
         f"1/6 &times; {worth[30]} = {sixth * worth[30]} worm",
         f"that moment is worth {v['a 4 and an old face']} worms",
         f"also {p['a 5 and an old face']}) is the same at total 26: worth {v['a 5 and an old face']}",
         f"A 4 and a 5 (chance {p['a 4 and a 5']}): take either, worth {v['a 4 and a 5']}")
    order = ["two old faces (bust)", "a 4 and an old face", "a 5 and an old face", "a 4 and a 5",
             "two 4s", "two 5s"]
    formula = " + ".join(f"{p[k]} &times; {v[k]}" for k in order)
    says(steps, f"{formula} = **{optimal.value_if_roll(SMALL)} worms**",
         f"Stopping is worth {optimal.value_if_stop(SMALL)} worm, rolling "
         f"{optimal.value_if_roll(SMALL)}: **{optimal.best_decision(SMALL)}**")
    bust = p["two old faces (bust)"]
    assert bust.denominator == 9 and (1 - bust).denominator == 9
    says(steps, f"You go bust {bust.numerator} times in 9",
         f"the other {(1 - bust).numerator} times in 9 you end with at least 2 worms")
    intro = fold(source(cells(3)[start]))
    says(intro, "three worms, a 3, a 2 and a 1: a total of **21**", "**2 dice** are left",
         f"serving 21 ({worth[21]} worm)")
    assert 3 * face_value(WORM) + 3 + 2 + 1 == SMALL.total and 6 + SMALL.dice_left == 8


def test_the_small_case_output_and_trees_carry_the_same_numbers():
    groups, optimal = small_case()
    cell = cells(3)[index_of(3, "outcomes = {", "code")]
    out = outputs(cell)
    for name, (p, v) in groups.items():
        m = re.search(rf"^{re.escape(name)} +chance +(\S+), worth (\S+)$", out, flags=re.MULTILINE)
        assert m and Fraction(m[1]) == p and Fraction(m[2]) == v, name
    # The by-hand steps (an explorer cell) agree with the solver (test_the_small_case_by_the_engine).
    says(out, "the chances add up to 1", "one die left at 25: stop 2, roll 1/2",
         f"4. stop {optimal.value_if_stop(SMALL)}, roll {optimal.value_if_roll(SMALL)}: "
         f"{optimal.best_decision(SMALL)}")
    one_die, whole = (fig for i in range(len(cells(3))) for fig in plotly_outputs(cells(3)[i])
                      if "tree_chart([" in source(cells(3)[i]))
    edges = sorted(a["text"] for a in whole["layout"]["annotations"])
    assert edges == sorted(["stop", "roll", *(str(p) for p, _v in groups.values())])
    texts = " ".join(t for trace in whole["data"] for t in trace.get("text") or [])
    says(texts, f"worth {optimal.value_if_roll(SMALL)} worms", "take 21: 1 worm",
         f"average {optimal.value_if_roll(SMALL)} worms")
    thick = next(t for t in whole["data"] if t.get("name") == "the better choice")
    assert len(thick["x"]) == 5  # one better choice: roll
    edges = sorted(a["text"] for a in one_die["layout"]["annotations"])
    assert edges == sorted(["stop", "roll", "1/6", "5/6"])
    says(" ".join(t for trace in one_die["data"] for t in trace.get("text") or []),
         "average 1/2 worm", "take 25: 2 worms", "a 5: total 30, 3 worms")


# -- the prediction widgets -------------------------------------------------------------------------


@cache
def greedy_fails() -> float:
    """P(fail) of the greedy bot's turn on a full grill, by a walk of the rules (most points
    taken each roll, a stop at the first serving): the engine has no greedy turn policy."""
    @cache
    def fails(kept: tuple[int, ...]) -> float:
        dice = 8 - sum(kept)
        total = sum(k * face_value(f) for f, k in zip(FACES, kept, strict=True))
        claimable = may_stop(kept) and total >= 21
        if claimable:
            return 0.0
        if turn_ends_by_itself(dice, sum(1 for k in kept if k)):
            return 1.0
        out = 0.0
        for roll, p in zip(roll_outcomes(dice), roll_probabilities(dice), strict=True):
            faces = takeable_faces(roll, kept)
            if not faces:
                out += float(p)
                continue
            face = min(faces, key=lambda f: take_preference(f, roll[f - 1]))
            out += float(p) * fails(tuple(k + (roll[f - 1] if f == face else 0)
                                          for f, k in zip(FACES, kept, strict=True)))
        return out

    return fails((0,) * 6)


def threshold_fails(target: int) -> float:
    """P(fail) of 'stop at target' on a full grill (the rules' count: below 21 fails)."""
    return 1 - threshold_policy(target).end_distribution().chance_at_least(21)


GRILL = (21, 22, 24, 25, 27, 28, 31, 32, 33, 35, 36)
OTHERS = {1: 26, 2: 29}


def first_roll() -> State:
    """Lesson 4's position after the first roll 1 3 4 4 4 5 W W."""
    start = State.new(3, grill=GRILL, stacks=[(23, 30), (34, 26), (29,)])
    return start.apply(ROLL).apply((1, 0, 1, 3, 1, 2))


def risk_cost() -> float:
    """What having serving 30 at risk costs lesson 4's turn, in expected worms."""
    return (expected_worms(GRILL, own_top=None, others_tops=OTHERS)
            - expected_worms(GRILL, own_top=30, others_tops=OTHERS))


def hundred_rolls_distances(p: Fraction, n: int = 100) -> tuple[Fraction, Fraction, float, Fraction]:
    """Lesson 1's 100 rolls of 8 dice, exactly: the frequency of at least one worm (chance p)
    is k/n with the binomial chance of k. Its distance from p in percentage points: the mean,
    the median (the least distance reached by half the runs), the root-mean-square distance and
    the chance of landing within it."""
    law = [(abs(Fraction(k, n) - p) * 100, comb(n, k) * p ** k * (1 - p) ** (n - k))
           for k in range(n + 1)]
    assert sum(q for _d, q in law) == 1
    mean = sum(d * q for d, q in law)
    rms = sqrt(sum(d * d * q for d, q in law))
    below, median = Fraction(0), None
    for d, q in sorted(law):
        below += q
        if below >= Fraction(1, 2):
            median = d
            break
    return mean, median, rms, sum(q for d, q in law if d <= rms)


def expected_answers() -> dict[int, list[tuple[str, str]]]:
    """Per lesson, in order: (a words of the widget's question, how its exact answer reads)."""
    q = predict_module.Question
    chance, reward = q(), position_reward()
    worms8 = face_count_distribution(8, WORM)
    p8 = 1 - sum(p for c, p in zip(roll_outcomes(8), roll_probabilities(8), strict=True)
                 if not c[WORM - 1])
    two = Fraction(sum(WORM in r for r in product(FACES, repeat=2)), 36)
    three = list(zip(roll_outcomes(3), roll_probabilities(3), strict=True))
    a_four = (sum(p for c, p in three if c[3]) / sum(p for c, p in three if any(c[:4])))
    ends = {T: threshold_policy(T).end_distribution() for T in range(21, 37)}
    best_t = max(ends, key=lambda T: ends[T].expectation(*reward.floats))
    at_25 = TurnPoint(2, {4, WORM}, 25)
    floats = solve_turn(reward)
    first = advice(first_roll())[0].action
    words = {1: "the 1", 3: "the 3", 4: "the 4s", 5: "the 5", WORM: "the worms"}
    cost = risk_cost()
    careful = optimal_policy(position_reward(GRILL, 30, OTHERS)).end_distribution()
    number = q("number", 0, 4, unit="worms", digits=3)
    return {
        1: [("With two dice", chance.exact_text(two)), ("among the 8 dice", chance.exact_text(p8)),
            ("which number of worms", str(max(range(9), key=worms8.__getitem__))),
            ("on average", q("number", 0, 50, unit="percentage points").exact_text(
                float(hundred_rolls_distances(p8)[0])))],
        2: [("How likely is a bust", chance.exact_text(bust_chance(3, {5, WORM}))),
            ("Right after a bust", "just as likely"),
            ("does not bust", chance.exact_text(a_four)),
            ("How many times as likely", q("number", 0, 100).exact_text(
                bust_chance(3, {WORM, 5}) / bust_chance(5, {WORM, 4})))],
        3: [("one die worth", q("number", 1, 5, unit="points", digits=2).exact_text(
                sum(Fraction(face_value(f), 6) for f in FACES))),
            ('Playing "stop at 25"', chance.exact_text(threshold_fails(25))),
            ("Which threshold", str(best_t)),
            ("Total 21", small_case()[1].best_decision(SMALL)),
            ("best possible play", number.exact_text(floats.value())),
            ("Total 25", floats.best_decision(at_25)),
            ("which face is best", words[floats.best_face((2, 1, 0, 3, 1, 1))])],
        4: [("Which face do you take", words[first.face]),
            ("serving 30 at risk cost", number.exact_text(cost)),
            ("whose turn fails more often",
             "the threshold bot's" if threshold_fails(25) > greedy_fails() else "the greedy bot's"),
            ("the best plan's turn fail", chance.exact_text(1 - careful.chance_at_least(min(GRILL))))],
    }


@pytest.fixture(scope="module")
def revealed() -> dict[int, list]:
    """Every prediction widget of lessons 1-4, made by the lesson's own code (slow cells left
    out), in a notebook kernel's setting, with a prediction locked and the answer revealed."""
    mp = pytest.MonkeyPatch()
    mp.delenv(DASHBOARD_ENV, raising=False)
    made: list = []
    init = predict_module.Predict.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    mp.setattr(predict_module.Predict, "__init__", recording)
    found = {}
    try:
        for lesson, name in LESSONS.items():
            made.clear()
            namespace: dict = {}
            for cell in cells(lesson):
                code = source(cell)
                if cell["cell_type"] != "code" or (
                        any(s in code for s in SLOW) and not code.startswith(("from", "import"))):
                    continue
                with redirect_stdout(io.StringIO()):  # what the lesson prints: nbval checks it
                    exec(compile(code, name, "exec"), namespace)  # noqa: S102 - the lesson's own code
            for widget in made:
                question = widget.question
                guess = (question.choices[0] if question.kind == "choice"
                         else "50" if question.kind == "chance" else str(question.low))
                assert widget.set_prediction(guess) and widget.lock()
                if widget.run_button is not None:
                    assert widget.run_once() is not None, widget.prompt
                assert widget.reveal() is not None, widget.prompt
            found[lesson] = list(made)
    finally:
        mp.undo()
    return found


@pytest.mark.slow
def test_every_prediction_reveals_the_engines_exact_answer(revealed):
    for lesson, expected in expected_answers().items():
        widgets = revealed[lesson]
        assert len(widgets) == len(expected), f"lesson {lesson}: {[w.prompt for w in widgets]}"
        for widget, (words, exact) in zip(widgets, expected, strict=True):
            assert words in widget.prompt, (lesson, widget.prompt)
            assert widget.score.exact == exact, (lesson, widget.prompt)
            assert widget.answer_text.startswith(widget.score.text)
            if widget.tally is not None:
                assert f"Your experiment: {widget.tally.hits} of {widget.tally.tries}" in \
                    widget.answer_text


def prediction_cells(lesson: int) -> list[int]:
    """The positions of a lesson's cells that make a prediction widget."""
    return [i for i, c in enumerate(cells(lesson)) if c["cell_type"] == "code" and "Predict(" in
            source(c)]


def test_every_prediction_widget_is_shown_and_no_answer_is_printed_above_it():
    answers_above = {  # what would give each answer away, printed before its widget
        1: ["11/36", "1288991/1679616", "78125/209952",
            f"{float(hundred_rolls_distances(1 - face_count_distribution(8, WORM)[0])[0]):.1f} points"],
        2: ["1/27", "just as likely", "7/16", None],
        3: ["10/3", f"{threshold_fails(25):.4f}", "best threshold: stop at", "7/6", "1.6447",
            "roll 2.167", "take the 4s (3"],
        4: ["+1.224", f"{risk_cost():.3f}", "fails about", "15.8%"],
    }
    for lesson, giveaways in answers_above.items():
        places = prediction_cells(lesson)
        assert len(places) == len(giveaways), lesson
        for i, giveaway in zip(places, giveaways, strict=True):
            shown = outputs(cells(lesson)[i])
            assert shown.startswith("Predict(children="), (lesson, i)  # the widget itself
            if giveaway is None:
                continue
            above = "\n".join(outputs(c) for c in cells(lesson)[:i] if c["cell_type"] == "code")
            assert giveaway not in above, f"lesson {lesson}: {giveaway!r} is printed above cell {i}"
            later = "\n".join(outputs(c) + source(c) for c in cells(lesson)[i:])
            assert giveaway in later, f"lesson {lesson}: {giveaway!r} is not shown at all"


def giveaways(lesson: int) -> dict[str, list[str]]:
    """Lessons 1 and 2: each box's key -> its exact answer in the forms a student could read
    it (fraction, percent, decimal), recomputed here."""
    if lesson == 1:
        worms8 = face_count_distribution(8, WORM)
        p8 = 1 - worms8[0]
        mean = float(hundred_rolls_distances(p8)[0])
        return {"two-dice-worm": ["11/36", "30.6%", "0.306"],
                "eight-dice-worm": [str(p8), f"{100 * float(p8):.1f}%", f"{float(p8):.3f}"],
                "most-worms": [str(worms8[1]), f"{100 * float(worms8[1]):.1f}%"],
                "hundred-rolls": [f"{mean:.1f} points", f"{mean:.2f}"]}
    bust = bust_chance(3, {5, WORM})
    three = list(zip(roll_outcomes(3), roll_probabilities(3), strict=True))
    four = sum(p for c, p in three if c[3]) / sum(p for c, p in three if any(c[:4]))
    return {"bust-three": [str(bust), f"{100 * float(bust):.1f}%", f"{float(bust):.3f}"],
            "no-memory": [],  # "just as likely" is one of the box's own choices
            "four-if-no-bust": [str(four), f"{100 * float(four):.1f}%", f"{float(four):.4f}"],
            "times-as-likely": [f"{bust / bust_chance(5, {4, WORM})} times"]}


@pytest.mark.parametrize("lesson", [1, 2])
def test_every_answer_stays_behind_its_box(lesson):
    """What a student reads before locking a box (markdown outside the collapsed answers, printed
    output; explorer cells left out) never states its answer, unless the cell is tagged to stay
    hidden until that box, or a later one, reveals its answer."""
    order = [key for i in prediction_cells(lesson)
             for key in re.findall(r'key="([^"]+)"', source(cells(lesson)[i]))]
    assert order == list(giveaways(lesson)), order
    for i, cell in enumerate(cells(lesson)):
        tags = cell.get("metadata", {}).get("tags", [])
        if "explorer" in tags:
            continue
        text = fold(re.sub(r"<details>.*?</details>", " ", source(cell), flags=re.DOTALL)
                    if cell["cell_type"] == "markdown" else outputs(cell)).replace(" %", "%")
        hidden = [t[len("answer:"):] for t in tags if t.startswith("answer:")]
        for key, forms in giveaways(lesson).items():
            if any(order.index(h) >= order.index(key) for h in hidden):
                continue
            for form in forms:
                assert form not in text, (f"lesson {lesson} cell {i} shows {key}'s answer {form!r} "
                                          f"before the box reveals it")


def test_lesson_1_states_the_hundred_rolls_distances_by_the_binomial_law():
    """Lesson 1's 100 rolls: the standard error is the root-mean-square distance, the mean and
    the median distance are smaller; every number its explanation, its printed answer and its
    text state is the exact binomial one."""
    p8 = 1 - face_count_distribution(8, WORM)[0]
    mean, median, rms, within = hundred_rolls_distances(p8)
    se = 100 * sqrt(float(p8 * (1 - p8)) / 100)
    assert abs(rms - se) < 1e-12  # the standard error is the root-mean-square distance
    assert median < mean < rms  # a typical run lands a little closer than the standard error
    box = cells(1)[index_of(1, "After 100 rolls of 8 dice", "code")]
    says(" ".join(re.findall(r'"([^"]*)"', source(box))),
         f"the distance is {float(mean):.1f} points on average",
         f"half the runs land within {float(median):.1f} points",
         f"The standard error, {se:.1f} points, is a little larger")
    answer = cells(1)[index_of(1, "law = distances_after(100)", "code")]
    assert "answer:hundred-rolls" in answer["metadata"]["tags"]
    says(outputs(answer), f"on average the frequency is {float(mean):.1f} points",
         f"half the runs are within {float(median):.1f} points",
         f"the standard error is {se:.1f} points, and {float(within):.0%} of runs are within it")
    text = source(cells(1)[index_of(1, "is the *root-mean-square* distance", "markdown")])
    says(text, "a typical run lands a little closer")
    assert "typical distance" not in fold(" ".join(source(c) for c in cells(1)))


def tags(cell: dict) -> list[str]:
    """A cell's tags (docs/writing-lessons.md: explorer, answer:<key>, going-further)."""
    return list(cell.get("metadata", {}).get("tags", []))


def giveaways_3_and_4() -> dict[int, dict[str, list[str]]]:
    """Per lesson and box key, how the box's answer reads when a cell prints or states it."""
    reward = position_reward()
    floats, exact = solve_turn(reward), small_case()[1]
    ends = {T: threshold_policy(T).end_distribution() for T in range(21, 37)}
    best_t = max(ends, key=lambda T: ends[T].expectation(*reward.floats))
    one_die = sum(Fraction(face_value(f), 6) for f in FACES)
    fails25 = threshold_fails(25)
    at_25 = TurnPoint(2, {4, WORM}, 25)
    best_face = floats.best_face((2, 1, 0, 3, 1, 1))
    values = {a.action.face: a.value for a in advice(first_roll())}
    careful = 1 - optimal_policy(position_reward(GRILL, 30, OTHERS)).end_distribution(
        ).chance_at_least(min(GRILL))
    return {
        3: {"one-die": [str(one_die), f"{float(one_die):.4f}"],
            "stop-at-25-fails": [f"{fails25:.4f}", f"{100 * fails25:.2f}"],
            "best-threshold": [f"The best threshold is {best_t}", f"best threshold: stop at {best_t}"],
            "total-21": [str(exact.value_if_roll(SMALL))],
            "best-play": [f"{floats.value():.4f}"],
            "total-25": [f"roll {floats.value_if_roll(at_25):.3f}"],
            "best-face": [f"take the {best_face}s (3", f"{floats.take_values((2, 1, 0, 3, 1, 1))[best_face]:.3f}"]},
        4: {"first-face": [f"{values[WORM]:+.3f}", f"{values[4]:+.3f}"],
            "risk-cost": [f"{risk_cost():.3f}"],
            "whose-fails": [f"fails about {round(100 * threshold_fails(25))}%"],
            "careful-fails": [f"{careful:.1%}"]},
    }


def test_lessons_3_and_4_state_each_answer_only_in_cells_its_box_reveals():
    """docs/writing-lessons.md: what prints or states a box's answer is tagged answer:<key> and
    stands after its box; no other cell a student sees (markdown outside a collapsed answer, or
    an output) states it in any form, before the box or after it."""
    for lesson, by_key in giveaways_3_and_4().items():
        boxes = {k: i for i, c in enumerate(cells(lesson)) for k in
                 re.findall(r"""\bkey\s*=\s*["']([a-z0-9-]+)["']""", source(c))}
        assert sorted(boxes) == sorted(by_key), lesson
        shown, revealed = [], {key: "" for key in by_key}
        for i, cell in enumerate(cells(lesson)):
            words = (re.sub(r"<details>.*?</details>", " ", source(cell), flags=re.DOTALL)
                     if cell["cell_type"] == "markdown" else outputs(cell))
            keys = [t[7:] for t in tags(cell) if t.startswith("answer:")]
            if "explorer" in tags(cell):
                continue
            if keys:
                assert all(boxes[k] < i for k in keys), f"lesson {lesson} cell {i} stands above its box"
                for k in keys:
                    revealed[k] += words
            else:
                shown.append(fold(words).replace(" %", "%"))
        seen = "\n".join(shown)
        for key, forms in by_key.items():
            for form in forms:
                assert form not in seen, f"lesson {lesson}: {form!r} ({key}) shows before its box reveals it"
            assert any(form in fold(revealed[key]).replace(" %", "%") for form in forms), (
                f"lesson {lesson}: no cell tagged answer:{key} shows {forms}")


def test_the_explanations_state_the_engines_numbers():
    def explained(lesson: int, words: str) -> str:
        cell = cells(lesson)[index_of(lesson, words, "code")]
        return fold(" ".join(re.findall(r'"([^"]*)"', source(cell))))

    worms8 = face_count_distribution(8, WORM)
    two = explained(1, "With two dice")
    hits = sum(WORM in r for r in product(FACES, repeat=2))
    says(two, f"{hits} of the 36 ordered rolls show a worm", "6 with a worm on the red die",
         f"Adding 1/6 + 1/6 = {int(2 * Fraction(1, 6) * 36)}/36")
    assert 6 + 6 - 1 == hits
    likeliest = sorted(range(9), key=worms8.__getitem__, reverse=True)
    assert likeliest[:3] == [1, 2, 0]  # one worm, then two, then none
    says(explained(1, "which number of worms"),
         f"One worm, with chance {worms8[1]} (about {100 * float(worms8[1]):.1f} %)",
         f"Two worms come next (about {100 * float(worms8[2]):.1f} %)",
         f"then no worm at all (about {100 * float(worms8[0]):.1f} %)",
         f"shows {sum(k * p for k, p in enumerate(worms8))} worms")
    says(explained(2, "How likely is a bust"), f"= {bust_chance(3, {5, WORM})}",
         f"with chance 2/6 = {Fraction(2, 6)}")
    three = list(zip(roll_outcomes(3), roll_probabilities(3), strict=True))
    a4 = sum(p for c, p in three if c[3])
    nb = sum(p for c, p in three if any(c[:4]))
    says(explained(2, "does not bust, how likely"), f"P(a 4) = {a4} and P(not bust) = {nb}",
         f"= ({a4}) / ({nb}) = {a4 / nb}")
    says(explained(2, "How many times as likely"), f"= {bust_chance(3, {5, WORM})}",
         f"= {bust_chance(5, {4, WORM})}",
         f"which is {bust_chance(3, {5, WORM}) / bust_chance(5, {4, WORM})} times smaller")
    says(explained(2, "Right after a bust"), f"busts with chance {bust_chance(3, {5, WORM})}")
    points = sum(face_value(f) for f in FACES)
    says(explained(3, "one die worth"), f"= {points}/6 = {Fraction(points, 6)}")
    says(explained(3, "Total 21"), f"rolling is worth {small_case()[1].value_if_roll(SMALL)} worms")
    bust2 = bust_chance(2, {4, WORM})
    says(explained(3, "Total 25"), f"{bust2.numerator} time in {bust2.denominator}")
    gain = float(solve_turn(position_reward()).value()) - max(
        threshold_policy(T).end_distribution().expectation(*position_reward().floats)
        for T in range(21, 37))
    assert 0.29 < gain < 0.38
    says(explained(3, "best possible play"), "about a third of a worm more")
    says(explained(3, "which face is best"), "The three 4s: 12 points and 5 dice left")
    values = {a.action.face: a.value for a in advice(first_roll())}
    says(explained(4, "Which face do you take"), f"{values[WORM]:+.3f}", f"{values[4]:+.3f}")
    says(explained(4, "whose turn fails more often"),
         f"about {round(100 * threshold_fails(25))} %", f"about {round(100 * greedy_fails())} %")
    says(explained(4, "serving 30 at risk cost"),
         f"costs {-position_reward(GRILL, 30, OTHERS).fail_value} worms")


def test_the_teacher_pages_give_the_boxes_exact_answers():
    for lesson, expected in expected_answers().items():
        page = (ROOT / "docs" / "teacher" / LESSONS[lesson].replace(".ipynb", ".md")).read_text("utf-8")
        boxes = page.split("### The prediction boxes", 1)[1].split("\n## ", 1)[0]
        rows = [line for line in boxes.splitlines() if line.startswith("| ") and "---" not in line]
        assert len(rows) == len(expected) + 1, f"lesson {lesson}: one row per box, and a header"
        for row, (_words, exact) in zip(rows[1:], expected, strict=True):
            assert f"| {exact} |" in row, f"lesson {lesson}: {row!r} should say {exact!r}"
        sheet = (ROOT / "docs" / "teacher" / "worksheets" / LESSONS[lesson].replace(".ipynb", ".md"))
        table = sheet.read_text("utf-8").split("prediction boxes on the dashboard", 1)[1]
        assert table.count("\n| ") - 1 >= len(expected) - 1  # a row to fill in per box (or so)
    groups, optimal = small_case()
    page = (ROOT / "docs" / "teacher" / "03_expected_value_and_stopping.md").read_text("utf-8")
    worked = page.split("### Backward induction by hand", 1)[1]
    p = {k: v[0] for k, v in groups.items()}
    says(worked, f"two 4s ({p['two 4s']}) total 29, 3 worms", f"a bust ({p['two old faces (bust)']}) 0",
         f"a 4 and an old face ({p['a 4 and an old face']})", f"a 4 and a 5 ({p['a 4 and a 5']}): 2",
         f"= {optimal.value_if_roll(SMALL)} worms, more than the {optimal.value_if_stop(SMALL)} worm")
