"""Dashboards in a real browser (issues 11 and 14), in parts that can be run alone:

  floor         open-to-usable of every dashboard, preheated and cold, next to the probe page
                (tests/browser/probe.ipynb: one button, one label, one chart) served beside
                them by the same server, as a ratio to it (target <= 1.1x) with a 90 %
                interval over the rounds (benchmarks/ratios.py): within, over or not resolved
  floor-cut     the probe page on a server with issue 11's settings beside one with issue 14's
                (scripts preloaded, unused extensions off, templates compiled once, one notebook
                check a page, cold pages progressive), samples taken in turn, preheated and cold
  cold-cut      every dashboard and the probe opened cold on three servers, samples in turn: one
                sending each cold page in one piece once its notebook has run (Voilà's way), one
                rendering it progressively with its cells run when the page asks (Voilà's
                progressive way) and one running them from the kernel's start (henkit's): ratios
                to the floor, first widget, text and every output shown on each
  text-first    every dashboard and the probe opened cold on a server sending each page once
                its kernel is up (Voilà's way) and on one sending it whole at once, the kernel
                still starting (henkit's): open to text and to usable on both, samples in turn
  later-cells   every dashboard and the probe opened from a preheated kernel on a server laying
                every cell out at once (Voilà's way) and on one laying out the cells after the
                first widget's once it shows (henkit's): as text-first, preheated
  whole-html    every dashboard and the probe opened cold on a server sending each page's HTML
                piece by piece as it is rendered (Voilà's way) and on one sending it whole
                once rendered (henkit's), samples in turn (run only when named)
  breakdown     where each dashboard spends time above the probe: kernel-side notebook time
                before the first widget, the server's CPU for the page opened cold, widget
                models, kernel messages and bytes before usable, and the page's phases (loaded,
                kernel connected, widget states, usable)
  cold-phases   where a cold page spends its time after its HTML has ended (sent at once, its
                kernel still starting): its scripts loaded, text shown, kernel socket open
                (the kernel's start), widget states, first widget; each dashboard's beside
                the probe's
  split         what each part of a dashboard costs: cut copies of it (up to its first
                widget; that and the text after it; that and the code after it) served beside
                it and the probe, preheated and cold, each as a ratio to the floor (run only
                when named: four pages a dashboard; 3 dashboards, 10 rounds: 80 minutes)
  clicks        click to update on the dashboards that have a timed control
  rush-lesson   30 viewers at once on dashboard 1, served with `LESSON=01_rolling_dice
                CLASS=30` (also: how long preparing the lesson took, and its kernels' memory)
  rush-one      30 viewers at once on dashboard 1 with the default settings
  rush-round    30 viewers at once spread round-robin over the dashboards, with the defaults
                and with POOL=5 FILL_DELAY=120

`.venv/bin/python -m benchmarks dashboards` runs every part but split and whole-html
(HENKIT_BENCH_PARTS=a,b picks some); `.venv/bin/python -m benchmarks.bench_dashboards --parts
floor,rush-lesson --viewers 30` runs some with options. HENKIT_BENCH_DASHBOARDS=a.ipynb,b.ipynb
measures only some dashboards.

Times are taken inside the page (performance.now() from navigation start), so Playwright's own
overhead is not counted. Every page gets a fresh browser context: no cache, as a student's
first visit (without the address bar's popup Chromium would open beside it: launch_chromium).
A rush opens its pages without waiting for any first byte (as 30 students clicking a link at
once), and a page that never becomes usable is reported with its last state and the
server's log lines for its kernel. The machine's load and its pickomino-env figure (a reference
that moves with the machine, not with the pages) are printed beside the figures.
"""

from __future__ import annotations

import argparse
import atexit
import json
import math
import os
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from benchmarks.harness import Result, format_table, machine_load, pickomino_steps_per_second
from benchmarks.ratios import Ratio, ratios_to
from tests.browser.browsing import (
    MARK_USABLE,
    PROBE,
    SITE,
    TIME_CLICK,
    VIEWPORT,
    VoilaServer,
    chart_after_ms,
    complete_after_ms,
    cpu_seconds,
    dashboards,
    free_port,
    launch_chromium,
    usable_after_ms,
)

SAMPLES = 5
VIEWERS = 30
RUSH_TIMEOUT_S = 300
LESSON = "01_rolling_dice"
# The README's older settings for a class spread over every dashboard: 5 preheated kernels per
# dashboard, used ones replaced only after the rush (refills during it slow every page down).
CLASS_POOL = 5
CLASS_FILL_DELAY = 120
PREHEATED_TARGET_S = 1.5
COLD_TARGET_S = 4.0
FLOOR_RATIO_TARGET = 1.1
CLICK_TARGET_MS = 100.0
RUSH_MEDIAN_TARGET_S = 10.0
RUSH_SLOWEST_TARGET_S = 20.0
# The federated extensions voila.json denied before issue 14's cuts (floor-cut compares a
# server with this list, loading the other unused ones, with one with voila.json's list).
STOCK_DENYLIST = ["jupyterlab-plotly", "anywidget"]
# A server with no preheated kernels: every page it serves is opened cold.
COLD = ("--VoilaConfiguration.preheat_kernel=False",)
# A server sending every cold page in one piece, once its notebook has run (Voilà's way).
ONE_PIECE = "--HenkitVoila.progressive_cold=False"
# A server rendering cold pages progressively but sending each once its kernel is up and
# running its cells only when the page asks, once its widget manager has started (Voilà's
# progressive way).
AFTER_THE_KERNEL = "--HenkitVoila.text_first=False"
WHEN_ASKED = ("--HenkitVoila.run_early=False", AFTER_THE_KERNEL)

PARTS = ("floor", "floor-cut", "cold-cut", "text-first", "later-cells", "whole-html",
         "breakdown", "cold-phases", "split", "clicks", "rush-lesson", "rush-one", "rush-round")
#: The output type of a widget shown by a cell.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Parts run only when named (a diagnosis, not a figure of the table).
WHEN_NAMED = ("split", "whole-html")


def default_parts() -> list[str]:
    """The parts run when none is named: every part but those WHEN_NAMED."""
    return [p for p in PARTS if p not in WHEN_NAMED]

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


