"""The dashboards for every viewer (issue 12, point 3): axe-core finds no violation of any impact
on any dashboard, before and after what a student does there (a roll, a placement, a bot move,
a tournament), and a Henpen turn and a Hens placement can be played with the keyboard alone.

axe-core comes inside axe-playwright-python's wheel (nothing is fetched). Every rule runs,
colour contrast and landmarks included; nothing is excluded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .browsing import (
    VoilaServer,
    dashboards,
    open_dashboard_page,
    show_whole_lesson,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

# A kernel sharing two cores with Voilà's refills may answer slowly.
ANSWER_MS = 30_000
# Every chart an Output holds is drawn (plotly.js loads after the widgets are usable).
CHARTS_DRAWN = """() => [...document.querySelectorAll('.henkit-chart')]
    .every(c => c.querySelector('.main-svg'))"""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (every rule, every impact)."""
    from axe_playwright_python.sync_playwright import Axe

    return Axe().run(page).response["violations"]


def report(found: list[dict[str, Any]], nodes: int = 3) -> str:
    """The violations in words: rule, impact, help, and the first nodes' targets."""
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} nodes]")
        for node in v["nodes"][:nodes]:
            summary = (node.get("failureSummary") or "").replace("\n", " | ")
            lines.append(f"    {node['target']}: {summary[:300]}")
    return "\n".join(lines)


def check_axe(page: Page, where: str) -> None:
    """Fail listing every axe violation found on the page in its current state."""
    found = violations(page)
    assert not found, f"axe-core on {where}:\n{report(found)}"


def open_usable(page: Page, voila: VoilaServer, name: str) -> None:
    """Open a dashboard and wait until its widgets show and every chart is drawn."""
    open_dashboard_page(page, voila, name)
    wait_for_widgets(page, timeout=120_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)


def status_of(widget) -> str:
    """The text of a widget's status line."""
    return widget.get_by_role("status").inner_text().strip()


# ----- what a student does on each dashboard ---------------------------------------------------


def roll(page: Page) -> str:
    """Press the first dice tray's Roll button; wait for its status line to say the roll."""
    button = page.get_by_role("button", name="Roll the dice").first
    tray = button.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    button.click()
    expect(tray.get_by_role("status")).to_contain_text(
        re.compile(r"Rolled |went bust|bust"), timeout=ANSWER_MS)
    return "after a roll"


def bot_move(page: Page) -> str:
    """Play your turn at the Henpen table by clicking (roll, take the first die offered, until
    you may stop or go bust), then let the bot make one move."""
    # The table's own status line: the nearest one around its Next bot move button.
    status = page.get_by_role("button", name="Next bot move").locator(
        "xpath=ancestor::div[.//*[@role='status']][1]").get_by_role("status").first
    for _ in range(30):
        bots = page.get_by_role("button", name="Next bot move")
        if bots.is_enabled():
            break
        stop = page.get_by_role("button", name=re.compile(r"^Stop"))
        if stop.count() and stop.first.is_visible() and stop.first.is_enabled():
            stop.first.click()
        elif page.get_by_role("button", name="Roll the dice").is_enabled():
            page.get_by_role("button", name="Roll the dice").click()
        else:
            page.locator(".hk-die.hk-live:not([disabled])").first.click()
        page.wait_for_timeout(300)
    before = status.inner_text()
    page.get_by_role("button", name="Next bot move").click()
    expect(status).not_to_have_text(before, timeout=ANSWER_MS)
    return "after a bot move"


