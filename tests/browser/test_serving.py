"""How `make serve` serves a dashboard, checked on the probe notebook: a landing page lists it, it
loads offline with no error, shows its widget and chart, hides its code, and the server never
moves to another port. The published notebooks are tested in test_dashboards.py."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .browsing import (
    DASHBOARDS,
    PROBE,
    ROOT,
    VIEWPORT,
    PageLog,
    VoilaServer,
    free_port,
    isolated_env,
    loaded_scripts,
    open_dashboard_page,
    page_config,
    probe_site,
    shown_code,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser


def test_the_landing_page_lists_the_dashboards_without_a_kernel(page, probe):
    sockets, requests = [], []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(probe.url)
    page.wait_for_load_state("networkidle")
    links = page.locator("#dashboards a")
    assert links.count() == 1
    assert links.first.get_attribute("href") == f"/voila/render/{PROBE.name}"
    assert links.first.inner_text() == "probe"  # no description given: the file name
    assert page.log.problems() == {}
    # The landing page costs the server no kernel: it neither connects to one nor asks for one.
    # (Counting kernel processes would race the preheated pools refilling after other tests.)
    assert sockets == []
    assert not [u for u in requests if "/api/kernels" in u or "/voila/render/" in u], requests


def test_a_dashboard_loads_offline_cleanly_with_its_code_hidden(page, probe):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    page.locator(".js-plotly-plot .main-svg").first.wait_for()  # plotly's offline renderer
    page.wait_for_load_state("networkidle")

    assert page.log.problems() == {}
    assert page.get_by_role("button", name="Roll").is_enabled()
    assert page.get_by_text("A widget and a plotly chart").is_visible()  # markdown shows
    assert shown_code(page, json.loads(PROBE.read_text())) == []


def test_plotly_redraws_after_a_click(page, probe):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    bars = page.locator(".js-plotly-plot .barlayer .point path")
    bars.first.wait_for()
    label = page.locator(".widget-label").first
    before, heights = label.inner_text(), [bars.nth(i).get_attribute("d") for i in range(6)]
    page.get_by_role("button", name="Roll").click()
    page.wait_for_function(
        "b => document.querySelector('.widget-label').innerText !== b", arg=before
    )
    page.wait_for_function(
        "h => [...document.querySelectorAll('.js-plotly-plot .barlayer .point path')]"
        ".map(p => p.getAttribute('d')).join() !== h.join()",
        arg=heights,
    )
    assert page.log.problems() == {}


def test_charts_are_drawn_by_the_servers_own_plotly_js_not_a_lab_extension(page, probe):
    import plotly

    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    page.locator(".henkit-chart.js-plotly-plot .main-svg").first.wait_for()
    # plotly's JupyterLab extension (4.8 MB before the first widget), anywidget and the code
    # highlighter (sources are stripped) are off; both widget managers stay (the Output widget,
    # which draws the charts, needs JupyterLab's).
    loaded = {e["name"] for e in page_config(page).get("federated_extensions", [])}
    assert loaded == {"@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8"}
    scripts = page.evaluate(
        "performance.getEntriesByType('resource').map(r => r.name).filter(n => /plotly/.test(n))"
    )
    url = f"{probe.url}voila/templates/henkit/static/plotly.min.js?v={plotly.__version__}"
    assert scripts == [url]  # one request for plotly.js, however many charts
    with urllib.request.urlopen(url) as served:
        assert "max-age" in served.headers["Cache-Control"]  # versioned: cached for good
        shipped = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
        assert served.read() == shipped.read_bytes()  # the installed plotly's own copy
    assert page.log.problems() == {}


def test_a_page_preloads_exactly_the_scripts_it_loads(page, probe):
    # The template names them in the head (dashboards/voila_server.py, preload.json): one that
    # the page never loads would cost bytes, one missing would be found a wave later.
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    page.locator(".henkit-chart.js-plotly-plot .main-svg").first.wait_for()
    page.wait_for_load_state("networkidle")
    preloaded = page.eval_on_selector_all(
        "head link[rel=preload][as=script]", "links => links.map(l => l.href)")
    preloaded = [href.removeprefix(probe.url) for href in preloaded]
    assert preloaded, "nothing preloaded: `python -m tests.browser.browsing write-preloads`"
    assert sorted(preloaded) == sorted(set(loaded_scripts(page, probe.url)))
    assert page.log.problems() == {}


def test_the_scripts_every_page_loads_are_compressed_as_the_server_starts(probe):
    # The first viewers after a start get the gzip copies made already (voila_server.py,
    # _compress_ahead): every preloaded script and plotly.js, asked for as a browser asks.
    import re

    preload = DASHBOARDS / "jupyter" / "voila" / "templates" / "henkit" / "preload.json"
    scripts = json.loads(preload.read_text())["scripts"]
    deadline = time.monotonic() + 60
    while not (done := re.search(r"(\d+) scripts compressed ahead of the first page",
                                 probe.log())):
        assert time.monotonic() < deadline, probe.log()[-2000:]
        time.sleep(0.2)
    assert int(done.group(1)) == len(scripts) + 1 > 1
    assert "ahead failed" not in probe.log()


def test_closing_a_dashboard_shuts_its_kernel_down(page, probe):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    kernel = page_config(page)["kernelId"]
    # The shutdown request needs the _xsrf cookie; the page gets it even when opened directly.
    page.wait_for_function("/(^|; )_xsrf=/.test(document.cookie)", timeout=20_000)
    assert page.log.problems() == {}
    page.close(run_before_unload=True)  # as a viewer closes the tab
    deadline = time.monotonic() + 30
    while f"Kernel shutdown: {kernel}" not in probe.log():
        assert time.monotonic() < deadline, probe.log()[-2000:]
        time.sleep(0.2)
    assert f"403 POST /voila/api/shutdown/{kernel}" not in probe.log()


def test_kernels_talk_over_private_unix_sockets_not_tcp_ports(probe):
    # Many kernels started at once over TCP can pick the same free port: one dies ("Address
    # already in use") and a viewer is given it. Unix sockets in Voilà's private folder cannot
    # collide, and no other local user can reach them.
    checked = 0
    for pid in probe.kernel_pids():
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            connection = json.loads(Path(args[args.index(b"-f") + 1].decode()).read_text())
        except (FileNotFoundError, ValueError):
            continue  # shut down meanwhile (a page gone: the server ends its kernel)
        assert connection["transport"] == "ipc", connection
        folder = Path(connection["ip"]).parent
        assert folder.stat().st_mode & 0o077 == 0, oct(folder.stat().st_mode)  # owner only
        checked += 1
    assert checked  # the preheated kernels at least


def test_voila_runs_with_the_lost_wakeup_guard(probe):
    # dashboards/voila_server.py (tested in tests/test_voila_server.py) must be what serve.sh
    # starts: with plain `python -m voila` 10 of 188 pages opened during refills hung.
    args = Path(f"/proc/{probe.process.pid}/cmdline").read_bytes().split(b"\0")
    assert str(DASHBOARDS / "voila_server.py").encode() in args, args


def test_the_server_refuses_to_move_to_another_port(probe, tmp_path):
    env = isolated_env(tmp_path)
    env.update(PORT=str(probe.port), HENKIT_PYTHON=str(ROOT / ".venv" / "bin" / "python"))
    done = subprocess.run(
        [str(DASHBOARDS / "serve.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    log = done.stdout + done.stderr
    assert done.returncode != 0, log
    assert f"{probe.port}" in log and "is running at" not in log, log


def wait_for_log(server: VoilaServer, text: str, count: int = 1, timeout: float = 180) -> None:
    """Wait until the server's log holds `text` at least `count` times."""
    deadline = time.monotonic() + timeout
    while server.log().count(text) < count:
        assert time.monotonic() < deadline, f"no {text!r} x{count} in:\n{server.log()[-3000:]}"
        assert server.process.poll() is None, server.log()[-3000:]
        time.sleep(0.25)


