"""Three dashboards answer a student's clicks: placing hens in the barnyard game (06) shows each
hen where it was put and rescores the barnyard by the rules, the strategy arena (07) plays a
small seeded tournament, shows its table and charts, and plays the same games again for the
same seed, and the endgame explorer (09) sets up a typed position, works out its chance to win
when asked, and refuses a position the rules cannot reach in words."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TypeVar

import pytest
from playwright.sync_api import Locator, Page, expect

from .browsing import VoilaServer, open_dashboard_page, wait_for_widgets

pytestmark = pytest.mark.browser

T = TypeVar("T")

# A kernel that shares two cores with Voilà's refills (and a benchmark) may answer slowly.
ANSWER_S = 30.0

# A card in the hand as its button says it: 'Pa1 · 2 eggs', 'Pa1 · 2 eggs (selected)' when
# selected.
# HAND_CARD parses a label; HAND_NAME finds the buttons (Playwright hands the pattern to
# JavaScript, which has no (?P<name>...) groups).
HAND_CARD = re.compile(r"^(?P<code>(?P<breed>[A-Z][a-z]+)\d+) · (?P<eggs>\d+) eggs?")
HAND_NAME = re.compile(r"^[A-Z][a-z]+\d+ · \d+ eggs?")
# Where a cell of the grid is: its tooltip is the only place that says so.
CELL_AT = re.compile(r"row (?P<row>-?\d+), column (?P<col>-?\d+)")
NOT_DISPLAYED = "Error displaying widget"

# Every button of the grid, as (label, tooltip): what a student reads and hovers over.
GRID = """root => [...root.querySelectorAll('.widget-gridbox .widget-button')].map(
    b => [b.innerText.trim(), b.title])"""
# The rows of every table under an element, as lists of cell texts.
TABLE_ROWS = """root => [...root.querySelectorAll('tr')].map(
    r => [...r.cells].map(c => c.innerText.trim()))"""
# The charts under an element as plotly drew them (title, x and y of each trace); read in one
# call because a redrawn Output swaps a chart's element for a new one at any moment.
CHARTS = """root => [...root.querySelectorAll('.js-plotly-plot')].filter(p => p.data).map(p => ({
    title: (p.layout && p.layout.title && p.layout.title.text) || '',
    traces: p.data.map(t => ({x: [...(t.x || [])], y: [...(t.y || [])]}))}))"""
# Record every text a status line shows from now on: a rerun with the same seed ends on the same
# words as the run before it, so only a record of what came after the click tells it has ended.
RECORD_STATUS = """el => {
    window.__henkitStatuses = [];
    if (window.__henkitStatusWatch) window.__henkitStatusWatch.disconnect();
    const note = () => {
        const seen = window.__henkitStatuses, text = el.innerText.trim();
        if (seen[seen.length - 1] !== text) seen.push(text);
    };
    window.__henkitStatusWatch = new MutationObserver(note);
    window.__henkitStatusWatch.observe(el, {childList: true, subtree: true, characterData: true});
}"""


def wait_until(page: Page, check: Callable[[], T], what: str, timeout: float = ANSWER_S) -> T:
    """Poll `check` until it returns something truthy and return that; fail naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not seen in {timeout:.0f} s (last seen: {got!r})")
        page.wait_for_timeout(100)


def open_widget(page: Page, voila: VoilaServer, name: str, heading: str) -> Locator:
    """Open a dashboard and return its widget titled `heading`, failing clearly if it did not
    display (the page then says "Error displaying widget" where the widget should be)."""
    open_dashboard_page(page, voila, name)
    wait_for_widgets(page)
    title = page.get_by_role("heading", name=heading, exact=True)
    title.or_(page.get_by_text(NOT_DISPLAYED)).first.wait_for(timeout=60_000)
    body = page.locator("body").inner_text()
    # Name what precedes each failed widget: it tells which widget (or chart) is missing.
    failed = [body[max(0, m.start() - 120) : m.end()] for m in re.finditer(NOT_DISPLAYED, body)]
    shown = "\n---\n".join(failed)
    assert not failed, f"{name}: {len(failed)} widget(s) did not display:\n{shown}"
    # The widget is the innermost box holding its title (nested boxes hold other parts).
    return page.locator(".widget-vbox", has=title).last