def scratch_folder(prefix: str) -> Path:
    """A new temporary folder, removed when the benchmark's process ends."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def site_with_probe(names: list[str] | None = None) -> Path:
    """A served folder holding every published dashboard (or those named) and the probe page,
    side by side (its links go when the benchmark ends, not what they point to)."""
    folder = scratch_folder("henkit-bench-site-")
    for name in dashboards() if names is None else names:
        (folder / name).symlink_to((SITE / name).resolve())
    (folder / PROBE.name).symlink_to(PROBE)
    return folder


def open_page(browser, url: str, wait: bool = True):
    """A page in a fresh context, marking when its first widget is usable, navigating to url:
    waiting for the first byte, or (wait=False, a rush) not waiting at all."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.add_init_script(MARK_USABLE)
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    if wait:
        page.goto(url, wait_until="commit", timeout=RUSH_TIMEOUT_S * 1000)
    else:
        page.evaluate("url => { window.location.href = url; }", url)
    return page


def close_page(page) -> None:
    """Close a page as a viewer closes a tab: its beforeunload asks Voilà to shut the kernel
    down (closing the context alone would leave every kernel running until culled)."""
    try:
        page.close(run_before_unload=True)
        time.sleep(0.3)  # the shutdown beacon leaves before the context goes
    finally:
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


def one_load(browser, server: VoilaServer, name: str, preheated: bool) -> tuple[float, float]:
    """Seconds to the first usable widget and to the first drawn chart (nan if none) of one
    fresh page, closed after; a preheated server gets its kernel back before returning."""
    usable, chart, _, _ = one_full_load(browser, server, name, preheated)
    return usable, chart


def one_full_load(browser, server: VoilaServer, name: str,
                  preheated: bool) -> tuple[float, float, float, float]:
    """one_load's seconds, the seconds until every cell's output is shown (a progressive page
    shows them cell by cell, after its first widget) and until the lesson's text shows."""
    fills = pool_fills(server, name)
    page = open_page(browser, server.dashboard_url(name))
    usable = usable_after_ms(page) / 1000
    complete = complete_after_ms(page) / 1000
    text = page.evaluate("window.__henkitText") / 1000
    from playwright.sync_api import Error as PlaywrightError

    try:
        chart = chart_after_ms(page, timeout=30_000) / 1000
    except PlaywrightError:
        chart = float("nan")  # a page with no chart (or none in time)
    close_page(page)
    if preheated:
        wait_for_refill(server, name, fills)
    else:
        # The next sample starts once Voilà has shut this page's kernel down and is idle: a
        # second's sleep, as before, let a lesson's kernel still be ending (and its cells
        # running) while the next page loaded, the next page's sample paying for this one.
        server.wait_until_quiet()
    return usable, chart, complete, text


def floor_results(browser, server: VoilaServer, names: list[str], preheated: bool) -> list[Result]:
    """Open-to-usable of the probe and of each dashboard, SAMPLES rounds taken in turn (so a
    change of machine load touches all alike), with each dashboard's ratio to the probe."""
    pages = [PROBE.name, *names]
    times: dict[str, list[float]] = {n: [] for n in pages}
    charts: dict[str, list[float]] = {n: [] for n in pages}
    complete: dict[str, list[float]] = {n: [] for n in pages}
    text: dict[str, list[float]] = {n: [] for n in pages}
    for _ in range(SAMPLES):
        for name in pages:
            usable, chart, every, shown = one_full_load(browser, server, name, preheated)
            times[name].append(usable)
            charts[name].append(chart)
            complete[name].append(every)
            text[name].append(shown)
    kind, target = ("preheated", PREHEATED_TARGET_S) if preheated else ("cold", COLD_TARGET_S)
    floor = statistics.median(times[PROBE.name])
    ratios = ratios_to(times, PROBE.name)
    results = [
        Result(f"floor (probe page): open to usable, {kind}", floor, "s", None, False,
               f"samples {', '.join(f'{t:.2f}' for t in times[PROBE.name])}")
    ]
    for name in names:
        median = statistics.median(times[name])
        drawn = [c for c in charts[name] if not math.isnan(c)]
        results.append(Result(
            f"{name}: open to usable, {kind}", median, "s", target, False,
            f"samples {', '.join(f'{t:.2f}' for t in times[name])}"
            + (f"; first chart median {statistics.median(drawn):.2f} s" if drawn else "")
            + f"; text shown median {statistics.median(text[name]):.2f} s"
            + f"; every output shown median {statistics.median(complete[name]):.2f} s"))
        # The ratio takes each round's effect out with every page of the round (median polish,
        # benchmarks/ratios.py), not with the probe's one sample of it: load that moves during
        # a run (a load average of 0.6 to 4.6 in one run here) slows a round's pages alike, and
        # one slow probe sample made the pages of its round look 0.5-0.9x. The median of the
        # rounds' own ratios, used before, is given beside it.
        ratio = ratios[name]
        rounds = sorted(d / p for d, p in zip(times[name], times[PROBE.name], strict=True))
        results.append(Result(
            f"{name}: {kind}, ratio to the floor", ratio.value, "x", FLOOR_RATIO_TARGET, False,
            f"{RESOLVED[ratio.verdict(FLOOR_RATIO_TARGET)]}: 90 % interval "
            f"{ratio.low:.2f}-{ratio.high:.2f} over {len(rounds)} rounds; the rounds' own "
            f"ratios {rounds[0]:.2f}-{rounds[-1]:.2f}, median {statistics.median(rounds):.2f}; "
            f"medians {median:.2f} s / probe {floor:.2f} s = {median / floor:.2f}x"))
    results.append(resolved_summary(f"{kind}, ratio to the floor", ratios))
    return results


#: What a ratio's interval says of the target, as the floor's notes say it.
RESOLVED = {"within": "within the target", "over": "over the target",
            "not resolved": "not resolved"}


def resolved_summary(label: str, ratios: dict[str, Ratio]) -> Result:
    """How many ratios' intervals lie wholly within the target, and which are over or not
    resolved by the rounds measured."""
    # A dashboard by its number ("09" of 09_playing_to_win.ipynb; "09b" for a page beside it).
    by = {v: sorted(n.split("_", 1)[0] for n, r in ratios.items()
                    if r.verdict(FLOOR_RATIO_TARGET) == v)
          for v in RESOLVED}
    return Result(
        f"{label}: within {FLOOR_RATIO_TARGET}x, interval and all", len(by["within"]),
        f"of {len(ratios)}", None, True,
        "; ".join(f"{v}: {', '.join(by[v]) or 'none'}" for v in RESOLVED)
        + "; point estimates within: "
        + str(sum(r.value <= FLOOR_RATIO_TARGET for r in ratios.values())))