def test_a_lesson_gets_a_preheated_kernel_per_student_and_the_class_pool_is_made_first(tmp_path):
    # `make serve LESSON=probe CLASS=2` on a site of two notebooks, the class pool in DATA:
    # the lesson keeps 2 kernels, the other notebook POOL=1, and a used kernel is replaced.
    from henkit.classpool.stores import open_store

    site = probe_site(tmp_path / "site")
    (site / "other.ipynb").symlink_to(PROBE)
    data = tmp_path / "data"
    server = VoilaServer(port=free_port(), site=site, pool=1, fill_delay=1, lesson="probe",
                         class_size=2, data=data)
    server.start()
    try:
        wait_for_log(server, "Lesson probe.ipynb ready: 2 preheated kernels have run it")
        wait_for_log(server, "Kernel pool of other.ipynb is filled with 1 kernel(s)")
        log = server.log()
        assert "Kernel pool of probe.ipynb is filled with 2 kernel(s)" in log
        pids = server.kernel_pids()
        assert len(pids) == 3, log[-3000:]

        # The pool was made (with a class session) and named in the log before Voilà started,
        # and every kernel is given it.
        pool = data / "class.sqlite3"
        assert log.index(f"class pool: {pool}") < log.index("is running at")
        assert len(open_store(str(pool)).status().sessions) == 1
        for pid in pids:
            environ = dict(
                item.split(b"=", 1)
                for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0") if b"=" in item
            )
            assert environ[b"HENKIT_CLASS_DB"] == str(pool).encode()

        # A viewer takes one of the lesson's kernels; FILL_DELAY later the pool is full again.
        with urllib.request.urlopen(server.dashboard_url("probe.ipynb"), timeout=120) as r:
            assert r.status == 200 and b"Probe dashboard" in r.read()
        assert "Using pre-heated kernel" in server.log()
        wait_for_log(server, "Kernel pool of probe.ipynb is filled with 2 kernel(s)", count=2)
    finally:
        server.stop()