def placement(page: Page) -> str:
    """Draw two cards, select the first, place it on the first cell offered."""
    game = page.locator(".widget-vbox", has=page.get_by_role(
        "heading", name="Hens: your barnyard", exact=True)).last
    status = game.get_by_role("status")
    # A dashboard deals each viewer a fresh seed: the bots may play first.
    expect(status).to_contain_text(re.compile(r"Your turn: draw a card|is to play"),
                                   timeout=ANSWER_MS)
    if "is to play" in status.inner_text():
        game.get_by_role("button", name="Let bots play").click()
        expect(status).to_contain_text("Your turn: draw a card", timeout=ANSWER_MS)
    hand = game.get_by_role("button", name=re.compile(r"^[A-Z][a-z]+\d+ · \d+ eggs?"))
    for held in (hand.count(), hand.count() + 1):
        game.get_by_role("button", name=re.compile(r"^Draw from the deck")).click()
        expect(hand).to_have_count(held + 1, timeout=ANSWER_MS)
    code = hand.first.inner_text().split(" ")[0]
    hand.first.click()
    expect(status).to_contain_text("Selected", timeout=ANSWER_MS)
    game.get_by_role("button", name=f"+ {code}", exact=True).first.click()
    expect(status).to_contain_text(f"You placed {code} at", timeout=ANSWER_MS)
    page.wait_for_function(CHARTS_DRAWN, timeout=ANSWER_MS)
    return "after a placement"


def tournament(page: Page) -> str:
    """Run the arena's tournament (the lesson's settings) and wait for its results."""
    arena = page.locator(".widget-vbox", has=page.get_by_role(
        "heading", name="Strategy arena", exact=True)).last
    arena.get_by_role("spinbutton", name="Games").fill("6")
    arena.get_by_role("spinbutton", name="Games").press("Enter")
    arena.get_by_role("button", name="Run tournament").click()
    expect(arena.get_by_role("status")).to_contain_text(
        re.compile(r"Most wins|games \(seed \d+\): "), timeout=120_000)
    expect(arena.get_by_role("button", name="Run tournament")).to_be_enabled()
    page.wait_for_function(
        "() => document.querySelectorAll('.henkit-chart .main-svg').length >= 2", timeout=60_000)
    page.wait_for_function(CHARTS_DRAWN, timeout=ANSWER_MS)
    return "after a tournament"


def predict(page: Page) -> str:
    """Make the first prediction of the page (the box's own example, or the first choice), lock
    it, run its experiment once when it has one, and show the exact answer."""
    widget = page.locator(".hk-predict").first
    widget.scroll_into_view_if_needed()
    box = widget.get_by_role("textbox", name="Prediction")
    if box.count():
        example = box.get_attribute("placeholder").removeprefix("e.g. ")
        box.fill(example)
    else:
        widget.get_by_role("radio").first.check()
    lock = widget.get_by_role("button", name="Lock my prediction")
    expect(lock).to_be_enabled(timeout=ANSWER_MS)
    lock.click()
    reveal = widget.get_by_role("button", name="Show the exact answer")
    expect(reveal).to_be_visible(timeout=ANSWER_MS)
    runs = widget.locator(".hk-predict-run")
    if runs.count() and runs.first.is_visible():
        before = widget.inner_text()
        runs.first.click()
        page.wait_for_function("([el, b]) => el.innerText !== b",
                               arg=[widget.element_handle(), before], timeout=ANSWER_MS)
    reveal.click()
    expect(widget.get_by_role("region", name=re.compile("^The exact"))).to_be_visible(
        timeout=ANSWER_MS)
    return "after a prediction, its experiment and the exact answer"


ACTIONS: dict[str, Callable[[Page], str]] = {
    "01_rolling_dice.ipynb": roll,
    "02_push_your_luck.ipynb": roll,
    "03_expected_value_and_stopping.ipynb": roll,
    "04_playing_henpen.ipynb": bot_move,
    "05_hens_deck_and_drawing.ipynb": placement,
    "06_placing_hens.ipynb": placement,
    "07_strategy_arena.ipynb": tournament,
    "10_spread_risk_and_waiting.ipynb": predict,
}


@pytest.mark.parametrize("name", dashboards())
def test_axe_finds_no_violation_on_a_dashboard_before_and_after_a_move(
    page: Page, voila: VoilaServer, name: str
) -> None:
    open_usable(page, voila, name)
    check_axe(page, f"{name}, usable")
    # Then everything a student can open (every answer, Going further), and a move there.
    show_whole_lesson(page)
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)
    action = ACTIONS.get(name)
    state = action(page) if action is not None else "with every part opened"
    check_axe(page, f"{name}, {state}")
    assert page.log.problems() == {}