# ----- dashboard 06: the barnyard game ---------------------------------------------------------


def hens(game: Locator) -> dict[tuple[int, int], str]:
    """The hens in your barnyard as the grid shows them: (row, column) -> card code."""
    found = {}
    for label, tooltip in game.evaluate(GRID):
        at = CELL_AT.search(tooltip)
        # A hen's cell is labelled with its card (and the rooster); empty cells, coops and the
        # cells offered for a placement ('+ Pa1', '✗') are not hens.
        code = re.fullmatch(r"([A-Z][a-z]+\d+)", label)
        if at and code:
            found[(int(at["row"]), int(at["col"]))] = code[1]
    return found


def score_lines(game: Locator) -> dict[str, int]:
    """The score table under "Your score": points of each rulebook step, and the total."""
    table = game.locator(".widget-html", has_text="Your score")
    header, *rows = table.evaluate(TABLE_ROWS)
    assert header[:2] == ["step", "points"], header  # a header row names the columns
    return {row[0]: int(row[1]) for row in rows if len(row) >= 2}


def chart_values(game: Locator) -> list[float] | None:
    """The bars of the score waterfall as drawn (six steps, then the total), or None."""
    charts = game.evaluate(CHARTS)
    return charts[0]["traces"][0]["y"] if charts else None


def hand(game: Locator) -> Locator:
    """The cards in your hand (hidden slots are not buttons a student can see)."""
    return game.get_by_role("button", name=HAND_NAME)


def draw_two_from_the_deck(game: Locator) -> None:
    """Draw twice from the deck, as the turn begins, waiting for each card to reach the hand."""
    for _ in range(2):
        held = hand(game).count()
        game.get_by_role("button", name=re.compile(r"^Draw from the deck")).click()
        expect(hand(game)).to_have_count(held + 1, timeout=ANSWER_S * 1000)


def select_card(game: Locator, card: Locator) -> re.Match[str]:
    """Click a card of the hand and wait until the widget marks it selected; return its label."""
    label = HAND_CARD.match(card.inner_text().strip())
    assert label, f"not a card label: {card.inner_text()!r}"
    card.click()
    status = game.get_by_role("status")
    expect(status).to_contain_text("Selected", timeout=ANSWER_S * 1000)
    selected = game.get_by_role(
        "button", name=re.compile(rf"^{label['code']} · .*\(selected\)$"))
    expect(selected).to_have_count(1)
    return label


def place_on_a_green_cell(game: Locator, code: str) -> tuple[int, int]:
    """Click a cell the widget offers for the selected card; return where the hen went.

    A cell at row or column -1 grows the barnyard up or left and renumbers every placed hen,
    so the first offered cell at row and column 0 or more is taken: the hen stays where chosen.
    """
    offered = game.get_by_role("button", name=f"+ {code}", exact=True)
    expect(offered.first).to_be_visible(timeout=ANSWER_S * 1000)
    for i in range(offered.count()):
        tooltip = offered.nth(i).get_attribute("title") or ""
        assert tooltip.endswith("(legal)"), f"a green cell that is not legal: {tooltip!r}"
        at = CELL_AT.search(tooltip)
        assert at, f"a green cell that does not say where it is: {tooltip!r}"
        cell = (int(at["row"]), int(at["col"]))
        if min(cell) >= 0:
            offered.nth(i).click()
            break
    else:
        pytest.fail(f"no offered cell for {code} keeps the barnyard's numbering")
    status = game.get_by_role("status")
    # The status line names the placement in the engine's words.
    expect(status).to_contain_text(
        f"You placed {code} at row {cell[0]}, column {cell[1]}.", timeout=ANSWER_S * 1000
    )
    return cell


