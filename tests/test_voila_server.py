"""dashboards/voila_server.py: a kernel reply whose ZeroMQ wake-up was lost still reaches Voilà.

The scenario: a client waits for a kernel's reply with no timeout, the reply arrives, and the
socket's edge-triggered descriptor is drained before the event loop sees it (here on purpose,
through a second handle on the same socket; in Voilà by a race that hung 10 of 188 pages in a stress test).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from queue import Empty
from types import SimpleNamespace

import pytest
import zmq
import zmq.asyncio
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.session import Session

from benchmarks.bench_dashboards import HOLD_LINE

SERVER = Path(__file__).resolve().parents[1] / "dashboards" / "voila_server.py"


def run(coro):
    """Run a coroutine to the end in a thread of its own: the browser tests' Playwright keeps an
    event loop running in this thread, where asyncio.run() is refused."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coro).result()


def load_voila_server():
    """dashboards/voila_server.py as a module (dashboards/ is not a package)."""
    spec = importlib.util.spec_from_file_location("henkit_voila_server", SERVER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GUARD = load_voila_server()  # loaded before any test installs it: it wraps the original get_msg


async def wait_through_a_lost_wakeup(get_msg, patience: float) -> dict | None:
    """The message `get_msg(channel)` returns within `patience` s, or None if it is still waiting."""
    ctx = zmq.asyncio.Context()
    router, dealer = ctx.socket(zmq.ROUTER), ctx.socket(zmq.DEALER)
    router.linger = dealer.linger = 0
    try:
        port = router.bind_to_random_port("tcp://127.0.0.1")
        dealer.connect(f"tcp://127.0.0.1:{port}")
        session = Session(key=b"")
        channel = AsyncZMQSocketChannel(dealer, session)
        session.send(dealer, "kernel_info_request", {})
        ident, *_ = await router.recv_multipart()  # the router now knows where to reply

        waiting = asyncio.ensure_future(get_msg(channel))
        await asyncio.sleep(0.05)  # the wait is registered with the event loop
        session.send(router, "kernel_info_reply", {"status": "ok"}, ident=ident)
        # Block on purpose: the reply reaches the dealer while the event loop cannot run.
        time.sleep(0.2)  # noqa: ASYNC251
        behind_the_back = zmq.Socket.shadow(dealer.underlying)
        assert behind_the_back.get(zmq.EVENTS) & zmq.POLLIN  # readable, edge now consumed

        done, _ = await asyncio.wait({waiting}, timeout=patience)
        if not done:
            waiting.cancel()
            return None
        return waiting.result()
    finally:
        dealer.close()
        router.close()
        ctx.term()


def test_the_scenario_really_loses_the_wakeup_without_the_guard():
    # Without this, the test below would prove nothing. If it starts failing, pyzmq may have
    # fixed lost wake-ups: check whether voila_server.py's guard is still needed.
    unguarded = AsyncZMQSocketChannel.get_msg
    assert run(wait_through_a_lost_wakeup(lambda ch: unguarded(ch), patience=2.0)) is None


def test_the_guard_delivers_the_reply_within_its_recheck_time():
    started = time.monotonic()
    msg = run(
        wait_through_a_lost_wakeup(
            lambda ch: GUARD.get_msg_rechecking(ch), patience=GUARD.RECHECK_SECONDS + 1.0
        )
    )
    assert msg is not None, "the guarded wait missed the reply"
    assert msg["msg_type"] == "kernel_info_reply"
    assert msg["content"] == {"status": "ok"}
    assert time.monotonic() - started < GUARD.RECHECK_SECONDS + 1.0


def test_the_guard_keeps_a_bounded_wait_bounded():

    async def nothing_arrives() -> float:
        ctx = zmq.asyncio.Context()
        dealer = ctx.socket(zmq.DEALER)
        dealer.linger = 0
        try:
            dealer.connect("tcp://127.0.0.1:9")  # nobody answers
            channel = AsyncZMQSocketChannel(dealer, Session(key=b""))
            started = time.monotonic()
            with pytest.raises(Empty):
                await GUARD.get_msg_rechecking(channel, timeout=0.2)
            return time.monotonic() - started
        finally:
            dealer.close()
            ctx.term()

    assert run(nothing_arrives()) < 1.0


def test_install_replaces_the_channels_wait(monkeypatch):
    from voila.notebook_renderer import NotebookRenderer

    monkeypatch.setattr(AsyncZMQSocketChannel, "get_msg", AsyncZMQSocketChannel.get_msg)
    monkeypatch.setattr(NotebookRenderer, "_cleanup_resources",
                        NotebookRenderer._cleanup_resources)
    GUARD.install()
    assert AsyncZMQSocketChannel.get_msg is GUARD.get_msg_rechecking
    assert NotebookRenderer._cleanup_resources is GUARD.cleanup_if_started


def test_a_page_rendered_before_its_kernel_is_up_ends_without_a_kernel_client():
    """A progressive page sent whole at once (the template's text_first) never called Voilà's
    kernel_start, so there is no kernel client to stop at its end; a page that did has one, and
    Voilà's end stops it."""
    from types import SimpleNamespace

    stopped = []
    client = SimpleNamespace(stop_channels=lambda: stopped.append(True))
    sent_first = SimpleNamespace(kernel_started=False)  # no executor: Voilà's end would fail
    waited = SimpleNamespace(kernel_started=True, executor=SimpleNamespace(kc=client))

    def at_once(coroutine) -> None:
        # Neither end suspends (stop_channels is a plain call here), so no event loop is needed;
        # the suite's other tests may leave one running in this thread.
        with pytest.raises(StopIteration):
            coroutine.send(None)

    at_once(GUARD.cleanup_if_started(sent_first))
    assert stopped == []
    at_once(GUARD.cleanup_if_started(waited))
    assert stopped == [True]


# --- Lighter pages: static files gzipped once, Voilà's tornado_settings applied when built ---


@pytest.fixture
def static_server(tmp_path):
    """A Tornado server on a free port serving tmp_path/static with the gzip-copy handler, as
    compress_response is on; yields (base URL, folder). Runs in a thread of its own."""
    import socket
    import threading

    import tornado.httpserver
    import tornado.ioloop
    import tornado.web

    folder = tmp_path / "static"
    folder.mkdir()
    handler = type("Static", (GUARD.GzipStaticFiles, tornado.web.StaticFileHandler), {})
    app = tornado.web.Application(
        [(r"/static/(.*)", handler, {"path": str(folder)})], compress_response=True
    )
    sock = socket.create_server(("127.0.0.1", 0))
    sock.setblocking(False)  # as Tornado's own bind_sockets leaves it
    port = sock.getsockname()[1]
    started, loop = threading.Event(), {}

    def serve():
        async def main():
            server = tornado.httpserver.HTTPServer(app)
            server.add_sockets([sock])
            loop["stop"] = asyncio.Event()
            loop["loop"] = asyncio.get_running_loop()
            started.set()
            await loop["stop"].wait()
            server.stop()

        asyncio.run(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield f"http://127.0.0.1:{port}/static/", folder
    finally:
        loop["loop"].call_soon_threadsafe(loop["stop"].set)
        thread.join(10)


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        url, headers={k.replace("_", "-"): v for k, v in headers.items()}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def test_a_static_file_is_sent_gzipped_to_a_browser_that_accepts_it(static_server):
    import gzip

    url, folder = static_server
    script = b"const answer = 42;\n" * 2000
    (folder / "app.js").write_bytes(script)
    status, headers, body = fetch(url + "app.js?v=1", Accept_Encoding="gzip, deflate")
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["content-type"] == "text/javascript"  # the file's type, not application/gzip
    assert "max-age" in headers["cache-control"]  # versioned address: cached for good
    assert "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(body) == script and len(body) < len(script) / 20
    # The same bytes every time (kept, not compressed again), and a cached copy revalidates.
    assert fetch(url + "app.js?v=1", Accept_Encoding="gzip")[2] == body
    again = fetch(url + "app.js?v=1", Accept_Encoding="gzip", If_None_Match=headers["etag"])
    assert again[0] == 304
    # A client that does not accept gzip gets the file as it is, under another ETag.
    status, plain_headers, plain = fetch(url + "app.js?v=1")
    assert (status, plain) == (200, script) and "content-encoding" not in plain_headers
    assert plain_headers["etag"] != headers["etag"]


def test_a_changed_static_file_is_compressed_again(static_server):
    import gzip
    import os

    url, folder = static_server
    path = folder / "style.css"
    path.write_bytes(b"body { color: black; }\n" * 200)
    first = fetch(url + "style.css", Accept_Encoding="gzip")[2]
    path.write_bytes(b"body { color: green; }\n" * 300)
    os.utime(path, (time.time() + 5, time.time() + 5))
    second = fetch(url + "style.css", Accept_Encoding="gzip")[2]
    assert gzip.decompress(second) == path.read_bytes() != gzip.decompress(first)


def test_a_file_compressed_on_its_first_request_holds_no_other_request_up(static_server):
    # The first request for a large script compresses it (level 9) in a worker thread: done in
    # the event loop, as it was, plotly.js held every other request of the server for 0.5 s.
    import gzip
    import random
    import threading

    url, folder = static_server
    words = [f"name{i}" for i in range(5000)]
    pick = random.Random(1).choice
    big = " ".join(pick(words) for _ in range(400_000)).encode()  # 3.5 MB: about 1 s to gzip
    (folder / "big.js").write_bytes(big)
    (folder / "small.js").write_bytes(b"let x = 1;\n" * 200)
    took: dict[str, float] = {}

    def get(name: str) -> None:
        start = time.monotonic()
        body = fetch(url + name, Accept_Encoding="gzip")[2]
        took[name] = time.monotonic() - start
        took[name + " bytes"] = len(gzip.decompress(body))

    slow = threading.Thread(target=get, args=("big.js",))
    slow.start()
    time.sleep(0.2)  # the big file's compression under way
    get("small.js")
    slow.join(120)
    assert took["big.js bytes"] == len(big) and took["small.js bytes"] == 2200
    # Answered while the big one was compressed, not after: a small share of its time (in the
    # event loop, the small one waited for the rest of the compression, most of the big's time).
    assert took["small.js"] < took["big.js"] / 2, took


def test_binary_or_ranged_responses_are_not_taken_from_the_gzip_copies(static_server):
    url, folder = static_server
    (folder / "font.woff2").write_bytes(bytes(range(256)) * 20)  # compressed formats stay as is
    (folder / "big.js").write_bytes(b"let y = 2;\n" * 1000)
    status, headers, body = fetch(url + "font.woff2", Accept_Encoding="gzip")
    assert "content-encoding" not in headers and body == bytes(range(256)) * 20
    status, headers, _ = fetch(url + "big.js", Accept_Encoding="gzip", Range="bytes=0-9")
    assert status == 206 and headers["content-range"] == "bytes 0-9/11000"  # of the file itself


def test_voilas_tornado_settings_are_part_of_the_application_it_builds(monkeypatch):
    # compress_response only works if Tornado sees it when the application is built; Voilà
    # itself applies tornado_settings afterwards.
    monkeypatch.setattr(GUARD.Voila, "init_settings", lambda self: {"base_url": "/"})
    app = GUARD.HenkitVoila(tornado_settings={"compress_response": True})
    settings = app.init_settings()
    assert settings["base_url"] == "/" and settings["compress_response"] is True


@pytest.mark.parametrize("held", [True, False])
def test_the_page_template_is_told_whether_to_hold_the_cells_after_the_first_widget(
        monkeypatch, held):
    monkeypatch.setattr(GUARD.Voila, "init_settings", lambda self: {"base_url": "/"})
    app = GUARD.HenkitVoila(hold_later_cells=held, preload=False, compile_once=False)
    app.config.VoilaConfiguration.resources = {"theme": "light"}
    app.init_settings()
    assert app.config.VoilaConfiguration.resources == {
        "theme": "light", "henkit_preload": [], "henkit_text_first": True,
        "henkit_hold_later_cells": held}


@pytest.mark.parametrize("once", [True, False])
def test_the_server_compiles_its_pages_once_unless_told_not_to(monkeypatch, once):
    from nbconvert.exporters.templateexporter import TemplateExporter
    from voila.exporter import VoilaExporter

    voilas = TemplateExporter._create_environment, VoilaExporter.markdown2html
    monkeypatch.setattr(TemplateExporter, "_create_environment", voilas[0])
    monkeypatch.setattr(VoilaExporter, "markdown2html", voilas[1])
    monkeypatch.setattr(GUARD.Voila, "init_settings", lambda self: {"base_url": "/"})
    GUARD.HenkitVoila(compile_once=once).init_settings()
    now = TemplateExporter._create_environment, VoilaExporter.markdown2html
    assert now == ((GUARD._environment_sharing_compiled_templates, GUARD.markdown2html_once)
                   if once else voilas)


# --- serve.sh: the class pool and a lesson's settings, refused at once when wrong ---------------

SERVE = SERVER.parent / "serve.sh"
SITE = SERVER.parent / "site"


def serve_sh(tmp_path: Path, **settings: str):
    """Run dashboards/serve.sh with these settings (HENKIT_CLASS_DB unset unless given) and an
    empty home; return the finished process. Every case here must stop before Voilà starts: a
    Voilà that did start is stopped by its process group after 60 s and the test fails."""
    import os
    import signal
    import socket
    import subprocess

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in {"HENKIT_CLASS_DB", "JUPYTER_PATH"}}
    env.update(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "xdg"), PORT=str(port),
               HENKIT_PYTHON=str(SERVER.parents[1] / ".venv" / "bin" / "python"), **settings)
    process = subprocess.Popen([str(SERVE)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"serve.sh started a server with {settings}")
    process.output = out
    return process


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"LESSON": "99_no_such_lesson"}, "LESSON=99_no_such_lesson: no such dashboard"),
        ({"LESSON": "../notebooks/01_rolling_dice"}, "no such dashboard"),
        ({"LESSON": "01_rolling_dice", "CLASS": "0"}, "CLASS=0: the number of students"),
        ({"LESSON": "01_rolling_dice", "CLASS": "201"}, "a whole number from 1 to 200"),
        ({"LESSON": "01_rolling_dice", "CLASS": "thirty"}, "a whole number from 1 to 200"),
        ({"LESSON": "01_rolling_dice", "CLASS": "2.5"}, "a whole number from 1 to 200"),
        ({"CLASS": "30"}, "CLASS=30 needs LESSON=<dashboard>"),
        ({"POOL": "-1"}, "POOL=-1: the preheated kernels per dashboard"),
        ({"FILL_DELAY": "soon"}, "FILL_DELAY=soon"),
    ],
)
def test_serve_refuses_bad_lesson_settings_at_once(tmp_path, settings, message):
    done = serve_sh(tmp_path, **settings)
    assert done.returncode == 2, done.output
    assert message in done.output and "serve.sh: error:" in done.output, done.output
    assert "is running at" not in done.output
    assert not (tmp_path / "xdg").exists()  # no class pool was made either