# --- A viewer past the pool: the page at once, each output as its cell runs ------------------

LESSON_05 = "05b_hens_seen_and_unseen.ipynb"  # one of the longest lessons, with a game


@pytest.fixture(scope="module")
def past_the_pool(tmp_path_factory) -> Iterator[VoilaServer]:
    """The probe and lesson 5b, one preheated kernel each, replaced only after 600 s: a second
    viewer finds none ready (Voilà would have made them wait for the replacement)."""
    site = probe_site(tmp_path_factory.mktemp("past-the-pool"))
    (site / LESSON_05).symlink_to((DASHBOARDS / "site" / LESSON_05).resolve())
    server = VoilaServer(port=free_port(), site=site, pool=1, fill_delay=600).start()
    try:
        server.wait_for_pools([PROBE.name, LESSON_05])
        server.wait_until_quiet()
        yield server
    finally:
        server.stop()


def two_viewers(chromium, server: VoilaServer, name: str,
                init: str = "") -> tuple[list, int]:
    """Two viewers open `name` one after the other (running `init` first, if given), each page
    complete (every cell's result placed); and how many of the two the server served from a
    preheated kernel."""
    pages, served = [], server.log().count("Using pre-heated kernel")
    for _ in range(2):
        page = chromium.new_context(viewport=VIEWPORT).new_page()
        page.log = PageLog("http://127.0.0.1:").attach(page)
        if init:
            page.add_init_script(init)
        open_dashboard_page(page, server, name)
        pages.append(page)
    return pages, server.log().count("Using pre-heated kernel") - served


def settled(page, snapshot: str, timeout: float = 30) -> list:
    """`snapshot` (a JS function of the page's [cell-index] cells) once two readings half a
    second apart agree: widget views and charts draw after their cell's result is placed."""
    deadline = time.monotonic() + timeout
    before = page.locator("[cell-index]").evaluate_all(snapshot)
    while True:
        page.wait_for_timeout(500)
        now = page.locator("[cell-index]").evaluate_all(snapshot)
        if now == before or time.monotonic() > deadline:
            return now
        before = now