def check_score_redrawn(page: Page, game: Locator, before: dict[str, int]) -> dict[str, int]:
    """Wait for the score table to change from `before`; check that its steps add up to its
    total and that the chart draws the same numbers; return the new table."""
    after = wait_until(
        page, lambda: (s := score_lines(game)) != before and s, "the score table to change"
    )
    steps = [p for step, p in after.items() if step != "total"]
    assert len(steps) == 6, f"the rulebook's six steps, then the total: {after}"
    assert sum(steps) == after["total"], f"the steps do not add up to the total: {after}"
    wait_until(
        page,
        lambda: chart_values(game) == [*steps, after["total"]],
        f"the score chart to draw {after}",
    )
    return after


def test_placing_a_hen_updates_the_barnyard_and_the_score(page: Page, voila: VoilaServer) -> None:
    """Two turns by clicking: each hen shows where it was put and the score follows the rules."""
    game = open_widget(page, voila, "06_placing_hens.ipynb", "Hens: your barnyard")
    status = game.get_by_role("status")
    # A dashboard deals each viewer a fresh seed: play the notebook's deal (seed 3: you start,
    # a same-breed card on turn 2).
    seed = game.get_by_role("textbox", name="Seed")
    seed.fill("3")
    seed.press("Enter")
    expect(status).to_contain_text("A new game with seed 3", timeout=ANSWER_S * 1000)
    expect(status).to_contain_text("Your turn: draw a card", timeout=ANSWER_S * 1000)
    chart_toggle = game.get_by_role("checkbox", name="Show the score chart")
    expect(chart_toggle).to_be_checked()  # the notebook shows the chart from the start
    assert hens(game) == {}
    score0 = score_lines(game)
    assert score0["total"] == 0 and set(score0.values()) == {0}, score0
    wait_until(page, lambda: chart_values(game) == [0] * 7, "the empty barnyard's score chart")

    # Turn 1: two cards from the deck, then the first card of the hand on the one cell offered.
    draw_two_from_the_deck(game)
    first = select_card(game, hand(game).first)
    held = hand(game).count()
    at1 = place_on_a_green_cell(game, first["code"])
    assert hens(game) == {at1: first["code"]}
    hen_cell = game.get_by_title(re.compile(rf" at row {at1[0]}, column {at1[1]}$"))
    expect(hen_cell).to_have_text(first["code"])
    expect(hand(game)).to_have_count(held - 1)
    score1 = check_score_redrawn(page, game, score0)
    # A lone hen is the largest group: it scores its eggs, as its card said in the hand.
    assert score1["largest group"] == int(first["eggs"]), score1

    # The checkbox hides the chart and brings it back with the same score.
    chart_toggle.uncheck()
    wait_until(page, lambda: game.locator(".js-plotly-plot").count() == 0, "the chart to go")
    chart_toggle.check()
    steps1 = [p for step, p in score1.items() if step != "total"]
    wait_until(
        page,
        lambda: chart_values(game) == [*steps1, score1["total"]],
        "the chart to come back",
    )

    # End the turn: discard a card of another breed (the same breed is kept to grow a group),
    # then let the bots play until it is your turn again.
    expect(status).to_contain_text("Now select a card to discard")
    others = [
        c for c in hand(game).all() if HAND_CARD.match(c.inner_text())["breed"] != first["breed"]
    ]
    assert others, "every card in hand is of the placed hen's breed: nothing else to discard"
    select_card(game, others[-1])
    game.get_by_role("button", name="Discard the selected card").click()
    expect(status).to_contain_text("You discarded", timeout=ANSWER_S * 1000)
    expect(hand(game)).to_have_count(4)
    game.get_by_role("button", name="Let bots play").click()
    expect(status).to_contain_text("Your turn: draw a card", timeout=ANSWER_S * 1000)
    assert hens(game) == {at1: first["code"]}, "the bots' moves changed your barnyard"

    # Turn 2: a card of the hen's breed beside it makes a group of two, which scores the eggs of
    # both cards (same breed may always touch).
    draw_two_from_the_deck(game)
    same = [
        c for c in hand(game).all() if HAND_CARD.match(c.inner_text())["breed"] == first["breed"]
    ]
    assert same, (
        f"no {first['breed']} card in hand on turn 2: the notebook's deal (its seed) changed, "
        "so this test must pick its second card another way"
    )
    second = select_card(game, same[0])
    at2 = place_on_a_green_cell(game, second["code"])
    assert hens(game) == {at1: first["code"], at2: second["code"]}
    assert abs(at1[0] - at2[0]) + abs(at1[1] - at2[1]) == 1, "an offered cell touches a hen"
    score2 = check_score_redrawn(page, game, score1)
    assert score2["largest group"] == int(first["eggs"]) + int(second["eggs"]), score2

    assert NOT_DISPLAYED not in page.locator("body").inner_text()
    assert page.log.problems() == {}


