"""Serve the dashboards with Voilà and drive them with Debian's Chromium (tests and benchmark)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards"
SITE = DASHBOARDS / "site"
SCREENSHOTS = DASHBOARDS / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Flags from the project standards; the resolver rule makes every host but the server's
# unreachable, so a page that needs a CDN fails here as it would in an offline classroom.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
VIEWPORT = {"width": 1280, "height": 900}


PROBE = Path(__file__).with_name("probe.ipynb")


def dashboards(site: Path = SITE) -> list[str]:
    """The published dashboards: notebook links in dashboards/site/, sorted by name."""
    return sorted(p.name for p in site.glob("*.ipynb"))


def probe_site(folder: Path) -> Path:
    """A site publishing only tests/browser/probe.ipynb (a widget and a plotly chart), to test
    how the dashboards are served apart from what the notebooks hold."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PROBE.name).symlink_to(PROBE)
    return folder


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def isolated_env(home: Path) -> dict[str, str]:
    """os.environ with Jupyter, IPython and everything else that writes under ~ sent to `home`."""
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
        IPYTHONDIR=str(home / "ipython"),
        MPLCONFIGDIR=str(home / "matplotlib"),
        XDG_CACHE_HOME=str(home / "cache"),  # henkit's results cache among them
    )
    env.pop("JUPYTER_PATH", None)  # serve.sh sets it to the dashboards' template
    # Served as `make serve` serves: the kernels share a results cache, here under `home`, empty
    # at the start (the unit tests and notebook runs turn it off: conftest.py).
    env.pop("HENKIT_CACHE", None)
    return env


