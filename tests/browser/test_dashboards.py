"""The published dashboards in a real browser: each loads offline with no error, shows its
widgets and charts with its teaching code hidden, and answers clicks; a screenshot of each is
saved in dashboards/screenshots/ for the README."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urljoin

import pytest

from .browsing import (
    SCREENSHOTS,
    SITE,
    dashboards,
    open_dashboard_page,
    show_whole_lesson,
    shown_code,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

# Buttons and text of the whole page as one snapshot, to wait for the next update of the page.
BUTTONS = """() => [...document.querySelectorAll('.widget-button')].map(
    (b, i) => ({i, name: b.innerText.trim(), enabled: !b.disabled && b.offsetParent !== null}))"""


def open_dashboard(page, voila, name: str, whole: bool = True) -> None:
    """Open a dashboard and wait until its widgets and its first chart are drawn; `whole`: with
    every part a student can open shown (its answers and Going further)."""
    open_dashboard_page(page, voila, name)
    wait_for_widgets(page)  # a refilling kernel may share the CPU: generous timeouts
    # Drawn, shown or not (a chart may wait for its prediction box, or behind Going further).
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=60_000)
    if whole:
        show_whole_lesson(page)


def click_and_wait(page, locator) -> None:
    """Click, then wait until the page's text changes (the kernel has answered)."""
    before = page.locator("body").inner_text()
    locator.click()
    page.wait_for_function("b => document.body.innerText !== b", arg=before, timeout=20_000)


def test_every_notebook_is_published_as_a_linked_dashboard():
    names = dashboards()
    # The appendix for developers is a notebook, not a dashboard.
    notebooks = sorted(p.name for p in (SITE.parent.parent / "notebooks").glob("*.ipynb")
                       if not p.name.startswith("appendix_"))
    assert names == notebooks
    assert not list(SITE.glob("appendix_*"))
    for name in names:
        link = SITE / name
        assert link.is_symlink(), f"{name} is a copy, not a link to notebooks/"
        assert link.resolve() == (SITE.parent.parent / "notebooks" / name).resolve()


def test_the_preheated_kernels_leave_their_tournaments_in_the_shared_results_cache(voila):
    # What makes a cold arena kernel fast: the kernels preheated at startup played the lesson's
    # seeded tournaments and stored them, and every later kernel of this server reads them.
    def entries() -> list[dict]:
        return [json.loads(p.read_text())
                for p in (voila.home / "cache" / "henkit").glob("*.json")]

    def read_cache() -> dict[tuple, int]:
        # Tournaments only: the same cache keeps other seeded runs, keyed by what they are.
        return {(e["key"]["game"], tuple(e["key"]["bots"]), e["key"]["seed"], e["key"]["rotate"]):
                len(e["games"]) for e in entries() if "game" in e["key"]}

    # The fixture waits for the preheated kernels to go quiet; on a slow machine give notebook
    # 7's last tournament (section 4, rotated identical bots) a little longer to be written.
    last = ("henpen", ("greedy", "greedy"), 1, True)
    deadline = time.monotonic() + 60
    while last not in read_cache() and time.monotonic() < deadline:
        time.sleep(0.5)
    stored = read_cache()
    assert stored[last] == 200
    assert stored[("henpen", ("optimal", "threshold:25", "greedy"), 1, True)] == 60  # notebook 7
    assert stored[("hens", ("lookahead", "greedy", "random"), 1, True)] == 60
    assert stored[("henpen", ("greedy", "greedy"), 1, False)] == 400
    assert ("henpen", ("greedy", "threshold:25"), 5, True) not in stored  # cache=False there
    # Lesson 3's million seeded turns and lesson 11's training are kept beside them.
    kept = {e["key"].get("what") for e in entries()}
    assert {"henpen.simulate_turns", "henpen.learning_curve"} <= kept


