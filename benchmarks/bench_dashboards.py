"""Dashboards in a real browser: time to the first usable widget (preheated and cold) and to the
first drawn chart, click to update, and 30 viewers at once (with the default settings and with
the README's settings for a class). Run with `.venv/bin/python -m benchmarks dashboards`.

Times are taken inside the page (performance.now() from navigation start), so Playwright's own
overhead is not counted. Every page gets a fresh browser context: no cache, as a student's
first visit. Set HENKIT_BENCH_DASHBOARDS=a.ipynb,b.ipynb to measure only some dashboards.
"""

from __future__ import annotations

import os
import re
import signal
import statistics
import sys
import time

from benchmarks.harness import Result
from tests.browser.browsing import (
    MARK_USABLE,
    TIME_CLICK,
    VIEWPORT,
    VoilaServer,
    chart_after_ms,
    dashboards,
    free_port,
    launch_chromium,
    usable_after_ms,
)

SAMPLES = 5
VIEWERS = 30
# The README's settings for a class arriving at once: 5 preheated kernels per dashboard, and
# used ones replaced only after the rush (refills running during it slow every page down).
CLASS_POOL = 5
CLASS_FILL_DELAY = 120
PREHEATED_TARGET_S = 1.5
COLD_TARGET_S = 4.0
CLICK_TARGET_MS = 100.0

# For each dashboard, the control to click (found by its label, so it may be clicked again and
# again: a toggle), the element that updates and a JS test on it that the update is complete.
CLICKS: dict[str, tuple[str, str, str]] = {
    # The dice tray's outlook: the kernel solves the turn and draws (or removes) the chart.
    "01_rolling_dice.ipynb": ("Show the solver's outlook", "body", "true"),
    "03_expected_value_and_stopping.ipynb": ("Show the solver's outlook", "body", "true"),
}


def chosen() -> list[str]:
    """The dashboards to measure (all published ones unless HENKIT_BENCH_DASHBOARDS says)."""
    wanted = os.environ.get("HENKIT_BENCH_DASHBOARDS")
    names = dashboards()
    if wanted:
        names = [n for n in names if n in wanted.split(",")]
    if not names:
        raise RuntimeError("no dashboard to measure: dashboards/site/ has no notebook link")
    return names


def open_page(browser, url: str):
    """A page in a fresh context, marking when its first widget is usable, navigating to url."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.add_init_script(MARK_USABLE)
    page.goto(url, wait_until="commit")
    return page


def close_page(page) -> None:
    """Close a page as a viewer closes a tab: its beforeunload asks Voilà to shut the kernel
    down (closing the context alone would leave every kernel running until culled)."""
    page.close(run_before_unload=True)
    time.sleep(0.3)  # the shutdown beacon leaves before the context goes
    page.context.close()


def pool_fills(server: VoilaServer, name: str) -> int:
    """How many times Voilà has reported `name`'s preheated pool full."""
    return len(re.findall(rf"Kernel pool of {re.escape(name)} is filled", server.log()))


def wait_for_refill(server: VoilaServer, name: str, count: int, timeout: float = 120) -> None:
    """Wait until the pool of `name` has been filled more than `count` times and its kernel has
    run the notebook (the preheated case is a server at rest with a kernel waiting)."""
    deadline = time.monotonic() + timeout
    while pool_fills(server, name) <= count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the pool of {name} was not refilled in {timeout} s")
        time.sleep(0.2)
    server.wait_until_quiet()


def time_loads(
    browser, server: VoilaServer, name: str, preheated: bool
) -> tuple[list[float], list[float]]:
    """Seconds to the first usable widget and to the first drawn chart, SAMPLES times each,
    each page closed after."""
    times, charts = [], []
    for _ in range(SAMPLES):
        fills = pool_fills(server, name)
        page = open_page(browser, server.dashboard_url(name))
        times.append(usable_after_ms(page) / 1000)
        charts.append(chart_after_ms(page) / 1000)
        close_page(page)
        if preheated:
            wait_for_refill(server, name, fills)
        else:
            time.sleep(1.0)  # let Voilà shut the kernel down before the next sample
    return times, charts


def load_result(browser, server: VoilaServer, name: str, preheated: bool) -> Result:
    """The open-to-usable figure of one dashboard, with its samples and first-chart time."""
    times, charts = time_loads(browser, server, name, preheated)
    kind, target = (
        ("preheated", PREHEATED_TARGET_S) if preheated else ("cold kernel", COLD_TARGET_S)
    )
    return Result(
        f"{name}: open to usable, {kind} (median of {SAMPLES})",
        statistics.median(times),
        "s",
        target,
        False,
        f"samples {', '.join(f'{t:.2f}' for t in times)}"
        + ("" if preheated else " (the first with henkit's results cache empty)")
        + f"; first chart drawn after median {statistics.median(charts):.2f} s",
    )