def test_a_bad_lesson_is_told_which_dashboards_there_are(tmp_path):
    done = serve_sh(tmp_path, LESSON="01_rolling_dices", CLASS="30")
    names = sorted(p.stem for p in SITE.glob("*.ipynb"))
    assert names and all(name in done.output for name in names), done.output


@pytest.mark.parametrize(
    "settings",
    [
        {"HENKIT_CLASS_DB": str(SITE / "class.sqlite3")},
        {"DATA": str(SERVER.parent / "jupyter" / "voila")},
        {"DATA": str(SERVER.parent)},
    ],
)
def test_serve_refuses_a_class_pool_inside_a_served_folder(tmp_path, settings):
    done = serve_sh(tmp_path, **settings)
    assert done.returncode == 2, done.output
    assert "which the server serves" in done.output, done.output
    assert not list(SERVER.parent.rglob("class.sqlite3*"))


# --- voila_server.py: a lesson's pools ------------------------------------------------------


class FakeTask:
    """Stands for an asyncio task: done or not, with a result."""

    def __init__(self, done: bool, result=None, error: Exception | None = None):
        self._done, self._result, self._error = done, result, error

    def done(self) -> bool:
        return self._done

    def cancelled(self) -> bool:
        return False

    def exception(self):
        return self._error

    def result(self):
        return self._result