# Where a placeholder would show, the computed style that shows it: a text cell's placeholder is
# hidden and a code cell's stands still (the template's rules over Voilà's own).
PLACEHOLDERS = """() => {
  const made = [];
  for (const kind of ['jp-MarkdownCell', 'jp-CodeCell']) {
    const cell = document.createElement('div');
    cell.setAttribute('cell-index', '999');
    cell.innerHTML = `<div class="jp-Cell ${kind}"></div><div class="voila-skeleton-container">
      <div class="voila-skeleton-post"><div class="voila-skeleton-avatar"></div>
      <div class="voila-skeleton-line"></div></div></div>`;
    document.getElementById('rendered_cells').appendChild(cell);
    const box = getComputedStyle(cell.querySelector('.voila-skeleton-container')).display;
    const moving = [...cell.querySelectorAll('.voila-skeleton-post > div')].map(
      d => getComputedStyle(d).animationName);
    made.push([kind, box, moving]);
    cell.remove();
  }
  return made;
}"""


def test_a_viewer_past_the_pool_gets_the_page_at_once_and_it_works(chromium, past_the_pool):
    (first, second), preheated = two_viewers(chromium, past_the_pool, PROBE.name)
    try:
        # The first takes the preheated kernel and its page comes in one piece; the second
        # gets its page at once, its outputs cell by cell (Voilà's progressive rendering).
        assert page_config(first)["progressiveRendering"] is False
        assert page_config(second)["progressiveRendering"] is True
        assert preheated == 1
        assert second.evaluate(PLACEHOLDERS) == [
            ["jp-MarkdownCell", "none", ["none", "none"]],
            ["jp-CodeCell", "flex", ["none", "none"]],
        ]
        # The same page: the probe's seeded dice, its text and its chart.
        label = [p.locator(".widget-label").first.inner_text() for p in (first, second)]
        assert label[0] == label[1] and label[0].startswith("dice: ")
        second.locator(".js-plotly-plot .main-svg").first.wait_for()
        assert second.get_by_text("A widget and a plotly chart").is_visible()
        assert shown_code(second, json.loads(PROBE.read_text())) == []
        # It answers a click, and closing it shuts its own kernel down.
        second.get_by_role("button", name="Roll").click()
        second.wait_for_function(
            "b => document.querySelector('.widget-label').innerText !== b", arg=label[1])
        kernel = page_config(second)["kernelId"]
        second.wait_for_function("/(^|; )_xsrf=/.test(document.cookie)", timeout=20_000)
        assert first.log.problems() == {} and second.log.problems() == {}
        second.close(run_before_unload=True)
        deadline = time.monotonic() + 30
        while f"Kernel shutdown: {kernel}" not in past_the_pool.log():
            assert time.monotonic() < deadline, past_the_pool.log()[-2000:]
            time.sleep(0.2)
    finally:
        for page in (first, second):
            page.context.close()
    assert "Traceback" not in past_the_pool.log()


# Each cell's index, words (white space aside: one print can reach a page as two stream outputs,
# on two lines, as the kernel happens to flush) and number of widget views; a cell holding a seed
# box ("New seed") stands for a game of the viewer's own (its cards, and so its views, differ).
OWN_GAMES_ASIDE = """cells => cells.map(c => [c.getAttribute('cell-index'),
    ...([...c.querySelectorAll('button')].some(b => b.textContent.trim() === 'New seed')
        ? ["(a game of the viewer's own)", null]
        : [c.innerText.split(/\\s+/).join(' ').trim(),
           c.querySelectorAll('.jupyter-widgets').length])])"""


# What the page template says of the widget outputs it draws after the first, how many it drew
# and how many of those show no widget (still loading, or an error in its place).
DRAWN_LATER = """() => {
  const later = [...document.querySelectorAll('.hk-drawn-later')];
  return [document.getElementById('rendered_cells').dataset.henkitOutputs ?? null, later.length,
          later.filter((host) => !host.querySelector(':scope > .jupyter-widgets')).length];
}"""


