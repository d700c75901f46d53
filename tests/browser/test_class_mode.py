"""Class mode in a real browser: two viewers of one dashboard get dice of their own, and both
viewers' rolls reach the class board, counted right, without anyone clicking the board.

One Voilà of this test's own (started and stopped here) serves dashboard 1 (two preheated
kernels, one per viewer) and the class board (dashboard 8), with the class pool made by
serve.sh in a data folder of this test's: no other test's rolls are on its board.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .browsing import (
    SITE,
    VIEWPORT,
    PageLog,
    VoilaServer,
    free_port,
    open_dashboard_page,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

LESSON = "01_rolling_dice.ipynb"
BOARD = "08_class_board.ipynb"
ROLLS = 3  # first rolls of a turn each viewer makes
ANSWER_S = 60.0  # a kernel sharing two cores with a second one and two browsers may be slow


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[VoilaServer, Path]]:
    """Voilà serving dashboards 1 and 8 with a class pool of its own; the pool's file."""
    site = tmp_path_factory.mktemp("class-site")
    for name in (LESSON, BOARD):
        (site / name).symlink_to((SITE / name).resolve())
    data = tmp_path_factory.mktemp("class-data")
    server = VoilaServer(port=free_port(), site=site, pool=2, data=data).start()
    try:
        server.wait_for_pools([LESSON, BOARD])
        server.wait_until_quiet()
        pools = sorted(data.glob("*.sqlite3"))
        assert pools, f"serve.sh made no class pool in {data}:\n{server.log()}"
        yield server, pools[0]
    finally:
        server.stop()


def rolls_by_page(pool: Path) -> dict[str, list[tuple[int, ...]]]:
    """Each page's first rolls (faces 1-5 and worms of each roll of 8 dice), in order."""
    with sqlite3.connect(f"file:{pool}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT page, ones, twos, threes, fours, fives, worms FROM henkit_records"
            " WHERE kind = 'roll' AND taken = 0 AND dice = 8 ORDER BY id").fetchall()
    conn.close()
    found: dict[str, list[tuple[int, ...]]] = {}
    for page, *counts in rows:
        found.setdefault(page, []).append(tuple(counts))
    return found


def roll_first(page: Page, again: bool) -> None:
    """Roll a turn's first 8 dice, as a student clicks; `again`: first start a new game with a
    new seed (New seed), so that this roll is a first roll too."""
    tray = page.locator(".widget-vbox", has=page.get_by_role("button", name="Roll the dice")).last
    status = tray.get_by_role("status").first
    if again:
        before = status.inner_text()
        tray.get_by_role("button", name="New seed").click()
        expect(status).not_to_have_text(before, timeout=ANSWER_S * 1000)
    before = status.inner_text()
    tray.get_by_role("button", name="Roll the dice").click()
    expect(status).not_to_have_text(before, timeout=ANSWER_S * 1000)


def wait_for_pool(pool: Path, want: int, timeout: float = ANSWER_S) -> dict[str, list]:
    """The pool's first rolls once it holds `want` of them (the pages write on a thread)."""
    deadline = time.monotonic() + timeout
    while True:
        found = rolls_by_page(pool)
        if sum(map(len, found.values())) >= want or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def counts_line(page: Page) -> str:
    """The class board's counts line ('2 student pages · 6 rolls · ...')."""
    line = page.get_by_text(re.compile(r"student pages? ·")).first
    return line.inner_text() if line.count() else ""


def test_two_viewers_get_their_own_dice_and_the_board_counts_both(
        class_server: tuple[VoilaServer, Path], chromium) -> None:
    """Two viewers open dashboard 1 at the same time: different seeds, different dice. Their
    rolls are in the class pool under two anonymous pages, and the class board, opened by a
    third viewer, shows 2 student pages and every roll; a roll made while the board is open
    appears on it by itself."""
    server, pool = class_server
    contexts = [chromium.new_context(viewport=VIEWPORT) for _ in range(3)]
    try:
        viewers = [c.new_page() for c in contexts[:2]]
        logs = [PageLog(server.url).attach(p) for p in viewers]
        for page in viewers:
            open_dashboard_page(page, server, LESSON)
        seeds = []
        for i, page in enumerate(viewers):
            wait_for_widgets(page)
            box = page.get_by_role("textbox", name="Seed").first
            try:
                box.wait_for(timeout=ANSWER_S * 1000)
            except PlaywrightTimeout:
                pytest.fail(f"viewer {i + 1} shows no seed box; the page shows:\n"
                            f"...{page.locator('body').inner_text()[-2500:]}\n{server.log()[-3000:]}")
            seeds.append(box.input_value())
        assert all(s.isdigit() for s in seeds), seeds
        assert seeds[0] != seeds[1], f"both viewers got seed {seeds[0]}"

        for i in range(ROLLS):
            for page in viewers:
                roll_first(page, again=i > 0)
        found = wait_for_pool(pool, 2 * ROLLS)
        assert sorted(map(len, found.values())) == [ROLLS, ROLLS], found
        first, second = found.values()
        assert first != second, f"the two viewers rolled the same dice: {first}"

        board = contexts[2].new_page()
        board_log = PageLog(server.url).attach(board)
        open_dashboard_page(board, server, BOARD)
        wait_for_widgets(board)
        want = f"2 student pages · {2 * ROLLS} rolls"
        expect(board.get_by_text(want).first).to_be_visible(timeout=ANSWER_S * 1000)

        # One more roll while the board is open: it shows up with no click on the board.
        began = time.monotonic()
        roll_first(viewers[0], again=True)
        more = f"2 student pages · {2 * ROLLS + 1} rolls"
        expect(board.get_by_text(more).first).to_be_visible(timeout=ANSWER_S * 1000)
        print(f"\nroll to class board in the browser: {time.monotonic() - began:.1f} s "
              "(click, kernel, pool, board refresh every 2 s, browser)")
        for log in (*logs, board_log):
            assert not log.problems(), log.problems()
    finally:
        for c in contexts:
            c.close()