def test_a_lesson_is_ready_when_every_kernel_has_run_its_notebook():
    ran, running = FakeTask(True), FakeTask(False)
    pool = [
        FakeTask(True, {"task": ran}),  # kernel started, notebook run: ready
        FakeTask(True, {"task": running}),  # notebook still running
        FakeTask(False),  # kernel still starting
        FakeTask(True, error=RuntimeError("kernel died")),
    ]
    assert GUARD.lesson_ready(pool) == 1
    assert GUARD.lesson_ready([]) == 0


@pytest.mark.parametrize(
    ("lesson", "size"),
    [("01_rolling_dice.ipynb", 0), ("01_rolling_dice.ipynb", 201), ("nope.ipynb", 3),
     ("../site/01_rolling_dice.ipynb", 3), ("01_rolling_dice", 3)],
)
def test_a_bad_lesson_is_refused_before_any_kernel_starts(lesson, size):
    app = GUARD.HenkitVoila(lesson=lesson, class_size=size)
    app.root_dir = str(SITE)
    app.voila_configuration = type("C", (), {"default_pool_size": 1})()
    with pytest.raises(ValueError, match="class_size|not a notebook of the served folder"):
        app._configure_lesson()
    assert "kernel_pools_config" not in app.config.VoilaKernelManager


def test_a_lesson_gives_its_notebook_class_size_kernels_and_the_others_the_default():
    app = GUARD.HenkitVoila(lesson="01_rolling_dice.ipynb", class_size=30)
    app.root_dir = str(SITE)
    app.voila_configuration = type("C", (), {"default_pool_size": 2})()
    app._configure_lesson()
    assert app.config.VoilaKernelManager.kernel_pools_config == {
        "default": {"pool_size": 2}, "01_rolling_dice.ipynb": {"pool_size": 30}}


# --- voila_server.py: the scripts a page preloads -------------------------------------------


def test_the_preload_list_is_used_only_for_the_versions_it_was_written_for(tmp_path):
    import json

    path = tmp_path / "preload.json"
    assert GUARD.preload_scripts(path)[0] == []  # no list: nothing preloaded
    scripts = ["voila/static/1.voila.js", "voila/labextensions/x/static/2.js?v=ab"]
    path.write_text(json.dumps({"versions": GUARD.installed_versions(), "scripts": scripts}))
    assert GUARD.preload_scripts(path) == (scripts, "")
    other = {**GUARD.installed_versions(), "voila": "0.0.1"}
    path.write_text(json.dumps({"versions": other, "scripts": scripts}))
    listed, why = GUARD.preload_scripts(path)
    assert listed == [] and "write-preloads" in why
    for junk in (["https://cdn.example/x.js"], ["/abs.js"], [3]):
        path.write_text(json.dumps({"versions": GUARD.installed_versions(), "scripts": junk}))
        assert GUARD.preload_scripts(path)[0] == []
    path.write_text("{not json")
    assert GUARD.preload_scripts(path)[0] == []


def test_the_committed_preload_list_matches_the_installed_versions():
    # A mismatch only costs speed (nothing is preloaded), but the list should be rewritten.
    scripts, why = GUARD.preload_scripts()
    assert scripts and not why, why


# --- voila_server.py: the rules sheets a lesson links to ------------------------------------


def test_a_rules_sheet_is_served_as_a_page_rendered_from_its_one_home():
    import re

    for game in ("henpen", "hens"):
        text = (GUARD.RULES / f"{game}.md").read_text(encoding="utf-8")
        page = GUARD.rules_page(game)
        title = next(line[2:] for line in text.splitlines() if line.startswith("# "))
        assert f"<title>{title}</title>" in page
        assert page.count("<table>") == text.count("\n|---"), "every table of the sheet is a table"
        # Every heading of the sheet is on the page, as a heading.
        for heading in re.findall(r"^## (.+)$", text, flags=re.MULTILINE):
            assert re.search(rf"<h2[^>]*>{re.escape(heading.replace('&', '&amp;'))}</h2>", page), heading
    # The notebooks' link (rules/<game>.md beside them) reaches the same file in JupyterLab.
    notebooks = SERVER.parents[1] / "notebooks"
    assert (notebooks / "rules" / "hens.md").resolve() == (GUARD.RULES / "hens.md").resolve()
    for wrong in ("chess", "../henpen", ""):
        with pytest.raises(ValueError, match="'henpen' and 'hens'"):
            GUARD.rules_page(wrong)


# --- Templates compiled once for every page ---------------------------------------------------


@pytest.fixture
def compiles(monkeypatch):
    """The names of the templates Jinja compiles from source while the test runs."""
    from jinja2 import Environment

    compiled: list[str] = []
    original = Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(Environment, "compile", counting)
    return compiled


def test_a_template_is_compiled_once_for_every_environment_and_again_when_edited(compiles):
    from jinja2 import DictLoader, Environment

    cache = GUARD.CompiledTemplates()
    sources = {"page.j2": "{% for x in xs %}[{{ x }}]{% endfor %}"}

    def fresh(**settings):
        return Environment(loader=DictLoader(sources), bytecode_cache=cache, **settings)

    assert fresh().get_template("page.j2").render(xs=[1, 2]) == "[1][2]"
    assert fresh().get_template("page.j2").render(xs=[3]) == "[3]"
    assert compiles == ["page.j2"]  # the second environment used the compiled code
    # What a template compiles to depends on the environment: an async one compiles its own.
    page = fresh(enable_async=True).get_template("page.j2")
    assert run(page.render_async(xs=[4])) == "[4]"
    assert compiles == ["page.j2", "page.j2"]
    sources["page.j2"] = "{{ xs | length }} items"
    assert fresh().get_template("page.j2").render(xs=[1, 2]) == "2 items"
    assert len(compiles) == 3


