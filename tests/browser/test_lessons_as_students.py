"""The lessons as a student meets them, in Chromium: nothing on a dashboard gives a prediction
box's answer away before the box is locked, the text carries no code talk, and a box's answer
cells appear once it shows its answer (docs/writing-lessons.md).

A small notebook with every tag checks the template's mechanism on its own, both ways a page is
served (from a preheated kernel, and cold, its cells run after it has loaded); every dashboard
is then read as a student reads it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .browsing import (
    VoilaServer,
    dashboards,
    free_port,
    open_dashboard_page,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

# What a student can read now: the text of the page's cells that are shown.
VISIBLE = "() => document.getElementById('rendered_cells').innerText"
# The text of every cell a student could open (answers and "Going further" included), without
# the styles and scripts the page holds for the browser.
STUDENT_TEXT = """() => [...document.querySelectorAll('#rendered_cells [cell-index]')]
    .filter(c => !c.hasAttribute('data-hk-explorer'))
    .map(c => {
        const copy = c.cloneNode(true);
        copy.querySelectorAll('style, script').forEach(e => e.remove());
        return copy.textContent;
    }).join('\\n')"""
CODE_ELEMENTS = """() => [...document.querySelectorAll(
    '#rendered_cells [cell-index]:not([data-hk-explorer]) .jp-RenderedMarkdown code')]
    .map(c => c.textContent)"""
CODE_TALK = {
    "a Python value": re.compile(r"\b(True|False|None)\b"),
    "programmers' words": re.compile(r"\b(cells?|Python|notebooks?|kernels?|engine)\b", re.IGNORECASE),
    "a function call": re.compile(r"\b[A-Za-z]*_[A-Za-z0-9_]*\("),
    "a module name": re.compile(r"\b(henkit|numpy|ipywidgets)\b|\.py\b"),
}

TOY = {
    "cells": [
        ("markdown", [], "# A toy lesson\n\nRoll two dice."),
        ("code", [], ("from fractions import Fraction\nfrom henkit.widgets import Predict\n"
                      "Predict('How likely is a double six?', Fraction(1, 36), "
                      "key='double-six')")),
        ("code", ["answer:double-six"], "print('Worked out: 1 of 36 rolls, 1/36.')"),
        ("code", ["explorer"], "print('for the explorer: roll_outcomes(2)')"),
        ("markdown", ["going-further"], "## Going further\n\nFurther text about three dice."),
        ("code", [], "print('more further output')"),
    ],
}


def toy_notebook(folder: Path) -> Path:
    """A notebook with a keyed box, its answer cell, an explorer cell and "Going further"."""
    cells = []
    for kind, tags, text in TOY["cells"]:
        cell = {"cell_type": kind, "metadata": {"tags": tags}, "source": text}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3",
                                                      "display_name": "Python 3",
                                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "toy_lesson.ipynb"
    path.write_text(json.dumps(nb))
    return path


@pytest.fixture(scope="module")
def toy_servers(tmp_path_factory):
    """The toy notebook served twice: from preheated kernels, and cold (no pool)."""
    site = tmp_path_factory.mktemp("toy-site")
    toy_notebook(site)
    servers = [VoilaServer(port=free_port(), site=site, pool=2),
               VoilaServer(port=free_port(), site=site, pool=0)]
    try:
        for server in servers:
            server.start()
        servers[0].wait_for_pools(["toy_lesson.ipynb"])
        yield servers
    finally:
        for server in servers:
            server.stop()


def lock(page, box, typed: str | None = None) -> None:
    """Type (or pick) a prediction in a box, lock it and ask for the exact answer."""
    text = box.locator("input[type=text]")
    if text.count():
        placeholder = text.first.get_attribute("placeholder") or ""
        text.first.fill(typed or placeholder.removeprefix("e.g. ").strip() or "50")
        text.first.press("Tab")
    else:
        box.locator("input[type=radio]").first.check()
    box.get_by_role("button", name="Lock my prediction").click()
    answer = box.locator(".hk-answer")
    reveal = box.get_by_role("button", name="Show the exact answer")
    reveal.or_(answer).first.wait_for(timeout=20_000)
    if not answer.count() or not answer.first.is_visible():
        reveal.click()
    answer.first.wait_for(timeout=20_000)


@pytest.mark.parametrize("cold", [False, True], ids=["preheated", "cold"])
def test_the_template_keeps_answers_explorer_cells_and_going_further_back(
        toy_servers, page, cold):
    server = toy_servers[int(cold)]
    open_dashboard_page(page, server, "toy_lesson.ipynb")
    wait_for_widgets(page)
    page.get_by_text("Predict.").first.wait_for()
    before = page.evaluate(VISIBLE)
    assert "Roll two dice" in before and "How likely is a double six?" in before
    assert "Worked out" not in before  # the answer cell waits for the box
    assert "for the explorer" not in before
    assert "Further text" not in before and "more further output" not in before
    # The answer cell is on the page (it ran), only not shown.
    page.locator("[data-hk-answer='double-six']").get_by_text("Worked out").wait_for(
        state="attached")
    toggle = page.get_by_role("button", name="Going further")
    assert toggle.get_attribute("aria-expanded") == "false"

    box = page.locator(".hk-predict").first
    lock(page, box, "5")
    page.get_by_text("Worked out: 1 of 36 rolls").wait_for(state="visible")
    assert "Worked out" in page.evaluate(VISIBLE)
    box.get_by_role("button", name="Predict again").click()
    page.get_by_text("Worked out: 1 of 36 rolls").wait_for(state="hidden")

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    page.get_by_text("more further output").wait_for(state="visible")
    shown = page.evaluate(VISIBLE)
    assert "Further text about three dice" in shown and "for the explorer" not in shown
    toggle.click()
    page.get_by_text("Further text about three dice").wait_for(state="hidden")
    assert not page.log.problems(), page.log.problems()


# ----- every dashboard, read as a student reads it -------------------------------------------


def test_an_answer_is_found_in_any_of_its_forms():
    said = "You said 40 %; exact 30.6 % (11/36): 9.4 percentage points high."
    text = "It is 11/36. Or 0.3056, or 30.56 %, or 0.31. Not 0.5, 1/6 or 30 %; not 0.25."
    assert giveaways(said, text) == ["11/36", "0.3056", "30.56 %", "0.31"]
    assert giveaways("You said 2; exact 1.6447 worms: 0.4 worms low.", "about 1.64 worms") == [
        "1.64"]
    assert giveaways("You said 50 %; exact 38.0 % (0.3796...)", "fails 0.3796") == []  # no ": "
    assert giveaways("You said 50 %; exact 38.0 %: 12 points high.", "fails 37.96 % of") == [
        "37.96 %"]
    assert giveaways("You said 7; the answer is 8: not this time.", "8 and 0.8") == []


NUMBER = re.compile(r"(?<![\d./])(\d+)\.(\d+)(\s*%)?")


def giveaways(answer_text: str, text: str) -> list[str]:
    """Where `text` gives away the numeric answer a box says ('You said 40 %; exact 30.6 %
    (11/36): ...'): its fraction as written, or any decimal or percent that is the answer to
    the digits it is written with (0.3056, 30.6 %, 0.31 for 11/36). A choice's answer is a word
    that may well stand in the text: none."""
    m = re.search(r"exact (.*?): ", answer_text)
    if not m:
        return []
    exact, found = m.group(1), []
    fraction = re.search(r"(\d+)/(\d+)", exact)
    if fraction:
        num, den = fraction.groups()
        value, places = int(num) / int(den), 99
        if int(den) > 6:  # 1/6 and 1/2 are the lessons' vocabulary, not an answer given away
            found += [x.group(0) for x in re.finditer(
                rf"(?<![\d/.]){num}\s*/\s*{den}(?![\d/])", text)]
    else:
        shown = NUMBER.search(exact)
        if not shown:
            return []  # a whole number: too common in a lesson's text to look for
        whole, decimals, percent = shown.groups()
        value = float(f"{whole}.{decimals}") / (100 if percent else 1)
        places = len(decimals) + (2 if percent else 0)
    for token in NUMBER.finditer(text):
        whole, decimals, percent = token.groups()
        if len((whole + decimals).lstrip("0")) < 2:
            continue  # 0.5, 3.0: too few digits to give anything away
        t = float(f"{whole}.{decimals}") / (100 if percent else 1)
        digits = min(len(decimals) + (2 if percent else 0), places)
        if abs(t - value) <= 0.5 * 10 ** -digits + 1e-12:
            found.append(token.group(0))
    return found


@pytest.mark.parametrize("name", dashboards())
def test_a_dashboard_gives_no_answer_away_and_talks_no_code(voila, page, name):
    open_dashboard_page(page, voila, name)
    wait_for_widgets(page)
    before = page.evaluate(VISIBLE)
    text = page.evaluate(STUDENT_TEXT)
    talk = [f"{what}: {text[max(0, m.start() - 40):m.end() + 40]!r}"
            for what, pattern in CODE_TALK.items() for m in pattern.finditer(text)]
    talk += [f"inline code: {c!r}" for c in page.evaluate(CODE_ELEMENTS)]
    assert not talk, f"{name} talks code to students:\n" + "\n".join(talk[:20])

    further = page.get_by_role("button", name="Going further")
    if further.count():  # its boxes too (their answers were checked against the text before)
        further.click()
    boxes = page.locator(".hk-predict")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        box.scroll_into_view_if_needed()
        key = re.search(r"hk-revealed-([a-z0-9-]+)", box.get_attribute("class") or "")
        assert key is None, f"{name}: box {i} shows its answer before its lock"
        lock(page, box)
        said = box.locator(".hk-answer").inner_text()
        given = giveaways(said, before)
        assert given == [], f"{name}: box {i}'s answer ({said!r}) is on the page before: {given}"
        # The box's class comes a message after its answer.
        try:
            expect(box).to_have_class(re.compile(r"\bhk-revealed-"), timeout=10_000)
        except AssertionError:
            pytest.fail(f"{name}: box {i} has no key")
        revealed = re.search(r"hk-revealed-([a-z0-9-]+)", box.get_attribute("class") or "")
        cells = page.locator(f"[data-hk-answer~='{revealed.group(1)}']")
        for j in range(cells.count()):
            assert cells.nth(j).is_visible(), f"{name}: box {i}'s answer cell stays hidden"