# Installed before a page loads: in the first frame its first widget is visible, which cells
# (by their place among the [cell-index] cells) are not laid out, and the first widget's cell.
AT_FIRST_WIDGET = """(() => {
  const look = () => {
    const widget = document.querySelector('#rendered_cells .jupyter-widgets');
    if (!widget || widget.offsetParent === null) {
      requestAnimationFrame(look);
      return;
    }
    const cells = [...document.querySelectorAll('[cell-index]')];
    // Hidden: not laid out, the explorer's cells aside (never shown on a dashboard).
    window.__henkitAtFirstWidget = [cells.indexOf(widget.closest('[cell-index]')), cells.length,
                                    cells.flatMap((c, i) => c.offsetParent === null &&
                                        !c.hasAttribute('data-hk-explorer') ? [i] : [])];
  };
  requestAnimationFrame(look);
})();"""


def test_a_lesson_shown_cell_by_cell_shows_what_its_preheated_page_shows(chromium, past_the_pool):
    (first, second), preheated = two_viewers(chromium, past_the_pool, LESSON_05,
                                             init=AT_FIRST_WIDGET)
    try:
        assert [page_config(p)["progressiveRendering"] for p in (first, second)] == [False, True]
        assert preheated == 1
        # Every cell's text and output, in order: the lesson is seeded, so the same to the digit,
        # except a game with a seed box, which deals each viewer a game of their own.
        outputs = [settled(p, OWN_GAMES_ASIDE) for p in (first, second)]
        cells = json.loads((past_the_pool.site / LESSON_05).read_text())["cells"]
        assert len(outputs[0]) == len(cells)
        assert outputs[1] == outputs[0]
        assert sum(text == "(a game of the viewer's own)" for _, text, _ in outputs[0]) >= 1
        assert sum(views or 0 for _, _, views in outputs[0]) > 0
        # The page sent whole drew its widget outputs after the first itself (the template's
        # script), each in its place (the outputs above agree with Voilà's progressive page,
        # cell by cell), every one a widget; the progressive page is Voilà's own.
        drawn, later, empty = first.evaluate(DRAWN_LATER)
        assert (drawn, empty) == ("shown", 0) and later >= 5
        assert second.evaluate(DRAWN_LATER) == [None, 0, 0]
        # The page sent whole showed its first widget with the cells after that widget's not
        # laid out yet, and then every cell; the progressive page had every cell laid out.
        widget_cell, count, hidden = first.evaluate("window.__henkitAtFirstWidget")
        assert widget_cell + 1 < count == len(cells)
        explorer = {i for i, c in enumerate(cells) if "explorer" in c["metadata"].get("tags", [])}
        assert hidden == [i for i in range(widget_cell + 1, count) if i not in explorer]
        assert first.locator(".hk-after-first").count() == 0
        assert first.locator("[cell-index]:not([data-hk-explorer])").evaluate_all(
            "cells => cells.filter(c => c.offsetParent === null).length") == 0
        assert second.evaluate("window.__henkitAtFirstWidget")[2] == []
        # A widget drawn that way talks to its kernel: the Lock button of the lesson's last
        # prediction box (a chance) opens once the kernel has read a typed prediction.
        box = first.locator(".hk-predict", has_text="next card off the deck is a Barnevelder")
        lock = box.get_by_role("button", name="Lock my prediction")
        assert lock.is_disabled()
        box.locator("input[type=text]").fill("50%")
        expect(lock).to_be_enabled(timeout=20_000)
        assert first.log.problems() == {} and second.log.problems() == {}
    finally:
        for page in (first, second):
            page.context.close()


# Installed before a page loads: when Voila's app appeared and when the cells held after the
# first widget's were shown (ms since the page began), and whether the outputs were ever drawn.
HELD_THEN_SHOWN = """(() => {
  window.__henkitHeld = {app: null, held: 0, shown: null};
  const look = setInterval(() => {
    const h = window.__henkitHeld, held = document.querySelectorAll('.hk-after-first').length;
    if (window.jupyterapp && h.app === null) h.app = performance.now();
    h.held = Math.max(h.held, held);
    if (h.held && !held && h.shown === null) {
      h.shown = performance.now();
      clearInterval(look);
    }
  }, 50);
})();"""