def test_compile_once_makes_every_voila_page_share_its_compiled_templates(monkeypatch, compiles):
    from nbconvert.exporters.templateexporter import TemplateExporter
    from voila.exporter import VoilaExporter
    from voila.paths import collect_template_paths

    monkeypatch.setattr(TemplateExporter, "_create_environment",
                        TemplateExporter._create_environment)
    monkeypatch.setenv("JUPYTER_PATH", str(SERVER.parent / "jupyter"))
    GUARD.compile_once()
    paths = collect_template_paths(["voila", "nbconvert"], "henkit")

    def page_templates() -> None:
        """What Voilà does for each page: a new exporter, its environment, the page template."""
        exporter = VoilaExporter(template_paths=paths, template_name="henkit")
        exporter.environment.get_template("index.html.j2")

    page_templates()
    assert compiles == ["index.html.j2"]  # the templates it extends load as the page renders
    page_templates()
    page_templates()
    assert compiles == ["index.html.j2"]


def test_voila_checks_a_pages_notebook_once_not_after_every_preprocessor():
    from traitlets.config import Config
    from voila.exporter import VoilaExporter

    settings = json.loads((SERVER.parent / "voila.json").read_text())
    exporter = VoilaExporter(config=Config(settings))
    assert exporter.optimistic_validation is True


def test_a_markdown_text_is_rendered_once_unless_it_shows_an_image(monkeypatch):
    import voila.exporter
    from nbconvert.exporters.templateexporter import TemplateExporter
    from voila.exporter import VoilaExporter

    monkeypatch.setattr(TemplateExporter, "_create_environment",
                        TemplateExporter._create_environment)
    monkeypatch.setattr(VoilaExporter, "markdown2html", VoilaExporter.markdown2html)
    monkeypatch.setattr(GUARD, "_RENDERED_MARKDOWN", {})
    rendered: list[str] = []
    render = voila.exporter.MarkdownWithMath.render
    monkeypatch.setattr(voila.exporter.MarkdownWithMath, "render",
                        lambda self, s: rendered.append(s) or render(self, s))
    GUARD.compile_once()

    def page(source: str, attachments: dict | None = None) -> str:
        """The HTML a new page's exporter makes of one markdown cell's text."""
        cell = {"cell_type": "markdown", "attachments": attachments or {}}
        no_files = SimpleNamespace(file_exists=lambda path: False)  # the served folder's files
        exporter = VoilaExporter(contents_manager=no_files)
        template = exporter.environment.from_string("{{ text | markdown2html }}")
        return run(template.render_async(cell=cell, text=source))  # Voilà's are async

    text = "## Odds\n\nThe chance is **1/27** and $p^3$."
    first = page(text)
    assert "<strong>1/27</strong>" in first
    assert page(text) == first and page(text) == first
    assert rendered == [text]  # three pages, one rendering
    assert "<em>other</em>" in page("An *other* text")
    assert len(rendered) == 2
    shown = "An image: ![hen](hen.png)"
    page(shown)
    page(shown)
    assert rendered[2:] == [shown, shown]  # inlines the image file as it is now, every time
    with_attachment = "See ![x](attachment:x.png)"
    attachments = {"x.png": {"image/png": "iVBORw0KGgo="}}
    page(with_attachment, attachments)
    page(with_attachment, attachments)
    assert rendered[4:] == [with_attachment, with_attachment]


# --- voila_server.py: a page without a ready preheated kernel is rendered progressively ----------


def test_a_cold_pages_configuration_is_a_progressive_copy_of_voilas():
    from voila.configuration import VoilaConfiguration

    voilas = VoilaConfiguration(template="henkit", preheat_kernel=True, strip_sources=True)
    cold = GUARD.progressive_copy(voilas)
    assert cold.progressive_rendering is True
    assert voilas.progressive_rendering is False  # every other page is served as before
    assert (cold.template, cold.preheat_kernel, cold.strip_sources) == ("henkit", True, True)


def routes_of(monkeypatch, progressive_cold: bool, voilas_own: bool) -> list[tuple]:
    """HenkitVoila's routes over a stand-in for Voilà's (its page route, and its cell-running
    websocket when progressive rendering is Voilà's own setting)."""
    from voila.configuration import VoilaConfiguration
    from voila.tornado.execution_request_handler import ExecutionRequestHandler
    from voila.tornado.handler import TornadoVoilaHandler

    configuration = VoilaConfiguration(preheat_kernel=not voilas_own,
                                       progressive_rendering=voilas_own)
    voilas = [("/voila/render/(.*)", TornadoVoilaHandler,
               {"voila_configuration": configuration, "config": None, "template_paths": []})]
    if voilas_own:
        voilas.insert(0, (r"/voila/execution/(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)",
                          ExecutionRequestHandler))
    monkeypatch.setattr(GUARD.Voila, "init_handlers", lambda self: voilas)
    app = GUARD.HenkitVoila(progressive_cold=progressive_cold)
    app.voila_configuration, app.server_url = configuration, "/"
    return app.init_handlers()


def test_the_page_route_renders_progressively_each_page_no_ready_kernel_serves(monkeypatch):
    import re

    routes = routes_of(monkeypatch, progressive_cold=True, voilas_own=False)
    page = next(r for r in routes if r[0].endswith("/voila/render/(.*)"))
    assert page[1] is GUARD.ColdPagesProgressive
    assert page[2]["progressive_configuration"].progressive_rendering is True
    assert page[2]["run_early"] is True  # its cells run from the moment its kernel is up
    assert page[2]["voila_configuration"].progressive_rendering is False
    # The websocket the progressive page asks to run its cells, ahead of any catch-all route.
    runs = [i for i, r in enumerate(routes)
            if re.fullmatch(r[0], "/voila/execution/1a2b3c4d-0000-4e5f-8a9b-0123456789ab")]
    assert len(runs) == 1 and routes[runs[0]][1] is GUARD.CellRunner
    assert runs[0] < routes.index(page)


def test_voilas_own_progressive_setting_keeps_one_cell_running_route(monkeypatch):
    routes = routes_of(monkeypatch, progressive_cold=True, voilas_own=True)
    page = next(r for r in routes if r[0].endswith("/voila/render/(.*)"))
    assert page[1] is GUARD.ColdPagesProgressive
    assert page[2]["progressive_configuration"] is None  # every page is progressive already
    assert [r[1] for r in routes if "/voila/execution/" in r[0]] == [GUARD.CellRunner]


def test_the_cold_pages_can_be_served_as_voila_does(monkeypatch):
    from voila.tornado.handler import TornadoVoilaHandler

    routes = routes_of(monkeypatch, progressive_cold=False, voilas_own=False)
    # Voilà's own page handler, within the kernel budget and binding each kernel to its page.
    assert [r[1] for r in routes if r[0].endswith("/voila/render/(.*)")] == [GUARD.GuardedPages]
    assert GUARD.GuardedPages.__bases__ == (TornadoVoilaHandler,)
    assert not [r for r in routes if "/voila/execution/" in r[0]]


def handler_over(kind, pools: dict | None):
    """A handler of `kind` (not serving a request) whose server's kernel manager has `pools`."""
    handler = object.__new__(kind)
    manager = SimpleNamespace() if pools is None else SimpleNamespace(_pools=pools)
    handler.application = SimpleNamespace(settings={"kernel_manager": manager},
                                          ui_methods={}, ui_modules={})
    return handler