# ----- dashboard 07: the strategy arena --------------------------------------------------------


def set_number(field: Locator, value: int) -> None:
    """Type a number into an ipywidgets number field and commit it (Enter sends it)."""
    field.fill(str(value))
    field.press("Enter")
    expect(field).to_have_value(str(value))


def run_and_wait(page: Page, arena: Locator, games: int, seed: int) -> str:
    """Press Run tournament, wait until the status line says the run has ended, and return it."""
    page.evaluate(RECORD_STATUS, arena.get_by_role("status").locator("xpath=..").element_handle())
    arena.get_by_role("button", name="Run tournament").click()
    done = (f"Played {games} games (seed {seed}).", f"{games} games (seed {seed}): ")  # or read
    status = wait_until(
        page,
        lambda: next((t for t in page.evaluate("window.__henkitStatuses || []")
                      if t.startswith(done)), None),
        f"the status line to say {' or '.join(done)!r} after the click",
    )
    expect(arena.get_by_role("button", name="Run tournament")).to_be_enabled()
    return status


def results_table(arena: Locator) -> list[list[str]]:
    """The results table as rows of cell texts, the header row first."""
    return arena.locator(".widget-html", has_text="Win rate").evaluate(TABLE_ROWS)


def test_the_arena_plays_a_tournament_and_shows_the_results(page: Page, voila: VoilaServer) -> None:
    """A 6-game seeded tournament fills the progress bar, table and charts, and replays alike."""
    games, seed = 6, 4
    arena = open_widget(page, voila, "07_strategy_arena.ipynb", "Strategy arena")
    seats = arena.get_by_role("combobox", name=re.compile(r"^Seat \d+$"))
    bots = [seats.nth(i).input_value() for i in range(seats.count())]
    assert len(bots) >= 2, bots
    set_number(arena.get_by_role("spinbutton", name="Games"), games)
    set_number(arena.get_by_role("spinbutton", name="Seed"), seed)

    status = run_and_wait(page, arena, games, seed)
    assert status.startswith(f"Played {games} games (seed {seed}). Most wins: "), status  # played
    bar = arena.locator(".progress-bar")
    expect(bar).to_have_attribute("style", re.compile(r"width: 100%"))
    header, *rows = results_table(arena)
    assert header[:4] == ["Bot", "Games", "Wins", "Win rate"], header
    assert sorted(r[0] for r in rows) == sorted(bots)
    assert all(r[1] == str(games) for r in rows), rows  # seats rotate: every bot plays every game
    wins = [float(r[2]) for r in rows]
    assert sum(wins) == pytest.approx(games, abs=0.01), rows  # shared wins count as fractions
    for r, won in zip(rows, wins, strict=True):
        assert float(r[3].rstrip("%")) == pytest.approx(100 * won / games, abs=0.051), r

    charts = wait_until(
        page,
        lambda: (c := arena.evaluate(CHARTS)) and len(c) == 2 and c,
        "the win-rate and mean-score charts",
    )
    assert f"{games} games each" in charts[0]["title"], charts[0]["title"]
    for chart in charts:
        assert sorted(chart["traces"][0]["x"]) == sorted(bots), chart
    shown_rates = dict(zip(charts[0]["traces"][0]["x"], charts[0]["traces"][0]["y"], strict=True))
    for r, won in zip(rows, wins, strict=True):
        assert shown_rates[r[0]] == pytest.approx(won / games), (r, shown_rates)

    # The same seed gives the same games, so the kernel reads the rerun from henkit's results
    # cache (the one the server's kernels share) and shows the first run's table and charts.
    first_table = results_table(arena)
    status = run_and_wait(page, arena, games, seed)
    assert status.startswith(f"{games} games (seed {seed}): 0 played, {games} read from henkit's "
                             "results cache. Most wins: "), status
    assert results_table(arena) == first_table
    again = wait_until(
        page,
        lambda: (c := arena.evaluate(CHARTS)) and len(c) == 2 and c,
        "the charts of the rerun",
    )
    assert [c["traces"] for c in again] == [c["traces"] for c in charts]

    assert NOT_DISPLAYED not in page.locator("body").inner_text()
    assert page.log.problems() == {}


