"""Fixtures for the browser tests: one Voilà serving the dashboards, one headless Chromium."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator

import pytest

from .browsing import (
    VIEWPORT,
    PageLog,
    VoilaServer,
    dashboards,
    free_port,
    launch_chromium,
    probe_site,
)


@pytest.fixture(scope="session")
def voila() -> Iterator[VoilaServer]:
    """Voilà serving dashboards/site/ on a free port, every dashboard's kernel preheated."""
    # A run stopped by SIGTERM (a CI timeout) still runs the finaliser that stops Voilà.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server = VoilaServer(port=free_port()).start()
    try:
        # Tests start once the startup preheating is over, so they do not race it for the CPU.
        server.wait_for_pools(dashboards())
        server.wait_until_quiet()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def probe(tmp_path_factory) -> Iterator[VoilaServer]:
    """Voilà serving only tests/browser/probe.ipynb, with the dashboards' own configuration."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    site = probe_site(tmp_path_factory.mktemp("probe-site"))
    # Several tests open the probe: a preheated kernel each, so none waits for a refill.
    server = VoilaServer(port=free_port(), site=site, pool=4).start()
    try:
        server.wait_for_pools(dashboards(site))
        server.wait_until_quiet()
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
def page(chromium):
    """A fresh page (own context: no cache, no cookies) whose problems `page.log` records."""
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(30_000)
    # A page that finds no preheated kernel runs its notebook first (Voilà refills pools slowly).
    context.set_default_navigation_timeout(120_000)
    page = context.new_page()
    page.log = PageLog("http://127.0.0.1:").attach(page)
    try:
        yield page
    finally:
        context.close()