def test_a_page_takes_a_preheated_kernel_only_when_one_has_started():
    async def ready_by_pool() -> dict[str, bool]:
        loop = asyncio.get_running_loop()
        started = loop.create_future()
        started.set_result({"kernel_id": "k1"})
        waiting = loop.create_future()  # a refill still waiting out its fill delay
        failed = loop.create_future()
        failed.set_exception(RuntimeError("the kernel died"))
        cancelled = loop.create_future()
        cancelled.cancel()
        pools = {"started": [started], "waiting": [waiting], "failed": [failed],
                 "cancelled": [cancelled], "empty": [], "failed, waiting": [failed, waiting]}
        answers = {name: handler_over(GUARD.ColdPagesProgressive, {"a.ipynb": pool})
                   .preheated_kernel_ready("a.ipynb") for name, pool in pools.items()}
        # A started kernel behind others is put first, where Voilà takes a page's kernel.
        behind = [waiting, failed, started]
        answers["started, behind others"] = handler_over(
            GUARD.ColdPagesProgressive, {"a.ipynb": behind}).preheated_kernel_ready("a.ipynb")
        assert behind == [started, waiting, failed]
        answers["another notebook's"] = handler_over(
            GUARD.ColdPagesProgressive, {"b.ipynb": [started]}).preheated_kernel_ready("a.ipynb")
        answers["no pools"] = handler_over(GUARD.ColdPagesProgressive, None
                                           ).preheated_kernel_ready("a.ipynb")
        waiting.cancel()
        return answers

    answers = run(ready_by_pool())
    assert answers.pop("started") is True and answers.pop("started, behind others") is True
    assert answers == dict.fromkeys(answers, False)
    assert len(answers) == 7


def pieces_sent(monkeypatch, pieces: list[str], *, whole_html: bool = True,
                progressive: bool = True, text_first: bool = True) -> list[str]:
    """What a ColdPagesProgressive page handler sends of a page Voilà renders as `pieces`."""
    from voila.tornado.handler import TornadoVoilaHandler

    async def voilas(self, path=None):
        for piece in pieces:
            await asyncio.sleep(0)
            yield piece

    monkeypatch.setattr(TornadoVoilaHandler, "get_generator", voilas)
    handler = handler_over(GUARD.ColdPagesProgressive, {})
    handler.notebook_path, handler._run_early, handler._whole_html = "a.ipynb", False, whole_html
    handler.voila_configuration = SimpleNamespace(
        progressive_rendering=progressive, resources={"henkit_text_first": text_first})

    async def sent() -> list[str]:
        return [html async for html in handler.get_generator("a.ipynb")]

    return run(sent())


def test_a_page_sent_before_its_kernel_is_up_goes_out_whole(monkeypatch):
    pieces = ["<html><head>", "</head><body>", "<div>cell 1</div>", "</body></html>"]
    assert pieces_sent(monkeypatch, pieces) == ["".join(pieces)]


def test_a_heartbeat_sends_what_is_held_with_it(monkeypatch):
    pieces = ["<head>", GUARD.HEARTBEAT, "<body>", "</body>"]
    assert pieces_sent(monkeypatch, pieces) == ["<head>" + GUARD.HEARTBEAT, "<body></body>"]


@pytest.mark.parametrize("setting", [{"whole_html": False}, {"text_first": False},
                                     {"progressive": False}])
def test_other_pages_go_out_piece_by_piece_as_voila_sends_them(monkeypatch, setting):
    pieces = ["<html><head>", "</head><body>", "</body></html>"]
    assert pieces_sent(monkeypatch, pieces, **setting) == pieces


def test_voilas_heartbeat_is_the_one_the_handler_looks_for():
    import inspect

    from voila.handler import VoilaHandler

    # Voilà makes it in a function inside its page generator, out of reach but for its text.
    assert repr(GUARD.HEARTBEAT)[1:-1] in inspect.getsource(VoilaHandler.get_generator)


def test_notebooks_kept_for_pages_whose_kernel_is_gone_are_forgotten(monkeypatch):
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    kept = {"k-open": {"nb": 1}, "k-closed": {"nb": 2}}
    monkeypatch.setattr(ExecutionRequestHandler, "_execution_data", kept)
    cancelled: list[str] = []
    runs = {k: SimpleNamespace(task=SimpleNamespace(cancel=lambda k=k: cancelled.append(k)))
            for k in ("k-run-open", "k-run-closed")}
    monkeypatch.setattr(GUARD, "EARLY_RUNS", runs)
    monkeypatch.setattr(GUARD, "HANDED_BACK", {"k-open", "k-closed"})
    GUARD.forget_closed_kernels({"k-open", "k-other", "k-run-open"})  # the kernels running now
    assert kept == {"k-open": {"nb": 1}}
    assert list(runs) == ["k-run-open"] and cancelled == ["k-run-closed"]
    assert GUARD.HANDED_BACK == {"k-open"}


def test_a_notebook_handed_back_to_voila_gets_no_second_early_run(monkeypatch):
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    kept = {"k-slow": {"nb": 1}, "k-new": {"nb": 2}}
    monkeypatch.setattr(ExecutionRequestHandler, "_execution_data", kept)
    monkeypatch.setattr(GUARD, "EARLY_RUNS", {})
    monkeypatch.setattr(GUARD, "HANDED_BACK", {"k-slow"})
    made = []
    monkeypatch.setattr(GUARD, "EarlyRun", lambda kernel_id, data, *_: made.append(kernel_id))
    GUARD.start_early_runs({"k-slow", "k-new"}, log=None)
    assert made == ["k-new"] and kept == {"k-slow": {"nb": 1}}  # Voilà runs it when asked


def test_a_page_closed_while_its_cells_run_ends_the_run_quietly(monkeypatch):
    from tornado.websocket import WebSocketClosedError
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    async def closed(self, message):
        raise WebSocketClosedError()

    monkeypatch.setattr(ExecutionRequestHandler, "on_message", closed)
    runner = handler_over(GUARD.CellRunner, {})
    runner._kernel_id = "k1"
    logged: list[str] = []
    # The handler's log is the Jupyter application's (which need not reach the root logger).
    monkeypatch.setattr(GUARD.CellRunner, "log", property(
        lambda self: SimpleNamespace(info=lambda text, *args: logged.append(text % args))))
    assert run(runner.on_message('{"action": "execute"}')) is None
    assert logged == ["A page closed while its cells ran (kernel k1)"]
    runner.on_close()  # no run was ever started: nothing to stop, no AttributeError

    async def other(self, message):
        raise RuntimeError("a real failure")

    monkeypatch.setattr(ExecutionRequestHandler, "on_message", other)
    with pytest.raises(RuntimeError, match="a real failure"):
        run(runner.on_message("{}"))


def test_no_published_cell_shows_anything_after_a_widget():
    # Voilà's progressive page (a cold page) drops a cell's outputs that follow a widget whose
    # model has not reached the browser yet: a cell may show one widget, as its last output.
    widget = "application/vnd.jupyter.widget-view+json"
    shown = 0
    for notebook in sorted((SERVER.parent / "site").glob("*.ipynb")):
        for index, cell in enumerate(json.loads(notebook.read_text())["cells"]):
            widgets = [widget in out.get("data", {}) for out in cell.get("outputs", [])]
            if any(widgets):
                shown += 1
                assert widgets.count(True) == 1 and widgets[-1], (notebook.name, index, widgets)
    assert shown >= 11  # the stored outputs are there: every dashboard shows widgets


# --- voila_server.py: a cold page's cells run from the moment its kernel is up ---------------


def small_notebook(*sources: str):
    """A notebook of these cells: '# ...' a markdown cell, anything else a code cell (each with
    a stored output, as the published notebooks have)."""
    import nbformat

    cells = []
    for source in sources:
        if source.startswith("# "):
            cells.append(nbformat.v4.new_markdown_cell(source))
        else:
            cell = nbformat.v4.new_code_cell(source)
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="stored\n")]
            cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