def time_clicks(browser, server: VoilaServer, name: str) -> list[float]:
    """Milliseconds from a click to the update it causes, SAMPLES times on one page."""
    label, target, done = CLICKS[name]
    page = open_page(browser, server.dashboard_url(name))
    usable_after_ms(page)
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    page.wait_for_timeout(500)  # let the first chart finish drawing
    page.get_by_label(label).last.evaluate("el => el.setAttribute('data-bench', 'click')")
    times = []
    for _ in range(SAMPLES):
        times.append(page.evaluate(TIME_CLICK, ["[data-bench=click]", target, done]))
        page.wait_for_timeout(300)  # let the kernel settle before the next click
    close_page(page)
    return times


def viewers_at_once(browser, server: VoilaServer, names: list[str], timeout_s: float = 240):
    """Open VIEWERS pages at once over the dashboards; return (seconds to usable of each page
    that became usable within timeout_s, seconds until the last did, MB per kernel meanwhile)."""
    t0 = time.monotonic()
    pages = [
        open_page(browser, server.dashboard_url(names[i % len(names)])) for i in range(VIEWERS)
    ]
    usable = []
    for p in pages:
        left_ms = max(1_000.0, (timeout_s - (time.monotonic() - t0)) * 1000)
        try:
            usable.append(usable_after_ms(p, timeout=left_ms) / 1000)
        except RuntimeError:
            pass  # counted below as a page that never became usable
    wall = time.monotonic() - t0
    memory = server.kernels_rss_mb()
    for p in pages:
        close_page(p)
    return usable, wall, memory


def rush_results(browser, server: VoilaServer, names: list[str], setting: str) -> list[Result]:
    """VIEWERS pages opened at once on `server`: how many became usable, how soon, and memory."""
    usable, wall, memory = viewers_at_once(browser, server, names)
    results = [
        Result(
            f"{VIEWERS} viewers at once ({setting}): pages usable within 240 s",
            len(usable),
            "pages",
            VIEWERS,
            True,
            f"usable after median {statistics.median(usable or [0]):.1f} s, "
            f"slowest {max(usable or [0]):.1f} s; wall {wall:.1f} s",
        )
    ]
    if memory:
        results.append(
            Result(
                f"{VIEWERS} viewers at once ({setting}): memory per kernel (median)",
                statistics.median(memory),
                "MB",
                None,
                False,
                f"{len(memory)} kernels, max {max(memory):.0f} MB, "
                f"total {sum(memory) / 1024:.1f} GB",
            )
        )
    return results


def run() -> list[Result]:
    """Measure every figure of the dashboards' speed targets."""
    from playwright.sync_api import sync_playwright

    # A benchmark stopped by SIGTERM (a CI timeout) still stops its Voilà servers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    names = chosen()
    results: list[Result] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        preheated = VoilaServer(port=free_port()).start()
        try:
            preheated.wait_for_pools(dashboards())
            preheated.wait_until_quiet()
            for name in names:
                results.append(load_result(browser, preheated, name, preheated=True))
                if name in CLICKS:
                    clicks = time_clicks(browser, preheated, name)
                    results.append(
                        Result(
                            f"{name}: click to update (median of {SAMPLES})",
                            statistics.median(clicks),
                            "ms",
                            CLICK_TARGET_MS,
                            False,
                            f"samples {', '.join(f'{t:.0f}' for t in clicks)}",
                        )
                    )
            time.sleep(preheated.fill_delay + 1)  # the pools refill after the last click test
            preheated.wait_until_quiet()
            results.extend(rush_results(browser, preheated, names, "default settings"))
        finally:
            preheated.stop()

        ready = VoilaServer(port=free_port(), pool=CLASS_POOL, fill_delay=CLASS_FILL_DELAY)
        ready.start()
        try:
            ready.wait_for_pools(dashboards(), timeout=900)
            ready.wait_until_quiet(timeout=900)
            setting = f"POOL={CLASS_POOL} FILL_DELAY={CLASS_FILL_DELAY}"
            results.extend(rush_results(browser, ready, names, setting))
        finally:
            ready.stop()

        cold = VoilaServer(
            port=free_port(), extra_args=("--VoilaConfiguration.preheat_kernel=False",)
        )
        cold.start()
        try:
            for name in names:
                results.append(load_result(browser, cold, name, preheated=False))
        finally:
            cold.stop()
        browser.close()
    load = os.getloadavg()[0]
    results.append(Result("machine load average (1 min) at the end", load, "", None, False))
    return results