def run_floor(browser, names: list[str]) -> list[Result]:
    """The floor part: probe and dashboards on one server, preheated, then cold."""
    site = site_with_probe()
    results = []
    for preheated in (True, False):
        extra = () if preheated else COLD
        server = VoilaServer(port=free_port(), site=site, extra_args=extra).start()
        try:
            if preheated:
                server.wait_for_pools(dashboards(site), timeout=600)
            server.wait_until_quiet(timeout=600)
            results.extend(floor_results(browser, server, names, preheated))
        finally:
            server.stop()
    return results


def run_floor_cut(browser, names: list[str]) -> list[Result]:
    """The floor-cut part: the probe on a server as issue 11 left it (every extension but
    plotly's and anywidget, no preloads, each page's templates compiled and its notebook checked
    after every preprocessor) and on one with issue 14's cuts, samples in turn, preheated and
    then cold."""
    site = scratch_folder("henkit-bench-probe-")
    (site / PROBE.name).symlink_to(PROBE)
    old_args = ("--VoilaConfiguration.extension_denylist=" + json.dumps(STOCK_DENYLIST),
                "--HenkitVoila.preload=False", "--HenkitVoila.compile_once=False",
                "--VoilaExporter.optimistic_validation=False", ONE_PIECE)
    results = []
    for preheated in (True, False):
        kind = "preheated" if preheated else "cold"
        cold = () if preheated else COLD
        servers = {
            "issue 11's settings": VoilaServer(port=free_port(), site=site,
                                               extra_args=old_args + cold),
            "issue 14's cuts": VoilaServer(port=free_port(), site=site, extra_args=cold),
        }
        times: dict[str, list[float]] = {k: [] for k in servers}
        try:
            for server in servers.values():
                server.start()
            for server in servers.values():
                if preheated:
                    server.wait_for_pools([PROBE.name])
                server.wait_until_quiet()
            for _ in range(2 * SAMPLES):
                for label, server in servers.items():
                    times[label].append(one_load(browser, server, PROBE.name, preheated)[0])
        finally:
            for server in servers.values():
                server.stop()
        before, after = (statistics.median(times[k]) for k in servers)
        results += [
            Result(f"floor with {label} (probe, {kind}, median of {2 * SAMPLES})",
                   statistics.median(t), "s", None, False,
                   f"samples {', '.join(f'{x:.2f}' for x in t)}")
            for label, t in times.items()
        ] + [Result(f"floor after the cuts / before, {kind}", after / before, "x", None, False,
                    "below 1: the cuts lowered the floor")]
    return results


def loads_in_turn(browser, servers: dict[str, VoilaServer], pages: list[str],
                  preheated: bool = False) -> dict[tuple[str, str], list[tuple[float, ...]]]:
    """Start the servers (cold ones with COLD, preheated ones keeping a kernel for every
    page), then open every page on each, SAMPLES rounds, page by page and server by server;
    stop them. (server label, page) -> each sample's seconds to usable, first chart, every
    output shown and text shown."""
    loads: dict[tuple[str, str], list[tuple[float, ...]]] = {
        (k, n): [] for k in servers for n in pages}
    try:
        for server in servers.values():
            server.start()
        for server in servers.values():
            if preheated:
                server.wait_for_pools(pages, timeout=600)
            server.wait_until_quiet(timeout=600)
        for _ in range(SAMPLES):
            for name in pages:
                for label, server in servers.items():
                    loads[label, name].append(one_full_load(browser, server, name, preheated))
    finally:
        for server in servers.values():
            server.stop()
    return loads


def load_medians(loads: dict[tuple[str, str], list[tuple[float, ...]]]
                 ) -> tuple[dict[tuple[str, str], float], ...]:
    """loads_in_turn's medians: seconds to usable, every output shown and text shown, each
    by (server label, page)."""
    return tuple({key: statistics.median(s[i] for s in samples)
                  for key, samples in loads.items()} for i in (0, 2, 3))


def run_cold_cut(browser, names: list[str]) -> list[Result]:
    """The cold-cut part: the probe and every dashboard opened cold on a server sending each
    page in one piece, on one rendering it progressively with its cells run when the page asks,
    and on one running them from the kernel's start, samples in turn (page by page, server by
    server), each dashboard's ratio to its own server's probe."""
    site = site_with_probe()
    servers = {
        "in one piece": VoilaServer(port=free_port(), site=site, extra_args=(*COLD, ONE_PIECE)),
        "cells run when asked": VoilaServer(port=free_port(), site=site,
                                            extra_args=(*COLD, *WHEN_ASKED)),
        "cells run early": VoilaServer(port=free_port(), site=site, extra_args=COLD),
    }
    pages = [PROBE.name, *names]
    loads = loads_in_turn(browser, servers, pages)
    med, done, read = load_medians(loads)
    results = [
        Result(f"cold floor, {label} (probe, median of {SAMPLES})", med[label, PROBE.name],
               "s", None, False,
               "samples " + ", ".join(f"{s[0]:.2f}" for s in loads[label, PROBE.name]))
        for label in servers
    ]
    last = list(servers)[-1]
    # As in the floor part: each server's rounds taken out with every page of the round.
    ratios = {label: ratios_to({n: [s[0] for s in loads[label, n]] for n in pages}, PROBE.name)
              for label in servers}
    for name in names:
        results.append(Result(
            f"{name}: cold ratio to the floor, {last}", ratios[last][name].value, "x",
            FLOOR_RATIO_TARGET, False, "; ".join(
                f"{label}: {ratios[label][name]}, usable {med[label, name]:.2f} s, text "
                f"{read[label, name]:.2f} s, every output {done[label, name]:.2f} s"
                for label in servers)))
    results += [resolved_summary(f"cold, {label}", ratios[label]) for label in servers]
    return results


