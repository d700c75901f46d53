"""Fixtures for the browser tests: one Voilà serving the dashboards, one headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .browsing import (
    VIEWPORT,
    PageLog,
    VoilaServer,
    dashboards,
    free_port,
    launch_chromium,
)


@pytest.fixture(scope="session")
def voila() -> Iterator[VoilaServer]:
    """Voilà serving dashboards/site/ on a free port, every dashboard's kernel preheated."""
    server = VoilaServer(port=free_port()).start()
    try:
        # Tests start once the startup preheating is over, so they do not race it for the CPU.
        server.wait_for_pools(dashboards())
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's headless Chromium, for the whole session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium, voila):
    """A fresh page (own context: no cache, no cookies) whose problems `page.log` records."""
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.log = PageLog(voila.url).attach(page)
    try:
        yield page
    finally:
        context.close()