def kernel_message(msg_type: str, content: dict, parent: dict | None = None) -> bytes:
    """A kernel message as the kernel websocket's v1 protocol sends it to a page."""
    parts = [b"iopub", json.dumps({"msg_type": msg_type}).encode(),
             json.dumps(parent or {}).encode(), b"{}", json.dumps(content).encode()]
    offsets, at = [], 8 * (len(parts) + 1)
    for part in parts:
        offsets.append(at)
        at += len(part)
    head = len(parts).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def test_comm_messages_are_read_from_either_protocol_and_the_states_answer_told_apart():
    states = {"comm_id": "c1", "data": {"method": "update_states", "states": {}}}
    for message in (kernel_message("comm_msg", states),
                    json.dumps({"header": {"msg_type": "comm_msg"}, "content": states}),
                    {"header": {"msg_type": "comm_msg"}, "content": states}):
        kind, content = GUARD.comm_message(message, ("comm_msg", "comm_close"))
        assert (kind, content) == ("comm_msg", states) and GUARD.states_answer(content)
    update = {"comm_id": "c1", "data": {"method": "update", "state": {"value": 1}}}
    assert not GUARD.states_answer(GUARD.comm_message(kernel_message("comm_msg", update),
                                                      ("comm_msg",))[1])
    # Other kinds are told by their header alone.
    assert GUARD.comm_message(kernel_message("stream", states), ("comm_msg",)) == ("", {})
    assert GUARD.comm_message(kernel_message("comm_msg", states), ("comm_open",)) == ("", {})
    # The older binary form starts with a 4-byte big-endian count: read as v1 that is 10^17
    # parts, refused at once rather than counted.
    older = (2).to_bytes(4, "big") + bytes(12) + b'{"msg_type": "comm_msg"}'
    for garbage in (b"", b"\x05" + bytes(7), older, "not json", "[1, 2]", {"header": None}):
        assert GUARD.comm_message(garbage, ("comm_msg",)) == ("", {})
    assert not GUARD.states_answer({"data": "update_states"})


def test_a_pages_kernel_socket_drops_the_outputs_of_the_cells_run_for_it_and_nothing_else():
    ran = {"msg_type": "execute_request", "msg_id": "e1"}
    clicked = {"msg_type": "comm_msg", "msg_id": "c1"}
    chart = {"data": {"text/html": "<div>a chart</div>"}, "metadata": {}}
    for kind in GUARD.CELL_OUTPUTS:
        assert GUARD.cell_output(kernel_message(kind, chart, ran)), kind
        # The same output from a widget's callback (the page's comm message) still goes.
        assert not GUARD.cell_output(kernel_message(kind, chart, clicked)), kind
    assert GUARD.cell_output(json.dumps({"header": {"msg_type": "display_data"},
                                         "parent_header": ran, "content": chart}))
    assert GUARD.cell_output({"header": {"msg_type": "stream"}, "parent_header": ran,
                              "content": {"name": "stdout", "text": "hi"}})
    # The messages the page needs pass: widgets, status, replies, clearing and updated displays.
    for kind in ("comm_open", "comm_msg", "comm_close", "status", "execute_reply",
                 "clear_output", "update_display_data"):
        assert not GUARD.cell_output(kernel_message(kind, chart, ran)), kind
    for garbage in (b"", "not json", {"header": {"msg_type": "stream"}, "parent_header": None}):
        assert not GUARD.cell_output(garbage)


@pytest.fixture
def kernels():
    """A real kernel manager (Jupyter's own, as Voilà's is) in a thread with its own event loop;
    `kernels.run(coro_fn)` runs coro_fn(manager) there. Kernels are shut down after."""
    from jupyter_client.multikernelmanager import AsyncMultiKernelManager

    def run_with(make):
        async def inside():
            # Without Jupyter's restarter: a kernel that dies stays dead (the test of it knows
            # which cells run on which kernel).
            manager = AsyncMultiKernelManager(
                kernel_manager_class="jupyter_client.manager.AsyncKernelManager")
            try:
                return await make(manager)
            finally:
                await manager.shutdown_all(now=True)
        return run(inside())

    return SimpleNamespace(run=run_with)


def early_run(manager, kernel_id: str, notebook, logged: list[str], config=None):
    from traitlets.config import Config

    log = SimpleNamespace(
        info=lambda text, *args: logged.append(text % args),
        warning=lambda text, *args: logged.append("warning: " + text % args),
        error=lambda text, *args, **kw: logged.append("error: " + text % args),
        exception=lambda text, *args: logged.append("exception: " + text % args))
    data = {"nb": notebook, "config": config or Config(), "show_tracebacks": False}
    return GUARD.EarlyRun(kernel_id, data, manager, log)


def until(condition, seconds: float = 30):
    """Wait (in the event loop) until condition() holds; fail after `seconds`."""
    async def waiting():
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, "the early run never got there"
            await asyncio.sleep(0.01)
    return waiting()


def test_an_early_run_runs_every_cell_and_keeps_each_result_for_the_page(kernels):
    notebook = small_notebook("# Title", "x = 6 * 7", "print(x)", "raise ValueError('boom')",
                              "print('after')", "import os; print(os.environ['VOILA_KERNEL_ID'])",
                              "print('skipped')")
    notebook.cells[-1].metadata["tags"] = ["skip-execution"]  # nbclient leaves it as it is

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        logged: list[str] = []
        running = early_run(manager, kernel_id, notebook, logged)
        streamed = [r async for r in running.results_from()]  # each as its cell ends
        await running.task
        return streamed, running, logged, kernel_id

    streamed, running, logged, kernel_id = kernels.run(scenario)
    assert running.finished and streamed == running.results
    assert [r["cell_index"] for r in streamed] == [0, 1, 2, 3, 4, 5, 6]
    assert {r["total_cell"] for r in streamed} == {7}
    cells = [r["output_cell"] for r in streamed]
    assert all("source" not in c for c in cells)  # the sources stay on the server
    assert cells[2].outputs == [{"output_type": "stream", "name": "stdout", "text": "42\n"}]
    # A failing cell shows Voilà's message, not the traceback (show_tracebacks off), and the
    # cells after it run, as on Voilà's own progressive pages.
    (error,) = cells[3].outputs
    assert error["output_type"] == "error" and error["ename"] == "ExecutionError"
    assert "boom" not in json.dumps(error)
    assert cells[4].outputs[0]["text"] == "after\n"
    assert cells[5].outputs[0]["text"] == f"{kernel_id}\n"  # named as Voilà names it
    assert cells[6].outputs[0]["text"] == "stored\n"  # a skipped cell shows what it stored
    assert any(line.startswith("error: Error at server while executing cell") for line in logged)


def test_a_kernel_that_dies_on_its_own_shows_each_cell_left_as_failed(kernels):
    notebook = small_notebook("print('before')", "import os; os._exit(1)", "print('after')")

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        running = early_run(manager, kernel_id, notebook, [])
        await asyncio.wait_for(running.task, timeout=60)
        return running.results

    results = kernels.run(scenario)
    # The page gets a result for every cell (its placeholders all go), the failed ones showing
    # Voilà's message for a failure at the server.
    assert [r["cell_index"] for r in results] == [0, 1, 2]
    assert results[0]["output_cell"].outputs[0]["text"] == "before\n"
    for failed in results[1:]:
        (shown,) = failed["output_cell"].outputs
        assert shown["name"] == "stderr" and "An exception occurred at the server" in shown["text"]