def setting_off_and_on(browser, names: list[str], off: tuple[str, str], on: str,
                       preheated: bool) -> list[Result]:
    """two_servers_in_turn over the probe and every dashboard: a server with one of henkit's
    settings off (`off`: its label and the option that turns it off, Voilà's way) and one
    serving as `make serve` does (labelled `on`), preheated or cold."""
    site = site_with_probe()
    kind = () if preheated else COLD
    label, option = off
    return two_servers_in_turn(browser, names, {
        label: VoilaServer(port=free_port(), site=site, extra_args=(*kind, option)),
        on: VoilaServer(port=free_port(), site=site, extra_args=kind),
    }, preheated=preheated)


def run_text_first(browser, names: list[str]) -> list[Result]:
    """The text-first part: the probe and every dashboard opened cold on a server sending each
    page once its kernel is up (Voilà's way) and on one sending it whole at once, its kernel
    still starting (henkit's)."""
    return setting_off_and_on(browser, names, ("after the kernel", AFTER_THE_KERNEL),
                              "text first", preheated=False)


def run_later_cells(browser, names: list[str]) -> list[Result]:
    """The later-cells part: the probe and every dashboard opened from a preheated kernel on a
    server laying every cell of a page out at once (Voilà's way) and on one laying out the
    cells after the first widget's once that widget shows (henkit's)."""
    return setting_off_and_on(
        browser, names, ("all cells at once", "--HenkitVoila.hold_later_cells=False"),
        "later cells held", preheated=True)


def run_whole_html(browser, names: list[str]) -> list[Result]:
    """The whole-html part: the probe and every dashboard opened cold on a server sending each
    page's HTML piece by piece as it is rendered (Voilà's way) and on one sending it whole
    once rendered (henkit's)."""
    return setting_off_and_on(browser, names, ("in pieces", "--HenkitVoila.whole_html=False"),
                              "whole", preheated=False)


def two_servers_in_turn(browser, names: list[str], servers: dict[str, VoilaServer],
                        preheated: bool) -> list[Result]:
    """The probe and every dashboard opened on a server as Voilà would serve them and on one
    with a henkit change (in that order in `servers`), samples in turn (page by page, server by
    server): open to text and to usable on each, each page's time on both as a ratio to the
    probe's on the first (one table: the rounds taken out with every page of both servers),
    and the ratio to its own server's probe, the target's."""
    kind = "preheated" if preheated else "cold"
    pages = [PROBE.name, *names]
    loads = loads_in_turn(browser, servers, pages, preheated)
    usable = {key: [s[0] for s in samples] for key, samples in loads.items()}
    med, done, read = load_medians(loads)
    before, after = servers
    both = ratios_to({f"{k}: {n}": usable[k, n] for k, n in usable}, f"{before}: {PROBE.name}")
    own = {label: ratios_to({n: usable[label, n] for n in pages}, PROBE.name) for label in servers}
    results = []
    for name in pages:
        shown = "; ".join(
            f"{label}: usable {med[label, name]:.2f} s, text {read[label, name]:.2f} s, every "
            f"output {done[label, name]:.2f} s"
            + ("" if name == PROBE.name and label == before
               else f", {both[f'{label}: {name}']} against the probe {before}")
            for label in servers)
        if name == PROBE.name:
            results.append(Result(f"{kind} floor (probe), {after} / {before}",
                                  both[f"{after}: {name}"].value, "x", None, False, shown))
            continue
        ratio = own[after][name]
        results.append(Result(
            f"{name}: {kind} ratio to the floor, {after}", ratio.value, "x", FLOOR_RATIO_TARGET,
            False, f"{RESOLVED[ratio.verdict(FLOOR_RATIO_TARGET)]} ({ratio.low:.2f}-"
                   f"{ratio.high:.2f}); {before}: {own[before][name]}; {shown}"))
    results += [resolved_summary(f"{kind}, {label}", own[label]) for label in servers]
    return results


# --- Where a dashboard spends time above the probe ------------------------------------------

#: Installed in a page before it loads (with MARK_USABLE), for the breakdown and cold-phases
#: parts, marks in ms after navigation start. Over every websocket until the first usable
#: widget: messages received (count, bytes), when the first socket opened and when the largest
#: message arrived (__henkitOpen, __henkitStates). On the kernel's socket alone: when it opened
#: and when its largest message arrived (__henkitKernelOpen, __henkitStatesAt), the widget
#: states, which Voilà's page asks for first.
SOCKET_MARKS = """
(() => {
  window.__henkitMessages = 0; window.__henkitBytes = 0; window.__henkitLargest = 0;
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    const kernel = String(args[0]).includes('/channels');
    let largest = 0;
    ws.addEventListener('open', () => {
      const now = performance.now();
      if (window.__henkitOpen === undefined) window.__henkitOpen = now;
      if (kernel && window.__henkitKernelOpen === undefined) window.__henkitKernelOpen = now;
    });
    ws.addEventListener('message', (e) => {
      if (window.__henkitUsable !== undefined) return;
      const size = typeof e.data === 'string' ? e.data.length : (e.data.byteLength || e.data.size || 0);
      const now = performance.now();
      window.__henkitMessages += 1;
      window.__henkitBytes += size;
      if (size > window.__henkitLargest) {
        window.__henkitLargest = size; window.__henkitStates = now;
      }
      if (kernel && size > largest) { largest = size; window.__henkitStatesAt = now; }
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


def kernel_time_to_first_widget(notebook: Path) -> tuple[float, float, int]:
    """Run a notebook in a fresh kernel as Voilà would (nbclient, timings recorded); return the
    seconds its cells ran before the first cell that shows a widget, in all, and how many
    widget views its outputs hold."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={
        "metadata": {"path": str(SITE)}}).execute()
    before, total, views, seen = 0.0, 0.0, 0, False
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        timing = cell.metadata.get("execution", {})
        start = timing.get("iopub.status.busy")
        end = timing.get("iopub.status.idle") or timing.get("shell.execute_reply")
        seconds = 0.0
        if start and end:
            from datetime import datetime
            seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
        shows = sum(WIDGET_VIEW in o.get("data", {})
                    for o in cell.get("outputs", []))
        views += shows
        if not seen:
            before += seconds
        seen = seen or shows > 0
        total += seconds
    return before, total, views