# ----- dashboard 09: the endgame explorer ---------------------------------------------------------


def test_the_endgame_explorer_sets_up_predicts_and_works_out(page: Page, voila: VoilaServer) -> None:
    """The start shows its size, not its chance; the chance comes on the button, the solver's;
    a typed position is drawn and worked out; an unreachable one is refused, the shown kept."""
    from henkit.henpen import State
    from henkit.henpen.endgame import win_chance

    explorer = open_widget(page, voila, "09_playing_to_win.ipynb", "Endgame explorer")
    status = explorer.get_by_role("status")
    expect(status).to_contain_text("The game can reach 207 positions from here.")
    assert "%" not in explorer.inner_text()  # predict first: no chance on the page yet

    explorer.get_by_role("button", name="Work out my chance to win").click()
    start = win_chance(State.new(2, grill=[21, 25], stacks=[[30, 22], [33]]))
    expect(status).to_contain_text(f"Your chance to win: {100 * start:.1f}%", timeout=ANSWER_S * 1000)

    boxes = {name: explorer.get_by_role("textbox", name=name, exact=True)
             for name in ("Grill", "Your stack", "Their stack")}
    for name, typed in (("Grill", "24"), ("Your stack", "26"), ("Their stack", "28")):
        boxes[name].fill(typed)
        boxes[name].press("Enter")  # the box sends its value on Enter (continuous_update off)
    explorer.get_by_role("button", name="Set up").click()
    expect(status).to_contain_text("The game can reach 14 positions from here.",
                                   timeout=ANSWER_S * 1000)
    drawn = explorer.get_by_role("img", name=re.compile(r"^serving \d+"))
    expect(drawn).to_have_count(3)
    assert drawn.nth(2).get_attribute("aria-label") == "serving 28, 2 worms, the top"
    explorer.get_by_role("button", name="Work out my chance to win").click()
    lead = win_chance(State.new(2, grill=[24], stacks=[[26], [28]]))
    change = 100 * (lead - start)
    expect(status).to_contain_text(
        f"Your chance to win: {100 * lead:.1f}% (the other player's: {100 * (1 - lead):.1f}%), "
        f"{abs(change):.1f} percentage points {'up' if change > 0 else 'down'}",
        timeout=ANSWER_S * 1000)
    log = explorer.get_by_role("region", name="Positions worked out, newest first")
    expect(log.locator("li")).to_have_count(2)

    boxes["Grill"].fill("36")
    boxes["Grill"].press("Enter")
    explorer.get_by_role("button", name="Set up").click()
    expect(status).to_contain_text("Not allowed: serving 36 is on the grill above every serving",
                                   timeout=ANSWER_S * 1000)
    expect(drawn).to_have_count(3)  # the shown position is kept
    assert NOT_DISPLAYED not in page.locator("body").inner_text()
    assert page.log.problems() == {}