def test_a_preheated_lesson_shows_its_text_when_its_widget_states_never_come(chromium, tmp_path):
    # The kernel's channel is taken over in the browser and never answers: the page sent whole
    # (preheated) holds the cells after its first widget's, and must show them 5 s after
    # Voila's app has started, as a page whose kernel died would need.
    site = probe_site(tmp_path)
    (site / LESSON_05).symlink_to((DASHBOARDS / "site" / LESSON_05).resolve())
    server = VoilaServer(port=free_port(), site=site, pool=1, fill_delay=600).start()
    page = None
    try:
        server.wait_for_pools([PROBE.name, LESSON_05])
        server.wait_until_quiet()
        page = chromium.new_context(viewport=VIEWPORT).new_page()
        page.log = PageLog("http://127.0.0.1:").attach(page)
        silent: list = []
        page.route_web_socket(re.compile(r"/api/kernels/[^/?]+/channels"),
                              lambda ws: silent.append(ws.url))  # never connected to the server
        page.add_init_script(HELD_THEN_SHOWN)
        page.goto(server.dashboard_url(LESSON_05))
        assert page_config(page)["progressiveRendering"] is False  # the preheated page
        page.wait_for_function("window.__henkitHeld.shown !== null", timeout=30_000)
        held = page.evaluate("window.__henkitHeld")
        assert silent, "the page never opened its kernel's channel"
        cells = json.loads((site / LESSON_05).read_text())["cells"]
        assert 0 < held["held"] < len(cells)
        assert held["app"] is not None and 4_900 <= held["shown"] - held["app"] <= 8_000, held
        # The text is there to read; the widgets never came, and the page says it is still busy.
        assert page.locator(".hk-after-first").count() == 0
        assert page.locator("[cell-index]:not([data-hk-explorer])").evaluate_all(
            "cells => cells.filter(c => c.offsetParent === null).length") == 0
        assert page.locator("#rendered_cells").get_attribute("data-henkit-outputs") == "waiting"
        assert page.locator("#rendered_cells .jupyter-widgets .widget-button").count() == 0
    finally:
        if page is not None:
            page.context.close()
        server.stop()


# --- A cold page does not wait for its kernel -------------------------------------------------

GATED = "gated.ipynb"


def gated_server(tmp_path: Path, *extra: str) -> tuple[VoilaServer, Path]:
    """A server (no preheated kernels) whose one notebook, the probe's cells, runs in a kernel
    that starts only once its gate file exists: a kernel as slow to start as a test needs."""
    home, gate = tmp_path / "home", tmp_path / "gate"
    spec = home / "jupyter-data" / "kernels" / "gated"
    spec.mkdir(parents=True)
    python = str(ROOT / ".venv" / "bin" / "python")
    wait = 'while [ ! -e "$0" ]; do sleep 0.05; done; exec "$1" -m ipykernel_launcher -f "$2"'
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": ["sh", "-c", wait, str(gate), python, "{connection_file}"],
        "display_name": "gated", "language": "python"}))
    notebook = json.loads(PROBE.read_text())
    notebook["metadata"]["kernelspec"] = {"name": "gated", "display_name": "gated",
                                          "language": "python"}
    site = tmp_path / "site"
    site.mkdir()
    (site / GATED).write_text(json.dumps(notebook))
    server = VoilaServer(port=free_port(), site=site, home=home,
                         extra_args=("--VoilaConfiguration.preheat_kernel=False", *extra))
    return server.start(), gate


@pytest.fixture
def gated_kernel(tmp_path) -> Iterator[tuple[VoilaServer, Path]]:
    """gated_server's server and gate file, the gate opened and the server stopped after."""
    server, gate = gated_server(tmp_path)
    try:
        yield server, gate
    finally:
        gate.touch()  # a kernel still waiting starts and is shut down with the server
        server.stop()