# ----- the keyboard alone ----------------------------------------------------------------------

# What has the keyboard focus: its words, classes, the name screen readers hear, and where it is.
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    return {text: (e.innerText || '').trim(), cls: [...e.classList], tag: e.tagName,
            type: e.type || '', label: e.getAttribute('aria-label') || '',
            disabled: !!e.disabled, title: e.title || '',
            inside: !!e.closest('[data-keyboard-widget]')};
}"""


def focus(page: Page, want: Callable[[dict], bool], what: str, key: str = "Tab",
          limit: int = 400) -> dict:
    """Press `key` (Tab or Shift+Tab) until the focused element is what `want` accepts."""
    seen = []
    for _ in range(limit):
        page.keyboard.press(key)
        got = page.evaluate(FOCUSED)
        if got and want(got):
            return got
        if got:
            seen.append(got["text"][:30] or got["tag"])
    pytest.fail(f"{what}: not reached with {limit} presses of {key} (last: {seen[-8:]})")


def mark_widget(page: Page, locator) -> None:
    """Mark a widget so that `focus` can tell its controls from other widgets' ones."""
    locator.evaluate("el => el.setAttribute('data-keyboard-widget', '')")


def changed_status(page: Page, status, before: str) -> str:
    """Wait until a status line differs from `before`; return its new text."""
    expect(status).not_to_have_text(before, timeout=ANSWER_MS)
    return status.inner_text().strip()


TOOK = re.compile(r"Took the \S+ \((?P<n>\d+) × (?P<v>\d+) = (?P<gain>\d+)\): "
                  r"total (?P<total>\d+), (?P<left>\d+) dice left\.")


def test_a_henpen_turn_is_played_with_the_keyboard_alone(page: Page, voila: VoilaServer) -> None:
    """Dashboard 3's dice tray: Tab to Roll and Enter, Tab to a die and Space, and so on until
    the turn ends in a stop or a bust; the status line follows each key as the engine says."""
    open_usable(page, voila, "03_expected_value_and_stopping.ipynb")
    show_whole_lesson(page)  # its game may wait behind a box or Going further
    # The first tray a keyboard reaches from the top of the page.
    page.locator("body").evaluate("el => el.focus()")
    got = focus(page, lambda f: f["text"] == "Roll the dice", "the Roll button")
    # The tray: the innermost box around the Roll button that holds a status line.
    page.evaluate("""() => {
        let el = document.activeElement.parentElement;
        while (!el.querySelector('[role=status]')) el = el.parentElement;
        el.setAttribute('data-keyboard-widget', '');
    }""")
    tray = page.locator("[data-keyboard-widget]")
    status = tray.get_by_role("status")
    header = tray.locator(":scope > .widget-html").first
    total, dice_left = 0, 8
    expect(header).to_contain_text("total 0, 8 dice left")

    def roll_key() -> bool:
        """Enter on the focused Roll button; True while the turn goes on."""
        before = status.inner_text().strip()
        page.keyboard.press("Enter")
        text = changed_status(page, status, before)
        if text.startswith("Rolled "):
            rolled = re.findall(r"(\d+) × ", text)
            assert sum(map(int, rolled)) == dice_left, f"{dice_left} dice rolled: {text}"
            return True
        assert "bust" in text.lower(), f"a roll either shows the dice or goes bust: {text}"
        return False

    assert got["text"] == "Roll the dice"
    going = roll_key()
    if going:
        # Every drawn die has a name for screen readers: 'die showing 3', 'die showing a worm'.
        shown = tray.locator(".hk-die:visible")
        named = tray.get_by_role("button", name=re.compile(r"^die showing (a worm|[1-5])$"))
        expect(named).to_have_count(shown.count())
        assert shown.count() == dice_left
    moves = 1
    while going and moves < 40:
        # Tab to the first die that may be taken (the dice come after Roll and New turn).
        focus(page, lambda f: f["inside"] and "hk-live" in f["cls"] and not f["disabled"],
              "a die to take")
        before = status.inner_text().strip()
        page.keyboard.press("Space")
        text = changed_status(page, status, before)
        moves += 1
        took = TOOK.search(text)
        if took is None:  # taking the last dice without a worm ends the turn
            assert re.search(r"bust|fail|Press New turn|turn", text, re.IGNORECASE), text
            break
        assert int(took["n"]) * int(took["v"]) == int(took["gain"]), text
        assert int(took["total"]) == total + int(took["gain"]), (total, text)
        assert int(took["left"]) == dice_left - int(took["n"]), (dice_left, text)
        total, dice_left = int(took["total"]), int(took["left"])
        expect(header).to_contain_text(f"total {total}, {dice_left} dice left")
        stops = tray.get_by_role("button", name=re.compile(r"^Stop"))
        if stops.count() and any(s.is_visible() and s.is_enabled() for s in stops.all()):
            # Stop buttons come after the dice: Tab on to the first one, Enter claims it.
            focus(page, lambda f: f["inside"] and f["text"].startswith("Stop"), "a Stop button")
            before = status.inner_text().strip()
            page.keyboard.press("Enter")
            text = changed_status(page, status, before)
            assert re.search(rf"\b{total}\b", text), f"the stop names the total {total}: {text}"
            break
        # Back up to Roll (before the dice) and roll again.
        focus(page, lambda f: f["inside"] and f["text"] == "Roll the dice", "Roll", "Shift+Tab")
        going = roll_key()
        moves += 1
    assert moves < 40, "the turn did not end"
    expect(header).to_contain_text("Turn over")
    expect(status).to_contain_text("Press New turn")
    assert page.log.problems() == {}