def test_a_kernel_not_ready_in_time_hands_its_cells_back_to_voila(kernels, monkeypatch):
    """A kernel slower to start than the executor's startup time (a class opening cold pages at
    once): its page has been sent and waits, so its cells go back to Voilà, which runs them
    when the page asks, once the kernel is up, as if there had been no early run."""
    from traitlets.config import Config
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    monkeypatch.setattr(ExecutionRequestHandler, "_execution_data", {})
    monkeypatch.setattr(GUARD, "EARLY_RUNS", {})
    monkeypatch.setattr(GUARD, "HANDED_BACK", set())
    notebook = small_notebook("print('first')")
    no_kernel_is_this_quick = Config({"VoilaExecutor": {"startup_timeout": 0.001}})

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        logged: list[str] = []
        running = early_run(manager, kernel_id, notebook, logged, no_kernel_is_this_quick)
        GUARD.EARLY_RUNS[kernel_id] = running
        await running.hold(seconds=30)  # a page connecting meanwhile is let through
        await asyncio.wait_for(running.task, timeout=30)
        alive = await manager.get_kernel(kernel_id).is_alive()
        return kernel_id, running, logged, alive

    kernel_id, running, logged, alive = kernels.run(scenario)
    assert alive and running.finished and running.results == []
    (kept,) = ExecutionRequestHandler._execution_data.items()
    assert kept[0] == kernel_id and kept[1]["nb"] is notebook  # as Voilà kept it
    assert kernel_id not in GUARD.EARLY_RUNS and GUARD.HANDED_BACK == {kernel_id}
    (line,) = [line for line in logged if line.startswith("warning")]
    assert f"Kernel {kernel_id} was not ready" in line and "when its page asks" in line
    assert not [line for line in logged if line.startswith(("error", "exception"))]


def test_a_page_connecting_holds_the_run_until_the_widget_states_are_sent(kernels):
    notebook = small_notebook("import time; time.sleep(0.4)", "print('second')", "print('third')")

    logged: list[str] = []

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        running = early_run(manager, kernel_id, notebook, logged)
        await until(lambda: running.running == 0)  # the first cell runs
        await running.hold(seconds=30)
        held_after = len(running.results)  # the running cell has ended; the next waits
        await asyncio.sleep(0.5)
        still = len(running.results)
        running.release()
        await running.task
        return kernel_id, held_after, still, len(running.results)

    kernel_id, *counts = kernels.run(scenario)
    assert counts == [1, 1, 3]
    # The wait is logged as the benchmark's cold-phases part reads it.
    (waited,) = [re.search(HOLD_LINE.format(kernel=kernel_id), line) for line in logged
                 if "waited" in line]
    assert waited is not None and waited.group(2) == "cell 0"
    assert 100 < int(waited.group(1)) < 5000  # most of the first cell's 0.4 s


def test_a_hold_ends_by_itself_when_no_widget_states_are_sent(kernels):
    notebook = small_notebook("print('first')", "print('second')")

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        logged: list[str] = []
        running = early_run(manager, kernel_id, notebook, logged)
        # Held before its first cell: hold returns once its kernel is ready and ipywidgets
        # imported, and the half second counts from then.
        await running.hold(seconds=0.5)
        await asyncio.sleep(0.2)
        before = len(running.results)
        await asyncio.wait_for(running.task, timeout=30)
        return before, len(running.results), logged

    before, after, logged = kernels.run(scenario)
    assert (before, after) == (0, 2)
    assert any("sent for no widget states" in line for line in logged)
    assert any("while the kernel's start or ipywidgets' import still runs" in line
               or "for the kernel's start or ipywidgets' import to end" in line for line in logged)


def test_a_page_connecting_while_its_kernel_starts_waits_for_the_start_however_long(kernels):
    """The template sends a cold page before its kernel is up, so its socket may connect while
    the kernel starts (for many seconds when a class opens cold pages at once): the page waits
    for the kernel and ipywidgets' import, past the hold's limit, which then counts from there:
    the states asked for too early would be refused, and the cells held for nothing."""
    notebook = small_notebook("print('first')", "print('second')")

    async def scenario(manager):
        kernel_id = await manager.start_kernel(kernel_name="python3")
        logged: list[str] = []
        running = early_run(manager, kernel_id, notebook, logged)
        assert running._doing() == "the kernel's start or ipywidgets' import"
        await running.hold(seconds=0.05)  # far less than a kernel's start
        ready, held = running._ready.is_set(), len(running.results)
        running.release()
        await asyncio.wait_for(running.task, timeout=30)
        return kernel_id, ready, held, len(running.results), logged

    kernel_id, ready, held, ran, logged = kernels.run(scenario)
    assert ready and (held, ran) == (0, 2)
    (waited,) = [re.search(HOLD_LINE.format(kernel=kernel_id), line) for line in logged
                 if "waited" in line]
    assert waited.group(2) == "the kernel's start or ipywidgets' import"
    assert int(waited.group(1)) > 50
    assert not any("still runs" in line for line in logged)


async def in_a_long_first_cell(manager, logged: list[str]):
    """(kernel id, early run) of a notebook whose first cell sleeps 30 s, once that cell runs."""
    kernel_id = await manager.start_kernel(kernel_name="python3")
    notebook = small_notebook("import time; time.sleep(30)", "print('second')")
    running = early_run(manager, kernel_id, notebook, logged)
    await until(lambda: running.running == 0)
    return kernel_id, running


def test_a_page_connecting_while_a_cell_waits_for_it_is_not_kept_waiting(kernels):
    async def scenario(manager):
        logged: list[str] = []
        kernel_id, running = await in_a_long_first_cell(manager, logged)
        started = time.monotonic()
        await running.hold(seconds=0.5)  # the cell runs on: the page connects anyway
        waited = time.monotonic() - started
        await manager.shutdown_kernel(kernel_id, now=True)
        await asyncio.wait_for(running.task, timeout=30)
        return waited, logged

    waited, logged = kernels.run(scenario)
    assert 0.4 < waited < 5
    assert any("connects while cell 0 still runs" in line for line in logged)


@pytest.mark.parametrize("when", ["while its cells ran", "before its cells ran"])
def test_an_early_run_whose_page_closed_ends_quietly(kernels, when):
    async def scenario(manager):
        logged: list[str] = []
        if when == "while its cells ran":
            kernel_id, running = await in_a_long_first_cell(manager, logged)
        else:
            kernel_id = await manager.start_kernel(kernel_name="python3")
            running = early_run(manager, kernel_id, small_notebook("print('never')"), logged)
        await manager.shutdown_kernel(kernel_id, now=True)  # what a closing tab asks for
        await asyncio.wait_for(running.task, timeout=30)
        return running, logged

    running, logged = kernels.run(scenario)
    assert running.finished and running.results == []
    assert any(f"closed {when}" in line for line in logged)
    assert not [line for line in logged if line.startswith(("error", "exception"))]


def test_the_cell_runner_sends_an_early_runs_results_and_lets_it_go(monkeypatch):
    async def scenario():
        loop = asyncio.get_running_loop()
        early = SimpleNamespace(kernel_id="k1", results=[], finished=False)

        async def results_from(start=0):
            for index in range(3):
                await asyncio.sleep(0)
                yield {"cell_index": index}

        early.results_from = results_from
        runs = {"k1": early}
        monkeypatch.setattr(GUARD, "EARLY_RUNS", runs)
        sent: list[dict] = []

        def write_message(message):
            sent.append(message)
            done = loop.create_future()
            done.set_result(None)
            return done

        runner = handler_over(GUARD.CellRunner, {})
        runner._kernel_id = "k1"
        runner.write_message = write_message
        await runner.on_message(json.dumps({"action": "execute",
                                            "payload": {"kernel_id": "k1"}}))
        return sent, runs

    sent, runs = run(scenario())
    assert [m["payload"]["cell_index"] for m in sent] == [0, 1, 2]
    assert {m["action"] for m in sent} == {"execution_result"}
    assert runs == {}  # every result is on the page