def server_cpu_cold(site: Path, names: list[str]) -> dict[str, list[float]]:
    """Voilà's own CPU seconds for each page rendered cold (a new kernel runs the notebook while
    the server renders it), SAMPLES rounds of plain HTTP fetches taken in turn."""
    import http.cookiejar
    import urllib.request

    server = VoilaServer(port=free_port(), site=site,
                         extra_args=COLD).start()
    cookies = http.cookiejar.CookieJar()
    client = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    cpu: dict[str, list[float]] = {n: [] for n in names}
    try:
        # Voilà's shutdown request needs the _xsrf cookie, which the landing page sets.
        client.open(server.url, timeout=60).read()
        xsrf = next(c.value for c in cookies if c.name == "_xsrf")
        server.wait_until_quiet(timeout=600)
        for _ in range(SAMPLES):
            for name in names:
                before = cpu_seconds(server.process.pid)
                html = client.open(server.dashboard_url(name), timeout=120).read().decode()
                cpu[name].append(cpu_seconds(server.process.pid) - before)
                # Shut the page's kernel down, as a closed tab does (not counted above).
                kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', html).group(1)
                client.open(urllib.request.Request(
                    f"{server.url}voila/api/shutdown/{kernel}", data=b"", method="POST",
                    headers={"X-XSRFToken": xsrf}), timeout=60).read()
                time.sleep(1.0)
    finally:
        server.stop()
    return cpu


def run_breakdown(browser, names: list[str]) -> list[Result]:
    """The breakdown part: for the probe and each dashboard, kernel time before the first widget
    (a fresh kernel, as a cold page), Voilà's CPU for the page rendered cold, widget models,
    kernel messages and bytes before usable, page HTML bytes (a preheated page)."""
    site = site_with_probe()
    results = []
    for name in [PROBE.name, *names]:
        before, total, views = kernel_time_to_first_widget((site / name).resolve())
        results.append(Result(f"{name}: kernel time before the first widget", before, "s", None,
                              False, f"whole notebook {total:.2f} s; {views} widget views shown"))
    for name, seconds in server_cpu_cold(site, [PROBE.name, *names]).items():
        results.append(Result(f"{name}: the server's CPU for the page, cold",
                              statistics.median(seconds), "s", None, False,
                              f"median of {len(seconds)}: {', '.join(f'{t:.2f}' for t in seconds)}"))
    server = VoilaServer(port=free_port(), site=site).start()
    try:
        server.wait_for_pools(dashboards(site), timeout=600)
        server.wait_until_quiet(timeout=600)
        for name in [PROBE.name, *names]:
            fills = pool_fills(server, name)
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            page.add_init_script(MARK_USABLE)
            page.add_init_script(SOCKET_MARKS)
            response = page.goto(server.dashboard_url(name), wait_until="commit")
            usable = usable_after_ms(page) / 1000
            html = len(response.body())
            messages, size, opened, states, loaded = page.evaluate(
                "[window.__henkitMessages, window.__henkitBytes, window.__henkitOpen,"
                " window.__henkitStates, performance.getEntriesByType('navigation')[0]"
                ".loadEventEnd]")
            page.wait_for_timeout(2000)
            models = page.evaluate(
                "document.querySelectorAll('.jupyter-widgets, .widget-output').length")
            close_page(page)
            wait_for_refill(server, name, fills)
            results.append(Result(
                f"{name}: kernel bytes before usable (preheated)", size / 1e3, "kB", None, False,
                f"{messages} messages; usable after {usable:.2f} s; page HTML {html / 1e3:.0f} kB;"
                f" {models} widget elements on the page"))
            # The phases: the page's scripts (the same for every page) until its load event,
            # Voilà's app until the kernel is connected, the widget states, then the models
            # and the first view: what a dashboard adds to the probe is in the last two.
            results.append(Result(
                f"{name}: widget states to usable (preheated)", usable * 1000 - states, "ms",
                None, False,
                f"loaded {loaded / 1000:.2f} s, kernel connected {opened / 1000:.2f} s, "
                f"states {states / 1000:.2f} s ({(states - opened):.0f} ms after connecting), "
                f"usable {usable:.2f} s"))
    finally:
        server.stop()
    return results


#: The phases of a cold page, in order: the name each is reported by and the page's mark.
COLD_PHASES = (
    ("loaded", "performance.getEntriesByType('navigation')[0].loadEventEnd"),
    ("text", "window.__henkitText"),
    ("kernel socket", "window.__henkitKernelOpen"),
    ("widget states", "window.__henkitStatesAt"),
    ("usable", "window.__henkitUsable"),
)


#: The server's line for a page that waited to connect to its kernel for a running cell
#: (EarlyRun.hold in dashboards/voila_server.py).
HOLD_LINE = r"Kernel {kernel}: its page waited (\d+) ms to connect, for (.+?) to end"