def test_a_hens_placement_is_made_with_the_keyboard_alone(page: Page, voila: VoilaServer) -> None:
    """Dashboard 6: type the notebook's seed (3), draw two cards with Enter, select a card with
    Space and place it with Enter; the status line says each step in the engine's words."""
    open_usable(page, voila, "06_placing_hens.ipynb")
    show_whole_lesson(page)  # its game may wait behind a box or Going further
    game = page.locator(".widget-vbox", has=page.get_by_role(
        "heading", name="Hens: your barnyard", exact=True)).last
    mark_widget(page, game)
    status = game.get_by_role("status")
    page.locator("body").evaluate("el => el.focus()")
    focus(page, lambda f: f["inside"] and f["tag"] == "INPUT" and f["type"] == "text",
          "the Seed box")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(status).to_contain_text("A new game with seed 3", timeout=ANSWER_MS)
    expect(status).to_contain_text("Your turn: draw a card", timeout=ANSWER_MS)

    hand = game.get_by_role("button", name=re.compile(r"^[A-Z][a-z]+\d+ · \d+ eggs?"))
    held = hand.count()
    for i in range(2):
        focus(page, lambda f: f["inside"] and f["text"].startswith("Draw from the deck")
              and not f["disabled"], "Draw from the deck")
        page.keyboard.press("Enter")
        expect(hand).to_have_count(held + i + 1, timeout=ANSWER_MS)
        expect(status).to_contain_text("You drew", timeout=ANSWER_MS)
    expect(status).to_contain_text("from the deck", timeout=ANSWER_MS)

    card = focus(page, lambda f: f["inside"] and re.match(r"^[A-Z][a-z]+\d+ · ", f["text"])
                 is not None, "a card in the hand", "Shift+Tab")
    code = card["text"].split(" ")[0]
    page.keyboard.press("Space")
    expect(status).to_contain_text("Selected ", timeout=ANSWER_MS)
    expect(game.get_by_role("button", name=re.compile(rf"^{code} · .*\(selected\)$"))).to_have_count(1)

    offered = focus(page, lambda f: f["inside"] and f["text"] == f"+ {code}",
                    f"a cell offered for {code}")
    at = re.search(r"row (-?\d+), column (-?\d+)", offered["title"])
    assert at, offered
    page.keyboard.press("Enter")
    expect(status).to_contain_text(
        f"You placed {code} at row {at[1]}, column {at[2]}.", timeout=ANSWER_MS)
    assert page.log.problems() == {}
