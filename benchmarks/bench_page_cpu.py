"""What one viewer's page costs in CPU, and what that means for 30 viewers on one machine.

Issue 11's rush opens 30 pages at once with the browsers on the same 2-core machine as the
server. Each page costs its browser CPU time to become usable (Chromium parses and compiles
Voilà's and the widgets' JavaScript afresh in every new browser context, lays the page out and
draws it) and the server some more. However the work is scheduled, the 30 pages cannot all be
usable before 30 x (browser + server CPU per page) / cores seconds, and half of them not before
half that: a lower bound on the rush's slowest and median page, set by the machine.

Measured here for the probe page (tests/browser/probe.ipynb: one button, one label, one chart,
Voilà's floor) and dashboard 1 (the rush's lesson), each preheated, SAMPLES times, in one
browser of this script's own (its processes only: other browsers on the machine do not count).
CPU seconds barely move with the machine's load, unlike wall times.
"""

from __future__ import annotations

import os
import statistics

from benchmarks.bench_dashboards import (
    LESSON,
    RUSH_MEDIAN_TARGET_S,
    RUSH_SLOWEST_TARGET_S,
    VIEWERS,
    close_page,
    open_page,
    pool_fills,
    site_with_probe,
    wait_for_refill,
)
from benchmarks.harness import Result, machine_load
from tests.browser.browsing import (
    PROBE,
    VoilaServer,
    cpu_seconds,
    dashboards,
    descendant_pids,
    free_port,
    launch_chromium,
    usable_after_ms,
)

SAMPLES = 3
CORES = os.cpu_count() or 1


def own_browser_cpu() -> float:
    """CPU seconds used so far by the Chromium processes this process started (its descendants)."""
    total = 0.0
    for pid in descendant_pids():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chrom" in f.read():
                    total += cpu_seconds(pid)
        except OSError:  # gone since it was listed
            pass
    return total


def page_cpu(browser, server: VoilaServer, name: str) -> tuple[float, float]:
    """Browser and server CPU seconds from opening a preheated page to its first usable widget."""
    fills = pool_fills(server, name)
    browser0, server0 = own_browser_cpu(), cpu_seconds(server.process.pid)
    page = open_page(browser, server.dashboard_url(name))
    usable_after_ms(page)
    used = own_browser_cpu() - browser0, cpu_seconds(server.process.pid) - server0
    close_page(page)
    wait_for_refill(server, name, fills)
    return used


def run() -> list[Result]:
    """CPU per page for the probe and dashboard 1, and the rush's lower bounds they imply."""
    from playwright.sync_api import sync_playwright

    site = site_with_probe()
    lesson = f"{LESSON}.ipynb"
    results = []
    server = VoilaServer(port=free_port(), site=site).start()
    try:
        server.wait_for_pools(dashboards(site), timeout=600)
        server.wait_until_quiet(timeout=600)
        with sync_playwright() as p:
            browser = launch_chromium(p)
            samples: dict[str, list[tuple[float, float]]] = {PROBE.name: [], lesson: []}
            for _ in range(SAMPLES):
                for name, got in samples.items():
                    got.append(page_cpu(browser, server, name))
            browser.close()
    finally:
        server.stop()
    for name, got in samples.items():
        browser_s = statistics.median(b for b, _ in got)
        server_s = statistics.median(s for _, s in got)
        results.append(Result(
            f"{name}: CPU to usable, browser; server (preheated)", browser_s, "s", None, False,
            f"server {server_s:.2f} s; browser samples {', '.join(f'{b:.2f}' for b, _ in got)}"))
        slowest = VIEWERS * (browser_s + server_s) / CORES
        results.append(Result(
            f"{name}: {VIEWERS} viewers on {CORES} cores, slowest page no sooner than", slowest,
            "s", RUSH_SLOWEST_TARGET_S, False,
            f"{VIEWERS} x ({browser_s:.2f} + {server_s:.2f}) CPU s / {CORES} cores; the median "
            f"page no sooner than {slowest / 2:.1f} s (target {RUSH_MEDIAN_TARGET_S:.0f} s)"))
    results.append(Result("machine load at the end", os.getloadavg()[0], "", None, False,
                          machine_load()))
    return results