def cold_page_phases(browser, server: VoilaServer,
                     name: str) -> tuple[float, list[float], float, str]:
    """One page opened cold: ms from navigation start to the end of its HTML (sent at once, the
    kernel still starting; with `--HenkitVoila.text_first=False`, once the kernel is up), ms
    from then to each of COLD_PHASES, and the ms its kernel socket waited when it connected, for
    the kernel's start or the cell running then, with what it waited for (0 and "" if
    nothing)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.add_init_script(MARK_USABLE)
    page.add_init_script(SOCKET_MARKS)
    page.goto(server.dashboard_url(name), wait_until="commit")
    usable_after_ms(page)
    html_end, *marks = page.evaluate(
        "[performance.getEntriesByType('navigation')[0].responseEnd, "
        + ", ".join(mark for _, mark in COLD_PHASES) + "]")
    kernel = page_state(page).get("kernel") or "no kernel"
    close_page(page)
    server.wait_until_quiet()  # this page's kernel shut down (as in one_full_load)
    held = re.search(HOLD_LINE.format(kernel=re.escape(kernel)), server.log())
    waited, cell = (float(held.group(1)), held.group(2)) if held else (0.0, "")
    return html_end, [(m if m is not None else math.nan) - html_end for m in marks], waited, cell


def run_cold_phases(browser, names: list[str]) -> list[Result]:
    """The cold-phases part: where a cold page spends its time, the probe's and each
    dashboard's, SAMPLES rounds in turn on one server: the end of its HTML, then each phase
    counted from there (the page's scripts, its text shown, its kernel connected, which waits
    for the kernel's start, the widget states, the first widget), medians beside the probe's,
    and how long its kernel socket waited when it connected, and for what."""
    site = site_with_probe()
    pages = [PROBE.name, *names]
    ends: dict[str, list[float]] = {n: [] for n in pages}
    phases: dict[str, list[list[float]]] = {n: [] for n in pages}
    holds: dict[str, list[tuple[float, str]]] = {n: [] for n in pages}
    server = VoilaServer(port=free_port(), site=site,
                         extra_args=COLD).start()
    try:
        server.wait_until_quiet(timeout=600)
        for _ in range(SAMPLES):
            for name in pages:
                end, marks, waited, cell = cold_page_phases(browser, server, name)
                ends[name].append(end)
                phases[name].append(marks)
                holds[name].append((waited, cell))
    finally:
        server.stop()

    def medians(name: str) -> list[float]:
        # A mark a page never set (nan) is left out rather than let poison the median.
        return [statistics.median([sample[i] for sample in phases[name]
                                   if not math.isnan(sample[i])] or [math.nan])
                for i in range(len(COLD_PHASES))]

    def waits(name: str) -> str:
        held = [(w, c) for w, c in holds[name] if c]
        if not held:
            return f"its socket waited for no cell in {len(holds[name])} loads"
        cells = ", ".join(f"{c} ({n})" for c, n in Counter(c for _, c in held).most_common())
        return (f"its socket waited in {len(held)} of {len(holds[name])} loads, median "
                f"{statistics.median(w for w, _ in holds[name]):.0f} ms over all loads, "
                f"longest {max(w for w, _ in held):.0f} ms, for: {cells}")

    probe = medians(PROBE.name)
    results = []
    for name in pages:
        own = medians(name)
        steps = ", ".join(
            f"{label} +{own[i] - (own[i - 1] if i else 0):.0f}"
            + ("" if name == PROBE.name else f" ({probe[i] - (probe[i - 1] if i else 0):.0f})")
            for i, (label, _) in enumerate(COLD_PHASES))
        results.append(Result(
            f"{name}: cold, usable after the end of its HTML", own[-1] / 1000, "s", None, False,
            f"HTML ends at {statistics.median(ends[name]) / 1000:.2f} s (median of "
            f"{len(ends[name])}); then, ms each (the probe's in brackets): {steps}; "
            + waits(name)))
    return results


# --- Split ---------------------------------------------------------------------------------

#: The split part's cut copies of a dashboard, by the letter added to its number ("05h_..."):
#: what each keeps of the cells after the first widget's (all cells up to it are kept).
SPLITS = {"h": ("up to its first widget", lambda cell: False),
          "t": ("with the text after it", lambda cell: cell["cell_type"] == "markdown"),
          "c": ("with the code after it", lambda cell: cell["cell_type"] == "code")}


def first_widget_cell(notebook: dict) -> int:
    """The index of the first cell whose saved outputs show a widget (the page's first usable
    widget); ValueError when no saved output does."""
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code" and any(
                WIDGET_VIEW in output.get("data", {}) for output in cell.get("outputs", [])):
            return index
    raise ValueError("no cell of the notebook has a saved widget output; the split part cuts "
                     "a dashboard after its first widget, so its outputs must be saved")


def split_notebooks(notebook: Path, folder: Path) -> tuple[int, dict[str, str]]:
    """Write SPLITS' cut copies of `notebook` into `folder` (05_x.ipynb -> 05h_x.ipynb, ...);
    return the index of the cell they are cut after and their file names by split letter."""
    whole = json.loads(notebook.read_text())
    first = first_widget_cell(whole)
    number, rest = notebook.name.split("_", 1)
    names = {}
    for letter, (_, keep) in SPLITS.items():
        cut = dict(whole, cells=[c for i, c in enumerate(whole["cells"])
                                 if i <= first or keep(c)])
        names[letter] = f"{number}{letter}_{rest}"
        (folder / names[letter]).write_text(json.dumps(cut, indent=1))
    return first, names


def run_split(browser, names: list[str]) -> list[Result]:
    """The split part: each dashboard beside its SPLITS cut copies and the probe on one server,
    SAMPLES rounds in turn, preheated and then cold; every page's ratio to the probe. The cut
    up to the first widget tells what the page costs before it (its imports, its first cells,
    its first widget); the others what its later text and its later code add, each alone."""
    # Only these pages: every notebook served keeps a preheated kernel (about 100 MB).
    site = site_with_probe(names)
    firsts, cuts = {}, {}
    for name in names:
        firsts[name], cuts[name] = split_notebooks((SITE / name).resolve(), site)
    pages = [PROBE.name] + [p for name in names for p in (name, *cuts[name].values())]
    results = []
    for preheated in (True, False):
        kind = "preheated" if preheated else "cold"
        server = VoilaServer(port=free_port(), site=site, extra_args=() if preheated else COLD)
        loads = loads_in_turn(browser, {kind: server}, pages, preheated)
        times = {name: [sample[0] for sample in loads[kind, name]] for name in pages}
        ratios = ratios_to(times, PROBE.name)
        results.append(Result(f"floor (probe page): open to usable, {kind}",
                              statistics.median(times[PROBE.name]), "s", None, False,
                              f"median of {SAMPLES}"))
        for name in names:
            for label, page in [(f"{SPLITS[k][0]} (cell {firsts[name]})" if k == "h"
                                 else SPLITS[k][0],
                                 cuts[name][k]) for k in SPLITS] + [("whole", name)]:
                results.append(Result(
                    f"{name}: {kind}, {label}, ratio to the floor", ratios[page].value, "x",
                    FLOOR_RATIO_TARGET, False,
                    f"{RESOLVED[ratios[page].verdict(FLOOR_RATIO_TARGET)]}: 90 % interval "
                    f"{ratios[page].low:.2f}-{ratios[page].high:.2f}; median "
                    f"{statistics.median(times[page]):.2f} s"))
    return results


# --- Clicks -------------------------------------------------------------------------------


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


def run_clicks(browser, names: list[str]) -> list[Result]:
    """The clicks part: one preheated server, each dashboard with a timed control."""
    server = VoilaServer(port=free_port()).start()
    results = []
    try:
        server.wait_for_pools(dashboards(), timeout=600)
        server.wait_until_quiet(timeout=600)
        for name in names:
            if name in CLICKS:
                clicks = time_clicks(browser, server, name)
                results.append(Result(
                    f"{name}: click to update (median of {SAMPLES})", statistics.median(clicks),
                    "ms", CLICK_TARGET_MS, False,
                    f"samples {', '.join(f'{t:.0f}' for t in clicks)}"))
    finally:
        server.stop()
    return results


# --- 30 viewers at once -------------------------------------------------------------------


def server_cpu(server: VoilaServer) -> dict[int, float]:
    """CPU seconds used so far by Voilà and each of its kernels, by pid."""
    if server.process is None:
        return {}
    return {pid: cpu_seconds(pid) for pid in [server.process.pid, *server.kernel_pids()]}


def page_state(page) -> dict:
    """What a page that did not become usable shows: load state, kernel, text, widgets."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return page.evaluate("""() => {
          const cfg = document.querySelector('#jupyter-config-data');
          let kernel = null;
          try { kernel = cfg ? JSON.parse(cfg.textContent).kernelId : null; } catch (e) {}
          return {url: location.href, readyState: document.readyState, kernel,
                  widgets: document.querySelectorAll('.jupyter-widgets').length,
                  text: document.body ? document.body.innerText.slice(0, 200) : ''};
        }""")
    except PlaywrightError as e:  # a page that crashed or is still between documents
        return {"url": page.url, "error": str(e)[:200]}


def why_not_usable(page, server: VoilaServer, log_from: int) -> str:
    """The page's last state and the server's log lines (since the rush began) for its kernel,
    or the server's warnings and errors when the page never got a kernel."""
    state = page_state(page)
    log = server.log()[log_from:].splitlines()
    kernel = state.get("kernel")
    if kernel:
        lines = [line for line in log if kernel in line]
    else:
        lines = [line for line in log if re.search(r"WARNING|ERROR|Traceback|[Tt]imeout", line)]
    errors = page.console_errors[-3:]
    return (f"page {json.dumps(state)[:400]}; console errors {errors}; "
            f"server log ({'kernel ' + kernel if kernel else 'no kernel named'}): "
            + (" | ".join(line[:200] for line in lines[-8:]) or "nothing"))


def viewers_at_once(browser, server: VoilaServer, names: list[str], viewers: int):
    """Open `viewers` pages at once (no waiting for a first byte) over `names` in turn; return
    (seconds to usable of each page that became usable within RUSH_TIMEOUT_S, wall seconds,
    server CPU seconds used meanwhile, MB per kernel, why each other page was not usable)."""
    log_from = len(server.log())
    cpu_before = server_cpu(server)
    t0 = time.monotonic()
    pages = [open_page(browser, server.dashboard_url(names[i % len(names)]), wait=False)
             for i in range(viewers)]
    usable, failed = [], []
    for p in pages:
        left_ms = max(1_000.0, (RUSH_TIMEOUT_S - (time.monotonic() - t0)) * 1000)
        try:
            usable.append(usable_after_ms(p, timeout=left_ms) / 1000)
        except RuntimeError:
            failed.append(p)
    wall = time.monotonic() - t0
    cpu_after = server_cpu(server)
    cpu = sum(after - cpu_before.get(pid, 0.0) for pid, after in cpu_after.items())
    memory = server.kernels_rss_mb()
    reasons = [why_not_usable(p, server, log_from) for p in failed]
    for p in pages:
        close_page(p)
    return usable, wall, cpu, memory, reasons


def rush_results(browser, server: VoilaServer, names: list[str], setting: str,
                 viewers: int, targets: bool = False) -> list[Result]:
    """`viewers` pages opened at once on `server`: how many became usable, median and slowest,
    server CPU per viewer, memory; every page that was not usable, with why."""
    load = machine_load()
    usable, wall, cpu, memory, reasons = viewers_at_once(browser, server, names, viewers)
    where = "dashboard 1" if len(names) == 1 else "round-robin"
    head = f"{viewers} viewers at once, {where} ({setting})"
    results = [
        Result(f"{head}: usable within {RUSH_TIMEOUT_S} s", len(usable), "pages", viewers, True,
               f"wall {wall:.1f} s; {load} at the start"
               + "".join(f"\n    NOT USABLE: {r}" for r in reasons)),
        Result(f"{head}: median open to usable", statistics.median(usable or [float("nan")]),
               "s", RUSH_MEDIAN_TARGET_S if targets else None, False),
        Result(f"{head}: slowest usable", max(usable or [float("nan")]), "s",
               RUSH_SLOWEST_TARGET_S if targets else None, False),
        Result(f"{head}: server CPU per viewer", cpu / viewers, "s", None, False,
               f"Voilà and its kernels, {cpu:.0f} CPU s in all during the rush"),
    ]
    if memory:
        results.append(Result(
            f"{head}: memory per kernel (median)", statistics.median(memory), "MB", None, False,
            f"{len(memory)} kernels, max {max(memory):.0f} MB, total {sum(memory) / 1024:.1f} GB"))
    return results


def run_rush_lesson(browser, names: list[str], viewers: int) -> list[Result]:
    """The rush-lesson part: prepare `LESSON=01_rolling_dice CLASS=viewers`, report how long
    it took and its memory, then open `viewers` pages at once on dashboard 1."""
    name = f"{LESSON}.ipynb"
    started = time.monotonic()
    server = VoilaServer(port=free_port(), lesson=LESSON, class_size=viewers,
                         fill_delay=CLASS_FILL_DELAY).start()
    try:
        ready = rf"Lesson {re.escape(name)} ready: .*? ([\d.]+) s after the start; (\d+) kernels use (\d+) MB"
        deadline = time.monotonic() + 900
        while not (found := re.search(ready, server.log())):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the lesson was not ready in 900 s:\n{server.log()[-3000:]}")
            time.sleep(0.5)
        prepared = time.monotonic() - started
        server.wait_until_quiet(timeout=600)
        memory = server.kernels_rss_mb()
        results = [
            Result(f"lesson {LESSON} CLASS={viewers}: preparing (start to every kernel ready)",
                   prepared, "s", None, False,
                   f"Voilà's log: ready {found.group(1)} s after Voilà started; "
                   f"{machine_load()}"),
            Result(f"lesson {LESSON} CLASS={viewers}: kernels' memory at rest", sum(memory) / 1024,
                   "GB", None, False,
                   f"{len(memory)} kernels ({viewers} for the lesson, 1 per other dashboard), "
                   f"median {statistics.median(memory or [0]):.0f} MB each"),
        ]
        setting = f"LESSON={LESSON} CLASS={viewers}"
        results += rush_results(browser, server, [name], setting, viewers, targets=True)
    finally:
        server.stop()
    return results


def run_rush_one(browser, names: list[str], viewers: int) -> list[Result]:
    """The rush-one part: `viewers` pages at once on dashboard 1, default settings."""
    server = VoilaServer(port=free_port()).start()
    try:
        server.wait_for_pools(dashboards(), timeout=600)
        server.wait_until_quiet(timeout=600)
        return rush_results(browser, server, [f"{LESSON}.ipynb"], "default settings", viewers)
    finally:
        server.stop()


def run_rush_round(browser, names: list[str], viewers: int) -> list[Result]:
    """The rush-round part: `viewers` pages at once over the dashboards, with the defaults and
    with POOL=5 FILL_DELAY=120."""
    results = []
    for pool, delay, setting in ((1, 5, "default settings"),
                                 (CLASS_POOL, CLASS_FILL_DELAY,
                                  f"POOL={CLASS_POOL} FILL_DELAY={CLASS_FILL_DELAY}")):
        server = VoilaServer(port=free_port(), pool=pool, fill_delay=delay).start()
        try:
            server.wait_for_pools(dashboards(), timeout=900)
            server.wait_until_quiet(timeout=900)
            results += rush_results(browser, server, names, setting, viewers)
        finally:
            server.stop()
    return results


RUNNERS: dict[str, Callable[..., list[Result]]] = {
    "floor": run_floor,
    "floor-cut": run_floor_cut,
    "cold-cut": run_cold_cut,
    "text-first": run_text_first,
    "later-cells": run_later_cells,
    "whole-html": run_whole_html,
    "breakdown": run_breakdown,
    "cold-phases": run_cold_phases,
    "split": run_split,
    "clicks": run_clicks,
    "rush-lesson": run_rush_lesson,
    "rush-one": run_rush_one,
    "rush-round": run_rush_round,
}


def check_parts(parts: list[str]) -> list[str]:
    """The parts named, in PARTS order (ValueError for an unknown one)."""
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise ValueError(f"unknown part(s) {', '.join(unknown)}; the parts are {', '.join(PARTS)}")
    return [p for p in PARTS if p in parts]


def device_cores() -> tuple[set[int], set[int]]:
    """The cores for the browser (the last one this process may use) and for everything else:
    two devices on one machine. ValueError with fewer than two cores."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise ValueError(f"--own-device needs two cores or more; this process may use {cores}")
    return {cores[-1]}, set(cores[:-1])


def run(parts: list[str] | None = None, viewers: int = VIEWERS,
        own_device: bool = False) -> list[Result]:
    """Measure the parts named (default: HENKIT_BENCH_PARTS, else every part but those
    WHEN_NAMED); own_device puts the browser on a core of its own, the servers and their
    kernels on the others."""
    from playwright.sync_api import sync_playwright

    if parts is None:
        env = os.environ.get("HENKIT_BENCH_PARTS", "")
        parts = [p.strip() for p in env.split(",") if p.strip()] or default_parts()
    parts = check_parts(parts)
    if not 1 <= viewers <= 200:
        raise ValueError(f"viewers is a whole number from 1 to 200, not {viewers}")
    browser_cores, server_cores = device_cores() if own_device else (None, None)
    # A benchmark stopped by SIGTERM (a CI timeout) still stops its Voilà servers.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # The benchmark's pages and kernels write to a class pool of their own, never a real class's.
    os.environ["HENKIT_CLASS_DB"] = str(
        scratch_folder("henkit-bench-pool-") / "class.sqlite3")
    names = chosen()
    peer = pickomino_steps_per_second()
    results = [Result(
        "machine: pickomino-env random play (reference)", peer or float("nan"), "st/s", None,
        True, f"{machine_load()}; 3,100 st/s on one idle core of the development machine"
        if peer else "pickomino-env not installed (make bench installs it)")]
    every_core = os.sched_getaffinity(0)
    if own_device:
        results.append(Result(
            "own device: cores for the browser", len(browser_cores), "cores", None, True,
            f"the browser on {sorted(browser_cores)}, the servers and their kernels on "
            f"{sorted(server_cores)}"))
        # In a class each browser runs on its own device; here it shares the cores with the
        # server and the kernels, and a lesson's cells, still running once its page has its
        # first widget, slowed that page's own start. A process inherits its parent's cores, so
        # the Playwright driver and Chromium (and every renderer it forks) start on the
        # browser's core, and every server started after them, with its kernels, on the others.
        os.sched_setaffinity(0, browser_cores)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            if own_device:
                os.sched_setaffinity(0, server_cores)
            try:
                for part in parts:
                    print(f"  {part} ... ({machine_load()})", file=sys.stderr, flush=True)
                    runner = RUNNERS[part]
                    if part.startswith("rush"):
                        results += runner(browser, names, viewers)
                    else:
                        results += runner(browser, names)
            finally:
                browser.close()
    finally:
        os.sched_setaffinity(0, every_core)
    results.append(Result("machine load average (1 min) at the end", os.getloadavg()[0], "",
                          None, False, machine_load()))
    return results


def main(argv: list[str] | None = None) -> int:
    """Run some parts with options and print their table."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_dashboards",
                                description=__doc__.splitlines()[0])
    p.add_argument("--parts", default=",".join(default_parts()),
                   help=f"comma-separated, from: {', '.join(PARTS)} (default: all but "
                   f"{', '.join(WHEN_NAMED)})")
    p.add_argument("--viewers", type=int, default=VIEWERS, help="pages in a rush (default 30)")
    p.add_argument("--samples", type=int, default=5, help="page loads per figure (default 5)")
    p.add_argument("--own-device", action="store_true",
                   help="the browser on a core of its own, the servers and kernels on the "
                   "others, as when every viewer has their own device")
    args = p.parse_args(argv)
    global SAMPLES  # one setting read by every part
    if args.samples < 1:
        p.error("--samples must be at least 1")
    SAMPLES = args.samples
    try:
        results = run([x.strip() for x in args.parts.split(",") if x.strip()], args.viewers,
                      args.own_device)
    except ValueError as e:
        p.error(str(e))
    print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