def test_the_landing_page_lists_every_dashboard(page, voila):
    page.goto(voila.url)
    links = page.locator("#dashboards a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [f"/voila/render/{name}" for name in dashboards()]
    titles = [links.nth(i).locator("strong").inner_text() for i in range(links.count())]
    assert all(not t.endswith(".ipynb") for t in titles), titles  # each has a real title
    assert page.log.problems() == {}


@pytest.mark.parametrize("name", dashboards())
def test_a_dashboard_loads_offline_cleanly_with_its_code_hidden(page, voila, name):
    open_dashboard(page, voila, name, whole=False)
    page.wait_for_load_state("networkidle")

    assert "Error displaying widget" not in page.locator("body").inner_text()
    assert page.log.problems() == {}
    assert page.locator(".widget-button, .widget-dropdown").first.is_visible()
    assert page.locator(".js-plotly-plot").count() >= 1
    assert shown_code(page, json.loads((SITE / name).read_text())) == []
    assert "Traceback" not in page.locator("body").inner_text()

    # The README's picture: the core path's main widget (the last shown widget with a button,
    # before any prediction is locked: what a student meets).
    top = ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output > .jupyter-widgets"
    main = page.locator(top, has=page.locator(".widget-button")).filter(visible=True).last
    main.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)  # plotly's transitions end before the picture
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{re.sub(r'[.]ipynb$', '', name)}.png")

    # The rules sheets the lesson links to (rules/<game>.md beside it) open as pages.
    text = "".join("".join(c["source"]) for c in json.loads((SITE / name).read_text())["cells"]
                   if c["cell_type"] == "markdown")
    linked = sorted(set(re.findall(r"\]\((rules/[a-z]+\.md)\)", text)))
    hrefs = sorted({a.get_attribute("href") for a in page.locator("a[href^='rules/']").all()})
    assert hrefs == linked
    for href in hrefs:
        sheet = page.request.get(urljoin(page.url, href))
        assert sheet.status == 200 and "rules sheet</title>" in sheet.text(), href


def test_rolling_changes_the_dice_and_choosing_a_symbol_updates_total_and_odds(page, voila):
    open_dashboard(page, voila, "03_expected_value_and_stopping.ipynb")
    roll = page.get_by_role("button", name="Roll the dice")
    tray = roll.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    header = tray.locator(":scope > .widget-html").first
    dice_box = tray.locator(":scope > .widget-hbox").nth(1)  # [Roll, New turn], the dice, ...
    dice = dice_box.locator(".widget-button:visible")
    assert dice_box.locator(".widget-button").count() == 8
    assert dice.count() == 0  # no dice rolled yet: the eight dice are hidden
    odds_before = tray.inner_text()

    click_and_wait(page, roll)
    for _ in range(100):  # the eight dice redraw one message at a time
        faces = [t.strip() for t in dice.all_inner_texts()]
        if faces and all(faces):
            break
        page.wait_for_timeout(100)
    assert all(faces), f"every die shows a face after the roll: {faces}"
    total_before = header.inner_text()

    chosen = dice_box.locator(".widget-button:not([disabled])").first
    chart_before = tray.locator(".js-plotly-plot").first.inner_html()
    click_and_wait(page, chosen)
    for _ in range(100):
        if header.inner_text() != total_before:
            break
        page.wait_for_timeout(100)
    assert header.inner_text() != total_before  # the total (and dice left) changed
    assert tray.inner_text() != odds_before
    chart = tray.locator(".js-plotly-plot").first  # redrawn: the Output gets a new figure
    for _ in range(100):
        if chart.count() and chart.inner_html() != chart_before:
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail("the outlook chart did not change after a symbol was chosen")
    assert page.log.problems() == {}


def test_a_whole_henpen_game_against_bots_can_be_played_by_clicking(page, voila):
    open_dashboard(page, voila, "04_playing_henpen.ipynb")
    # A simple player: stop when allowed, else roll, else take the first die offered; the bots
    # play when it is their turn.
    for _ in range(600):
        if page.get_by_text(re.compile(r"Game over")).count():
            break
        buttons = [b for b in page.evaluate(BUTTONS) if b["enabled"]]
        names = [b["name"] for b in buttons]
        choice = next(
            (
                b["i"]
                for prefix in ("Let bots play", "Stop", "Roll the dice")
                for b in buttons
                if b["name"].startswith(prefix)
            ),
            None,
        )
        if choice is None:  # a die to take: a button named by its face
            known = ("Next bot move", "New turn")
            choice = next((b["i"] for b in buttons if b["name"] and b["name"] not in known), None)
        assert choice is not None, f"nothing to click and the game is not over: {names}"
        click_and_wait(page, page.locator(".widget-button").nth(choice))
    else:
        pytest.fail("the game did not end in 600 clicks")
    assert page.get_by_text(re.compile(r"Game over: .+ (wins|share the win)")).is_visible()
    assert page.log.problems() == {}