def test_the_cell_runner_lets_a_run_go_when_its_page_closes(monkeypatch):
    runs = {"k1": SimpleNamespace(), "k2": SimpleNamespace()}
    monkeypatch.setattr(GUARD, "EARLY_RUNS", runs)
    runner = handler_over(GUARD.CellRunner, {})
    runner._kernel_id = "k1"
    runner.on_close()
    assert list(runs) == ["k2"]


def test_a_request_for_another_kernel_is_left_to_voilas_handler(monkeypatch):
    from voila.tornado.execution_request_handler import ExecutionRequestHandler

    asked: list[str] = []

    async def voilas(self, message):
        asked.append(message)

    monkeypatch.setattr(ExecutionRequestHandler, "on_message", voilas)
    monkeypatch.setattr(GUARD, "EARLY_RUNS", {"k1": SimpleNamespace()})
    runner = handler_over(GUARD.CellRunner, {})
    runner._kernel_id = "k1"
    other = json.dumps({"action": "execute", "payload": {"kernel_id": "k2"}})
    run(runner.on_message(other))
    run(runner.on_message("not json"))
    assert asked == [other, "not json"]


def socket_over(monkeypatch, runs: dict, events: list[str]):
    """A KernelSocket for kernel k1, over Voilà's handler reduced to recording what it does."""
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    async def allowed(self):
        events.append("allowed")

    monkeypatch.setattr(VoilaKernelWebsocketHandler, "pre_get", allowed)
    monkeypatch.setattr(VoilaKernelWebsocketHandler, "write_message",
                        lambda self, message, binary=False: events.append("sent"))
    monkeypatch.setattr(VoilaKernelWebsocketHandler, "on_message",
                        lambda self, message: events.append("to kernel"))
    monkeypatch.setattr(GUARD, "EARLY_RUNS", runs)
    socket = handler_over(GUARD.KernelSocket, {})
    socket.kernel_id = "k1"
    return socket


def held_run(events: list[str]):
    async def hold(seconds):
        events.append(f"hold {seconds}")

    return SimpleNamespace(finished=False, hold=hold, release=lambda: events.append("release"))


def test_the_kernel_socket_holds_the_run_and_releases_it_once_the_states_are_out(monkeypatch):
    events: list[str] = []
    socket = socket_over(monkeypatch, {"k1": held_run(events)}, events)
    run(socket.pre_get())
    socket.write_message(kernel_message("status", {"execution_state": "idle"}), binary=True)
    states = {"comm_id": "c", "data": {"method": "update_states", "states": {}}}
    socket.write_message(kernel_message("comm_msg", states), binary=True)
    socket.write_message(kernel_message("comm_msg", states), binary=True)  # released once
    assert events == ["allowed", f"hold {GUARD.HOLD_SECONDS}", "sent", "sent", "release", "sent"]
    # No early run for this kernel (a preheated page) or one that has ended: nothing is held.
    for runs in ({}, {"k1": SimpleNamespace(finished=True)}):
        socket = socket_over(monkeypatch, runs, events)
        events.clear()
        run(socket.pre_get())
        assert events == ["allowed"] and socket._held is None


def test_the_kernel_socket_reads_the_older_json_protocol_and_lets_go_when_it_closes(
        monkeypatch):
    events: list[str] = []
    socket = socket_over(monkeypatch, {"k1": held_run(events)}, events)
    run(socket.pre_get())
    socket.write_message(json.dumps({"header": {"msg_type": "comm_msg"}, "content": {
        "comm_id": "c", "data": {"method": "update_states", "states": {}}}}))
    assert events[-2:] == ["sent", "release"]
    # A page that goes before the states have gone out lets its run go on.
    monkeypatch.setattr(GUARD.VoilaKernelWebsocketHandler, "on_close",
                        lambda self: events.append("closed"))
    socket = socket_over(monkeypatch, {"k1": held_run(events)}, events)
    run(socket.pre_get())
    socket.on_close()
    assert events[-2:] == ["release", "closed"]


def test_the_kernel_socket_releases_the_run_when_the_kernel_refuses_to_send_the_states(
        monkeypatch):
    events: list[str] = []
    socket = socket_over(monkeypatch, {"k1": held_run(events)}, events)
    run(socket.pre_get())
    # A widget closing is not the answer; the comm the page asked on, closed by the kernel, is.
    socket.write_message(kernel_message("comm_close", {"comm_id": "ask"}), binary=True)
    socket.on_message(kernel_message("comm_open", {"comm_id": "ask", "target_name":
                                                   "jupyter.widget.control", "data": {}}))
    socket.write_message(kernel_message("comm_close", {"comm_id": "a-widget"}), binary=True)
    assert "release" not in events
    socket.write_message(kernel_message("comm_close", {"comm_id": "ask"}), binary=True)
    assert events[-3:] == ["sent", "sent", "release"] and "to kernel" in events


def test_the_kernel_socket_is_voilas_unless_cells_run_when_the_page_asks(monkeypatch):
    # Both count the page's connections for the page guard; only one holds the early run.
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    voilas = [("/api/kernels/(?P<kernel_id>\\w+-\\w+-\\w+-\\w+-\\w+)/channels",
               VoilaKernelWebsocketHandler)]
    monkeypatch.setattr(GUARD.Voila, "init_handlers", lambda self: voilas)
    assert issubclass(GUARD.KernelSocket, GUARD.CountedKernelSocket)
    for early, socket in ((True, GUARD.KernelSocket), (False, GUARD.CountedKernelSocket)):
        app = GUARD.HenkitVoila(run_early=early)
        app.voila_configuration, app.server_url = GUARD.VoilaConfiguration(), "/"
        assert [r[1] for r in app.init_handlers() if r[0].endswith("/channels")] == [socket]


# ----- plain mode and the start-up checks ------------------------------------------------------


def test_plain_mode_turns_every_change_to_voilas_workings_off(caplog):
    app = GUARD.HenkitVoila(plain=True)
    app._leave_off_what_cannot_work()
    assert all(getattr(app, setting) is False for setting in GUARD.PLAIN_OFF)
    assert not app.compile_once and not app.run_early and not app.progressive_cold
    assert GUARD.plain_asked(["--HenkitVoila.plain=True"])
    assert not GUARD.plain_asked(["--HenkitVoila.plain=False"])


def test_a_change_whose_voila_parts_are_missing_is_left_off_and_said(monkeypatch, caplog):
    monkeypatch.delattr(GUARD.ExecutionRequestHandler, "_execution_data")
    assert GUARD.lacks("run_early") == ["ExecutionRequestHandler._execution_data"]
    app = GUARD.HenkitVoila()
    app.log = logging.getLogger("henkit-voila-test")  # the application's own does not propagate
    with caplog.at_level("WARNING"):
        app._leave_off_what_cannot_work()
    assert app.run_early is False and app.compile_once is True  # only what cannot work
    said = [r.getMessage() for r in caplog.records]
    assert any("lacks ExecutionRequestHandler._execution_data: henkit's run_early is off" in m
               for m in said), said


def test_every_change_finds_its_parts_in_the_voila_the_kit_is_locked_to():
    assert {change: GUARD.lacks(change) for change in GUARD.NEEDS} == {
        change: [] for change in GUARD.NEEDS}
