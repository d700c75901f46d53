"""The browser the tests and the benchmark drive: Playwright's flags kept, window UI left out."""

from __future__ import annotations

import time
from typing import Any

from .browsing import (
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    WINDOW_UI_OFF,
    chromium_command_lines,
    disabled_features,
)

# How long a new window's address-bar popup may take to appear (it came within 0.1-0.5 s here).
POPUP_WAIT_S = 3.0


def window_ui(browser: Any, wait_s: float) -> tuple[list[str], list[str]]:
    """Open a new context with a blank page; the addresses of Chromium's own browser_ui targets
    (each a renderer of its own) once one shows or wait_s has passed, and of the pages."""
    context = browser.new_context(viewport=VIEWPORT)
    session = browser.new_browser_cdp_session()
    try:
        context.new_page().goto("about:blank")
        deadline = time.monotonic() + wait_s
        while True:
            targets = session.send("Target.getTargets")["targetInfos"]
            ui = [t["url"] for t in targets if t["type"] == "browser_ui"]
            if ui or time.monotonic() > deadline:
                return ui, [t["url"] for t in targets if t["type"] == "page"]
            time.sleep(0.1)
    finally:
        session.detach()
        context.close()


def test_a_fresh_context_opens_only_its_page(chromium: Any) -> None:
    """A new context (a new window) of launch_chromium's browser starts no address-bar popup
    beside its page, where one launched with CHROMIUM_ARGS alone does (the check can fail)."""
    plain = chromium.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        theirs, _ = window_ui(plain, POPUP_WAIT_S)
    finally:
        plain.close()
    assert any("omnibox-popup" in url for url in theirs), theirs
    ours, pages = window_ui(chromium, POPUP_WAIT_S)
    assert ours == []
    assert pages == ["about:blank"]


def test_the_browser_keeps_playwrights_disabled_features(chromium: Any) -> None:
    """Chromium obeys only the last --disable-features flag: the one launch_chromium adds holds
    every feature Playwright's own flag disables (a plain launch shows which), and ours."""
    ours = chromium_command_lines()
    assert ours, "the session's Chromium runs under this process"
    plain = chromium.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        theirs = [line for line in chromium_command_lines() if line not in ours]
    finally:
        plain.close()
    assert len(theirs) == 1
    playwrights = disabled_features(theirs[0])
    assert "PaintHolding" in playwrights  # one Playwright disables (timings depend on it)
    for line in ours:
        assert set(playwrights) | set(WINDOW_UI_OFF) <= set(disabled_features(line))
        assert not set(WINDOW_UI_OFF) & set(playwrights)