@pytest.fixture
def impatient_gated_kernel(tmp_path) -> Iterator[tuple[VoilaServer, Path]]:
    """gated_kernel's, with a kernel given STARTUP_SECONDS to be ready (Voilà's default: 60)."""
    server, gate = gated_server(tmp_path, f"--VoilaExecutor.startup_timeout={STARTUP_SECONDS}")
    try:
        yield server, gate
    finally:
        gate.touch()
        server.stop()


#: The impatient server's startup time for a kernel, in seconds.
STARTUP_SECONDS = 2


def works_once_the_gate_opens(page, gate: Path) -> None:
    """Open the gate: the page then shows every cell's output (no placeholder left), its chart
    is drawn, a click changes its label, and nothing went wrong on the page."""
    gate.touch()
    wait_for_widgets(page)
    page.locator(".js-plotly-plot .main-svg").first.wait_for()
    before = page.locator(".widget-label").first.inner_text()
    page.get_by_role("button", name="Roll").click()
    page.wait_for_function(
        "b => document.querySelector('.widget-label').innerText !== b", arg=before)
    assert page.locator(".voila-skeleton-container").count() == 0
    assert page.log.problems() == {}


def test_a_cold_page_is_sent_whole_while_its_kernel_starts_and_works_once_it_is_up(
        chromium, gated_kernel):
    server, gate = gated_kernel
    # The whole page, text, cells and scripts, comes while the kernel cannot have started. (A
    # page that waited for its kernel would never end: Voilà sends it a heartbeat every 10 s.)
    deadline, chunks = time.monotonic() + 60, []
    with urllib.request.urlopen(server.dashboard_url(GATED), timeout=60) as response:
        while chunk := response.read1(2**16):
            chunks.append(chunk)
            assert time.monotonic() < deadline, "the page is waiting for its kernel"
    html = b"".join(chunks).decode()
    assert html.rstrip().endswith("</html>")
    assert "A widget and a plotly chart" in html and 'cell-index="2"' in html
    assert "/voila/static/voila.js" in html
    kernel = json.loads(html.split('id="jupyter-config-data" type="application/json">')[1]
                        .split("</script>")[0])["kernelId"]
    assert kernel and not gate.exists()
    # In a browser: the lesson's text shows with the kernel still starting, and no widget.
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    page.log = PageLog("http://127.0.0.1:").attach(page)
    try:
        open_dashboard_page(page, server, GATED, complete=False)
        expect(page.get_by_text("A widget and a plotly chart")).to_be_visible(timeout=60_000)
        page.wait_for_timeout(500)
        assert page.locator(".jupyter-widgets").count() == 0
        # Once the kernel is up, the page connects to it and shows every output; it works.
        works_once_the_gate_opens(page, gate)
    finally:
        page.context.close()
    assert "Traceback" not in server.log()


def test_a_page_whose_kernel_starts_too_slowly_for_the_early_run_works_once_it_is_up(
        chromium, impatient_gated_kernel):
    """A kernel not ready in the startup time (a class opening cold pages at once): the cells
    its page has waited for are run by Voilà when the page asks, once the kernel is up (an
    early run that gave up on them left the page's placeholders there for good)."""
    server, gate = impatient_gated_kernel
    page = chromium.new_context(viewport=VIEWPORT).new_page()
    page.log = PageLog("http://127.0.0.1:").attach(page)
    try:
        open_dashboard_page(page, server, GATED, complete=False)
        expect(page.get_by_text("A widget and a plotly chart")).to_be_visible(timeout=60_000)
        # The early run gives up on the kernel (jupyter_client's words, in the server's log).
        wait_for_log(server, f"Kernel didn't respond in {STARTUP_SECONDS} seconds", timeout=60)
        works_once_the_gate_opens(page, gate)
    finally:
        page.context.close()
    assert "was not ready for its cells to run early" in server.log()
    assert "Traceback" not in server.log()