@dataclass
class VoilaServer:
    """One Voilà process started by dashboards/serve.sh on 127.0.0.1, stopped by its own pid."""

    port: int
    site: Path = SITE
    pool: int = 1
    fill_delay: float = 5
    extra_args: tuple[str, ...] = ()
    lesson: str = ""  # LESSON: a dashboard keeping class_size preheated kernels
    class_size: int | None = None  # CLASS
    data: Path | None = None  # DATA: the class pool's folder, in place of HENKIT_CLASS_DB
    env: dict[str, str] = field(default_factory=dict)  # more settings for serve.sh (CERT, KEY)
    # Where the server's Jupyter, IPython and cache folders and its log go: a temporary folder
    # of its own unless given, removed by stop() (its log is kept in memory for log()).
    home: Path | None = None
    process: subprocess.Popen | None = None
    _own_home: bool = field(default=False, init=False, repr=False)
    _last_log: str = field(default="", init=False, repr=False)

    def __post_init__(self) -> None:
        if self.home is None:
            self.home = Path(tempfile.mkdtemp(prefix="henkit-voila-"))
            self._own_home = True

    @property
    def url(self) -> str:
        """The server's root URL, ending in a slash."""
        scheme = "https" if self.env.get("CERT") else "http"
        return f"{scheme}://127.0.0.1:{self.port}/"

    def tls(self) -> ssl.SSLContext | None:
        """A TLS context trusting the server's own certificate (None over plain HTTP)."""
        return ssl.create_default_context(cafile=self.env["CERT"]) if self.env.get("CERT") else None

    def dashboard_url(self, name: str) -> str:
        """Where Voilà renders dashboards/site/<name>."""
        return f"{self.url}voila/render/{name}"

    @property
    def log_path(self) -> Path:
        """Voilà's log (stdout and stderr)."""
        return self.home / "voila.log"

    def log(self) -> str:
        """Everything Voilà has logged so far (after stop(), everything it logged)."""
        if self.log_path.exists():
            return self.log_path.read_text(errors="replace")
        return self._last_log

    def start(self, timeout: float = 60) -> VoilaServer:
        """Start Voilà and wait until the landing page answers; raise with the log if it doesn't."""
        self.home.mkdir(parents=True, exist_ok=True)  # again after a stop() removed it
        env = isolated_env(self.home)
        env.update(
            HOST="127.0.0.1",
            PORT=str(self.port),
            POOL=str(self.pool),
            FILL_DELAY=str(self.fill_delay),
            SITE=str(self.site),
            HENKIT_PYTHON=str(ROOT / ".venv" / "bin" / "python"),
        )
        if self.lesson:
            env["LESSON"] = self.lesson
        if self.class_size is not None:
            env["CLASS"] = str(self.class_size)
        if self.data is not None:
            env.pop("HENKIT_CLASS_DB", None)
            env["DATA"] = str(self.data)
        if not any("kernels_per_address" in arg for arg in self.extra_args):
            # Every page of the tests comes from one address (127.0.0.1): the cap on pages per
            # device is off unless a test sets it.
            env["PER_DEVICE"] = "0"
        env.update(self.env)
        with open(self.log_path, "wb") as log:
            # serve.sh execs Voilà, so this pid is Voilà's; a new session groups its kernels.
            self.process = subprocess.Popen(
                [str(DASHBOARDS / "serve.sh"), *self.extra_args],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()  # its kernels and home go too; the log stays readable
                raise RuntimeError(f"Voilà exited with {code}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url, timeout=2, context=self.tls()) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"Voilà did not answer on {self.url} in {timeout} s:\n{self.log()}")

    def filled_pools(self) -> set[str]:
        """Notebooks whose preheated kernel pool Voilà has reported full."""
        return set(re.findall(r"Kernel pool of (\S+) is filled", self.log()))

    def wait_for_pools(self, names: list[str], timeout: float = 180) -> None:
        """Wait until every named dashboard has its preheated kernels (pool > 0 only)."""
        deadline = time.monotonic() + timeout
        while not set(names) <= self.filled_pools():
            if time.monotonic() > deadline:
                missing = sorted(set(names) - self.filled_pools())
                raise RuntimeError(f"no preheated kernel for {missing} after {timeout} s")
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"Voilà exited while preheating:\n{self.log()}")
            time.sleep(0.25)

    def kernel_pids(self) -> list[int]:
        """Kernel processes Voilà started (jupyter_client gives each its own session)."""
        return kernel_children(self.process.pid) if self.process else []

    def wait_until_quiet(self, cpu_share: float = 0.1, timeout: float = 240) -> None:
        """Wait until Voilà and its kernels use under `cpu_share` of a core over a second: the
        preheated kernels have run their notebooks (Voilà reports a pool full when its kernels
        have started, before the notebooks have run)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = [self.process.pid, *self.kernel_pids()] if self.process else []
            before = sum(cpu_seconds(p) for p in pids)
            time.sleep(1.0)
            if sum(cpu_seconds(p) for p in pids) - before < cpu_share:
                return
        raise RuntimeError(f"Voilà and its kernels were still busy after {timeout} s")

    def stop(self) -> None:
        """Stop Voilà by its pid (SIGTERM, then SIGKILL), then any kernel it left running."""
        if self.process is not None:
            stop_server(self.process)
        self.process = None
        if self._own_home:
            self._last_log = self.log()
            shutil.rmtree(self.home, ignore_errors=True)

    def kernels_rss_mb(self) -> list[float]:
        """Resident memory (MB) of each kernel process Voilà runs now."""
        sizes = []
        for pid in self.kernel_pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except FileNotFoundError:
                continue
            kb = re.search(r"VmRSS:\s+(\d+) kB", status)
            if kb:
                sizes.append(int(kb.group(1)) / 1024)
        return sizes


def kernel_children(pid: int) -> list[int]:
    """The kernel processes a Jupyter server (Voilà or Lab) with this pid started."""
    out = subprocess.run(
        ["ps", "-o", "pid=,args=", "--ppid", str(pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return [int(line.split()[0]) for line in out.splitlines() if "ipykernel" in line]


def stop_server(process: subprocess.Popen) -> None:
    """Stop a Jupyter server by its own pid (SIGTERM, on which it shuts its kernels down; then
    SIGKILL), then kill any kernel it left running."""
    kernels = kernel_children(process.pid)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    for pid in kernels:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def open_dashboard_page(page, server: VoilaServer, name: str, complete: bool = True,
                        **goto) -> None:
    """Open a dashboard as a viewer would: at once, even while Voilà is refilling its pools; and
    (complete) wait until every cell's output is shown, which a page without a preheated kernel
    shows cell by cell after it has loaded.

    (Pages opened during refills used to hang now and then: a lost ZeroMQ wake-up, which
    dashboards/voila_server.py guards against. The tests no longer wait for quiet to dodge it.)
    """
    if not getattr(page, "henkit_marked", False):
        page.add_init_script(MARK_USABLE)
        page.henkit_marked = True
    page.goto(server.dashboard_url(name), **goto)
    if complete:
        complete_after_ms(page)


# Chromium (156 here) opens the address bar's popup, two WebUI pages with a renderer of their
# own, in every new window, and each fresh browser context is a new window: 0.7 s of CPU per
# context (0.95 s -> 0.27 s for a context and a blank page without them), spent in the first
# second of the page opened in it, on the two cores that page, the server and its kernels
# share. A student's browser has its window open before they follow a link, so the benchmark
# (every sample a fresh context) and the tests do without them.
WINDOW_UI_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Playwright passes its own --disable-features list; Chromium obeys only the last such flag,
# so this one must repeat Playwright's (read from a browser it has launched: launch_args).
_launch_args: list[str] = []


def descendant_pids(root: int | None = None) -> list[int]:
    """The pids of every process `root` (this process by default) or its children started."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process has ended meanwhile
            continue
        # "pid (name) state ppid ...": the name may hold spaces and brackets (as cpu_seconds).
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = list(children.get(os.getpid() if root is None else root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def chromium_command_lines() -> list[list[str]]:
    """The command line of every Chromium browser process (not its renderers or helpers)
    started by this process or its children (Playwright's driver)."""
    found: list[list[str]] = []
    for pid in descendant_pids():
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # the process has ended meanwhile
            continue
        line = [a for a in raw.decode(errors="replace").split("\0") if a]
        # /usr/bin/chromium is a script that starts /usr/lib/chromium/chromium: match the
        # name. A helper process rewrites its command line as one string: "--type=" anywhere.
        program = Path(line[0].split(" ")[0]).name if line else ""
        if "chrom" in program and " --type=" not in " ".join(line):
            found.append(line)
    return found


def disabled_features(command_line: list[str]) -> list[str]:
    """The features a Chromium command line disables: its last --disable-features flag."""
    flags = [a.split("=", 1)[1] for a in command_line if a.startswith("--disable-features=")]
    return [f for f in flags[-1].split(",") if f] if flags else []


def launch_args(playwright: Any) -> list[str]:
    """CHROMIUM_ARGS and one --disable-features flag: Playwright's own list and WINDOW_UI_OFF
    (found once per process, by launching Chromium and reading its command line)."""
    if not _launch_args:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            lines = chromium_command_lines()
        finally:
            browser.close()
        if not lines:
            raise RuntimeError("no Chromium process found under this one to read its flags from")
        # What the plain launch disables (its last flag, the one Chromium obeys), then ours.
        features = disabled_features(lines[0])
        features += [f for f in WINDOW_UI_OFF if f not in features]
        _launch_args[:] = [*CHROMIUM_ARGS, "--disable-features=" + ",".join(features)]
    return list(_launch_args)


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless, with the project's flags (never a downloaded browser) and
    without the address bar's popup (WINDOW_UI_OFF)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=launch_args(playwright))


@dataclass
class PageLog:
    """What went wrong on a page: console errors, uncaught errors, failed or off-site requests."""

    server: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    offsite_requests: list[str] = field(default_factory=list)

    def attach(self, page) -> PageLog:
        """Start recording `page`'s events."""
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("requestfailed", self._failed)
        page.on("request", self._request)
        return self

    def _console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def _failed(self, request) -> None:
        # A page that navigates away (or closes) cancels its open requests: not a failure.
        if request.failure != "net::ERR_ABORTED":
            self.failed_requests.append(f"{request.url} ({request.failure})")

    def _request(self, request) -> None:
        url = request.url
        if not url.startswith((self.server, "data:", "blob:", "about:")) and not url.startswith(
            self.server.replace("http://", "ws://")
        ):
            self.offsite_requests.append(url)

    def problems(self) -> dict[str, list[str]]:
        """Every recorded problem by kind; empty when the page was clean."""
        found = {
            "console errors": self.console_errors,
            "page errors": self.page_errors,
            "failed requests": self.failed_requests,
            "off-site requests": self.offsite_requests,
        }
        return {kind: items for kind, items in found.items() if items}


# Installed in every page before it loads: the moments (ms after navigation start) the lesson's
# text shows (Voilà hides the cells behind a spinner until its page has started), the first
# widget is visible, which is when Voilà has connected to the kernel and a viewer can click, the
# first chart is drawn (plotly.js loads after the widgets: henkit/display.py), and the page is
# complete: every cell's output is shown. A page sent in one piece (from a preheated kernel) is
# complete once the page template has drawn the widget outputs after its first (a frame after
# it: data-henkit-outputs on #rendered_cells); a progressive one (a cold page:
# dashboards/voila_server.py) once the placeholders Voilà puts in every cell have all been
# replaced by the cells' results. (A widget whose model is still on its way over the kernel's
# socket is placed a moment later, and widget views and charts draw after: tests that compare
# what pages show wait for them to settle.)
# The page is looked at in the first animation frame after it changed, i.e. when a viewer could
# first see the change, and never again once every mark is set. Looking at it on every change,
# as this did before, cost a lesson's page 0.13 s of its main thread before its first widget
# (lesson 5, preheated: a page being built changes thousands of times, and each look at a
# widget's visibility laid the page out), 0.03 s the probe page's: the measure slowed down
# what it measured, the lessons more.
MARK_USABLE = """
(() => {
  let progressive, placeholders = false, looking = false, watch;
  const look = () => {
    looking = false;
    if (window.__henkitUsable === undefined) {
      const el = document.querySelector('.jupyter-widgets');
      if (el && el.offsetParent !== null) window.__henkitUsable = performance.now();
    }
    if (window.__henkitChart === undefined && document.querySelector('.js-plotly-plot .main-svg'))
      window.__henkitChart = performance.now();
    if (window.__henkitText === undefined) {
      const cells = document.getElementById('rendered_cells');
      if (cells && cells.offsetParent !== null) window.__henkitText = performance.now();
    }
    const config = progressive === undefined && document.getElementById('jupyter-config-data');
    if (config) {
      try {  // the page arrives in pieces: its config may not be whole yet
        progressive = JSON.parse(config.textContent).progressiveRendering === true;
      } catch (e) {}
    }
    const waiting = document.querySelector('.voila-skeleton-container') !== null;
    const drawing = document.querySelector('[data-henkit-outputs=waiting]') !== null;
    placeholders = placeholders || waiting;
    if (window.__henkitComplete === undefined && window.__henkitUsable !== undefined
        && progressive !== undefined && (progressive ? placeholders && !waiting : !drawing))
      window.__henkitComplete = performance.now();
    if (window.__henkitComplete !== undefined && window.__henkitChart !== undefined
        && window.__henkitText !== undefined) watch.disconnect();
  };
  watch = new MutationObserver((changes) => {
    // A placeholder may come and go within one frame (results already there): noted here
    // (a page sent in one piece has none).
    if (!placeholders && progressive !== false) {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (node.classList && node.classList.contains('voila-skeleton-container'))
            placeholders = true;
        }
      }
    }
    if (!looking) { looking = true; requestAnimationFrame(look); }
  });
  watch.observe(document, {childList: true, subtree: true, attributes: true});
})();
"""

# Click `button` and resolve with the ms until `target`'s HTML differs from before the click and
# `done` (a JS expression over `el`, the target) holds: the update a viewer sees, timed in-page.
TIME_CLICK = """
([button, target, done]) => new Promise((resolve, reject) => {
  const b = document.querySelector(button), el = document.querySelector(target);
  if (!b || !el) { reject(new Error(`missing ${!b ? button : target}`)); return; }
  const before = el.innerHTML;
  const ok = new Function('el', `return (${done});`);
  let t0;
  const check = () => {
    if (el.innerHTML !== before && ok(el)) { obs.disconnect(); resolve(performance.now() - t0); }
  };
  const obs = new MutationObserver(check);
  obs.observe(el, {childList: true, subtree: true, characterData: true, attributes: true});
  setTimeout(() => { obs.disconnect(); reject(new Error('no update in 10 s')); }, 10000);
  t0 = performance.now();
  b.click();
})
"""


def usable_after_ms(page, timeout: float = 120_000) -> float:
    """Wait for the first usable widget; return when it appeared, in ms after navigation."""
    try:
        page.wait_for_function("window.__henkitUsable !== undefined", timeout=timeout)
    except Exception as e:
        shown = page.evaluate("document.body ? document.body.innerText.slice(0, 500) : ''")
        raise RuntimeError(
            f"no usable widget on {page.url} after {timeout} ms; shows {shown!r}"
        ) from e
    return page.evaluate("window.__henkitUsable")


def complete_after_ms(page, timeout: float = 120_000) -> float:
    """Wait until every cell's output is shown (MARK_USABLE); return when, in ms after
    navigation."""
    try:
        page.wait_for_function("window.__henkitComplete !== undefined", timeout=timeout)
    except Exception as e:
        left = page.evaluate("document.querySelectorAll('.voila-skeleton-container').length")
        raise RuntimeError(f"{page.url} not complete after {timeout} ms: {left} cells still "
                           "wait for their output") from e
    return page.evaluate("window.__henkitComplete")


def chart_after_ms(page, timeout: float = 120_000) -> float:
    """Wait for the first drawn chart; return when it appeared, in ms after navigation."""
    page.wait_for_function("window.__henkitChart !== undefined", timeout=timeout)
    return page.evaluate("window.__henkitChart")


def shown_code(page, notebook: dict) -> list[str]:
    """Lines of the notebook's code cells that the rendered page shows (none should: Voilà
    strips sources). Short lines and comments are skipped, and so are lines that the notebook's
    prose or stored outputs also contain (a barnyard printed as text, code quoted in prose)."""
    html = page.content()
    allowed = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            allowed.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            allowed.append(json.dumps(output, ensure_ascii=False))
            allowed.append("".join(output.get("text", "")))
            allowed.extend(
                "".join(v) for v in output.get("data", {}).values() if isinstance(v, (str, list))
            )
    allowed_text = "\n".join(allowed)
    shown = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        for line in "".join(cell["source"]).splitlines():
            line = line.strip()
            long_code = len(line) > 12 and not line.startswith("#")
            if long_code and line in html and line not in allowed_text:
                shown.append(line)
    if page.locator(".jp-InputArea-editor").count():
        shown.append("(an input area)")
    return shown


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# What a student can open on a lesson's page, all at once: every Predict box's answer cells (a
# box showing its answer sets the class hk-revealed-<key>, which the template's rule looks for
# inside the page) and the part after "Going further" (its button, pressed as a student would).
REVEAL_ANSWERS = """() => {
    const keys = new Set([...document.querySelectorAll('[data-hk-answer]')]
        .flatMap(c => c.getAttribute('data-hk-answer').split(' ')));
    const mark = document.createElement('span');
    mark.hidden = true;
    mark.className = [...keys].map(k => 'hk-revealed-' + k).join(' ');
    document.body.appendChild(mark);
    return keys.size;
}"""


def show_whole_lesson(page) -> None:
    """Show every part of a lesson's page a student can open: its answers and Going further."""
    page.evaluate(REVEAL_ANSWERS)
    further = page.locator(".hk-further-toggle")
    if further.count() and further.first.get_attribute("aria-expanded") != "true":
        further.first.click()


def page_config(page) -> dict:
    """The Jupyter page config Voilà embedded in a dashboard (kernelId, baseUrl, ...)."""
    return json.loads(page.locator("#jupyter-config-data").first.text_content())


def wait_for_widgets(page, timeout: float = 60_000) -> None:
    """Wait until Voilà has rendered the page and its first widget shows."""
    page.locator(".jupyter-widgets").first.wait_for(state="visible", timeout=timeout)


# Scripts a page loads that its head names already, or that load after it is usable (the charts).
NOT_PRELOADED = re.compile(r"plotly|/voila-style\.js|/voila/static/voila\.js")


def loaded_scripts(page, base_url: str) -> list[str]:
    """Paths (under base_url, with their query) of the scripts a page has loaded (preloaded or
    not), in order, without those that are never preloaded (NOT_PRELOADED)."""
    names = page.evaluate(
        "performance.getEntriesByType('resource').filter(r => r.initiatorType === 'script' ||"
        " (r.initiatorType === 'link' && /[.]js([?]|$)/.test(r.name))).map(r => r.name)"
    )
    return [n[len(base_url):] for n in names
            if n.startswith(base_url) and not NOT_PRELOADED.search(n)]


def write_preloads() -> Path:
    """Serve the probe page, record the scripts it loads before and while becoming usable, and
    write them to the template's preload.json with the installed versions (voila_server.py)."""
    import importlib.util

    from playwright.sync_api import sync_playwright

    spec = importlib.util.spec_from_file_location("henkit_voila_server", DASHBOARDS / "voila_server.py")
    server_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(server_module)
    server_module.PRELOADS.unlink(missing_ok=True)  # record what a page loads by itself
    folder = Path(tempfile.mkdtemp(prefix="henkit-preloads-"))
    server = VoilaServer(port=free_port(), site=probe_site(folder / "site")).start()
    try:
        server.wait_for_pools([PROBE.name])
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.goto(server.dashboard_url(PROBE.name))
            wait_for_widgets(page)
            page.wait_for_load_state("networkidle")
            scripts = loaded_scripts(page, server.url)
            browser.close()
    finally:
        server.stop()
    path = server_module.PRELOADS
    path.write_text(json.dumps({"versions": server_module.installed_versions(),
                                "scripts": scripts}, indent=1) + "\n")
    return path


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["write-preloads"]:
        sys.exit("usage: python -m tests.browser.browsing write-preloads")
    print(f"wrote {write_preloads()}")
