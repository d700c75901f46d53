"""The browser the tests and the benchmark drive: Playwright's flags kept, window UI left out."""

from __future__ import annotations

from .browsing import (
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    WINDOW_UI_OFF,
    chromium_command_lines,
    disabled_features,
)


def test_a_fresh_context_opens_only_its_page(chromium):
    """A new context (a new window) starts no address-bar popup beside its page: Chromium's
    browser_ui targets, each a renderer of its own, are what WINDOW_UI_OFF switches off."""
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto("about:blank")
        session = chromium.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        session.detach()
    finally:
        context.close()
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
    assert [t["url"] for t in targets if t["type"] == "page"] == ["about:blank"]


def test_the_browser_keeps_playwrights_disabled_features(chromium):
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
