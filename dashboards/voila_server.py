"""Start Voilà (as `python -m voila` would), with a guard against a lost ZeroMQ wake-up,
lighter pages, and each template compiled and each markdown text rendered once.

Who may use what (page_guard.py, teacher.py): each kernel answers only the browser its page was
served to (PageAuthorizer, Jupyter Server's authorizer hook, and GuardedShutdown and CellRunner
for Voilà's routes that ask none); pages beyond the kernel budget get a "server is full" page at
once; kernels whose page has gone are shut down after `page_grace`; the teacher's routes answer
only the teacher link's cookie; HTTPS with `certfile` and `keyfile`.


Why the guard: Voilà runs each dashboard's notebook through nbclient, which waits for a
kernel's replies with `AsyncZMQSocketChannel.get_msg(timeout=None)`, i.e. one unbounded
`zmq.asyncio` poll. ZeroMQ signals new messages through an edge-triggered file descriptor, and
now and then that edge is consumed without the waiting poll being woken: the reply sits
in the socket (`zmq.EVENTS` reports it readable), the poll waits forever, and the viewer's page
never finishes loading (measured here: 10 of 188 pages opened one after another while Voilà
refilled its preheated kernels; the CI run on record lost one). A bounded poll does not have
this failure: when its time is up pyzmq asks the socket directly (`zmq_poll` with timeout 0)
and finds the message. So here every unbounded wait becomes a loop of one-second waits; a
normal reply still wakes it at once.

Lighter pages (HenkitVoila below): a first visit to a dashboard moved 9.8 MB, none of it
compressed. Three changes, switched on by `Voila.tornado_settings` in voila.json:
- `compress_response`: Tornado gzips every text response (HTML, JavaScript, CSS, JSON). Voilà
  applies `tornado_settings` after it has built its Tornado application, too late for this one
  (Tornado picks its output transforms when the application is built): here they are part of
  the settings the application is built with.
- Static files (Voilà's bundles, the widget manager, the template's CSS and plotly.js) are
  compressed once per file, at gzip's best level, and kept in memory: compressing them on every
  request at Tornado's level 6 cost the server about 0.27 s of CPU per first visit, on the one
  thread that serves every viewer, and sent 2 % more bytes.
- Voilà serves the JupyterLab extensions' files (the widget manager among them) with
  `Cache-Control: no-cache`, so each dashboard asked for them again. Their addresses carry a
  version (`?v=<hash>`): served as Jupyter serves them everywhere else, with a long max-age, a
  browser fetches them once for all dashboards.
`websocket_compression_options` (permessage-deflate for the kernel's messages) is read by the
kernel's websocket handler itself.

Preloaded scripts: a dashboard page finds the scripts it needs one wave after another (Voilà's
bundle asks for some 60 chunks once it runs, the widget managers' extensions for theirs once those
have run, more chunks once the kernel is connected): each wave waits for the one before. The
template's head names them all at once (`<link rel="preload">`) so the browser fetches and
compiles them while the page starts: the probe page was usable after a median 2.57 s instead of
3.01 s (8 pairs on one server, load 6-8 on 2 cores). The list is the scripts the probe page loads
before it is usable (templates/henkit/preload.json, written by `python -m tests.browser.browsing
write-preloads`), for the Voilà and jupyterlab_widgets versions it names: with other versions
installed nothing is preloaded (a wrong list would only cost bytes) and the log says so.

A lesson (`--HenkitVoila.lesson=01_rolling_dice.ipynb --HenkitVoila.class_size=30`, set by
serve.sh from LESSON and CLASS): that dashboard keeps class_size preheated kernels, the others
`default_pool_size`, through Voilà 0.5's per-notebook pools (`VoilaKernelManager.
kernel_pools_config`, a dict that traitlets takes from the command line only with a deprecation
warning). When all of the lesson's kernels have run its notebook the log says so, with how long
preparing took and the kernels' memory: the teacher knows when the class may come in.

Templates compiled once: Voilà builds a new nbconvert exporter, with a new Jinja environment,
for every page it renders, and so parses and compiles the page's 14 templates every time: about
0.2 s of the server's CPU per page opened cold, on the one thread that serves every viewer.
Here every exporter's environment shares one in-memory cache of compiled templates (Jinja's
bytecode cache), checked against each template's source so that an edited template is compiled
again. A lesson's markdown cells are rendered to HTML once per text too (some 30 a lesson, about
2.5 ms each), except a text showing an image, whose file the page inlines as it is now.

Cold pages progressive: a page that finds no preheated kernel ready is rendered with Voilà's
progressive rendering. The browser loads the page's scripts while its kernel starts; as soon as
the kernel is up the server sends the whole lesson, every markdown cell rendered, and each cell's
output appears as soon as its cell has run. Those pages are every page of a server with POOL=0,
which Voilà sent in one piece once every cell had run (the browser only then started the
widgets: a lesson's first widget came 1.14-1.77x later than the probe page's), and every viewer
past a dashboard's pool, whom Voilà had wait for the pool's replacement kernel, which starts only
after FILL_DELAY (120 s in a lesson: a student who reloaded the page waited two minutes), and
then for every cell. A widget that shows while later cells still run answers a click once the
cell running then has finished (Voilà runs the cells one at a time). Voilà allows progressive
rendering only with preheating off for the whole server; here the choice is made per page
(ColdPagesProgressive), so a ready preheated kernel still serves its page in one piece, as fast
as before.

Cells run from the start (EarlyRun): Voilà runs a progressive page's cells only when the page,
its scripts loaded and its widget manager started, asks for them, so the kernel idled while the
browser started and the page's last outputs came later than a page sent whole (up to 2.2 s on
lesson 7). Here they run as soon as the kernel is up, and the page gets at once what has run.
The page's widget manager takes the widgets made before it connected from the kernel, as on a
preheated page; while it does, the next cell waits (KernelSocket), so that no new widget
reaches the page before the earlier widgets it holds.

Text first: Voilà's template has a cold page wait for its kernel's first answer (about a second
here, far longer when a class opens cold pages at once) before it sends the page's settings,
its cells and the script that starts the page. The henkit template sends a progressive page
whole at once: the browser starts Voilà's scripts and shows the lesson's text while the kernel
starts, and the page's kernel socket waits on the server until the kernel is up and has
imported ipywidgets (EarlyRun.hold), however long that takes. The kernel's id, all the page
needs of it, is known as soon as its process has been asked for. Voilà's kernel client for the
page, which only waited for that first answer, is not made (cleanup_if_started); the early run
has its own. `--HenkitVoila.text_first=False` serves cold pages as Voilà does (the benchmark's
text-first part compares the two).

Whole HTML: Voilà sends a page's HTML piece by piece as Jinja renders it (some 400 pieces), each
written and flushed. A page sent at once, its kernel still starting, waits for nothing while it
renders, yet a lesson's HTML ended 0.1-0.2 s after the probe page's: the browser asks for the
page's 89 scripts as soon as it has the head (in 3 of 4 loads of lesson 5, 1 to 40 of them
before the page had ended), and the server answered those between the rest of the page's
pieces. Such a page now goes out whole once rendered (ColdPagesProgressive: lesson 5's
HTML ended after 0.08 s instead of 0.30 s); `--HenkitVoila.whole_html=False` sends it piece by
piece (the benchmark's whole-html part compares the two).

Later cells: a page sent whole (from a preheated kernel) shows the cells after its first
widget's once that widget shows (the template's first-widget-first script): laying a long
lesson's text out all at once had its first widget wait for it.
`--HenkitVoila.hold_later_cells=False` lays every cell out at once, as Voilà does (the
benchmark's later-cells part compares the two).

Rules sheets: the lessons link the kit's rules sheets as `rules/henpen.md` and `rules/hens.md`,
beside the notebook (notebooks/rules is a link to docs/rules), which JupyterLab opens as files.
On a dashboard the same link points under /voila/render/, where Voilà would try to run it as a
notebook: RulesSheet serves it there as a page of its own, rendered from docs/rules/ (the rules'
one home) with the dashboards' 16 px text.
"""

from __future__ import annotations

import asyncio
import atexit
import copy
import gzip
import json
import logging
import mimetypes
import os
import ssl
import sys
import time
import traceback
import uuid
from datetime import UTC, datetime
from pathlib import Path
from queue import Empty
from typing import Any

import nbformat
import voila
from jinja2 import BytecodeCache, Environment, pass_context
from jinja2.bccache import Bucket
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_core.utils import ensure_async
from jupyter_server.auth.authorizer import Authorizer
from jupyter_server.utils import url_path_join
from nbclient.exceptions import CellExecutionError
from nbconvert.exporters.templateexporter import TemplateExporter
from tornado.web import GZipContentEncoding, HTTPError, RequestHandler, StaticFileHandler
from tornado.websocket import WebSocketClosedError
from traitlets import Bool, Float, Int, Type, Unicode, default
from voila.app import Voila
from voila.configuration import VoilaConfiguration
from voila.execute import VoilaExecutor, strip_code_cell_warnings
from voila.exporter import VoilaExporter
from voila.notebook_renderer import NotebookRenderer
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.execution_request_handler import ExecutionRequestHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from henkit.display import PLOTLY_JS

# Voilà's pattern for a kernel id in its routes (private): the same pattern if it is renamed.
_kernel_id_regex = getattr(voila.app, "_kernel_id_regex", r"(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # page_guard beside this file
from page_guard import FULL_PAGE, PageAuthorizer, Pages, allowed_here, viewer_of
from teacher import (
    announce_served_pool,
    new_secret,
    students_url,
    teacher_handlers,
    teacher_link_line,
    withdraw_served_pool,
)

#: How long one wait lasts before the socket is asked directly (seconds): the longest a lost
#: wake-up can delay a page.
RECHECK_SECONDS = 1.0

log = logging.getLogger("HenkitVoila")  # the application's own logger (its class name)
_bounded_get_msg = AsyncZMQSocketChannel.get_msg


async def get_msg_rechecking(
    self: AsyncZMQSocketChannel, timeout: float | None = None
) -> dict[str, Any]:
    """`get_msg` whose wait without a timeout asks the socket again every RECHECK_SECONDS."""
    if timeout is not None:
        return await _bounded_get_msg(self, timeout)
    while True:
        started = time.monotonic()
        try:
            msg = await _bounded_get_msg(self, RECHECK_SECONDS)
        except Empty:
            continue
        if time.monotonic() - started >= RECHECK_SECONDS:
            # Found by the direct check at the end of a wait, not by a wake-up: a lost one, or
            # an event loop too busy to see it sooner (many of these under a class rush).
            log.info("ZeroMQ: a kernel message was found by the one-second check")
        return msg


class CompiledTemplates(BytecodeCache):
    """Compiled Jinja templates kept in memory for every environment of this process, each
    with its source's checksum (an edited template is compiled again)."""

    def __init__(self) -> None:
        self._compiled: dict[str, tuple[str, Any]] = {}

    def get_bucket(self, environment: Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        # What a template compiles to depends on its environment too: async or not (Voilà's
        # exporters are async) and its extensions (Voilà adds jinja2.ext.do to its own).
        key = repr((name, filename, environment.is_async, sorted(environment.extensions)))
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give the bucket its compiled code when its source has not changed since."""
        checksum, code = self._compiled.get(bucket.key, ("", None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a template's newly compiled code."""
        self._compiled[bucket.key] = (bucket.checksum, bucket.code)


COMPILED_TEMPLATES = CompiledTemplates()
_create_environment = TemplateExporter._create_environment


def _environment_sharing_compiled_templates(self: TemplateExporter) -> Environment:
    environment = _create_environment(self)
    environment.bytecode_cache = COMPILED_TEMPLATES
    return environment


#: Markdown texts rendered to HTML at most (the lessons hold some 250): past it, start afresh.
MARKDOWN_CACHE_LIMIT = 4096
_RENDERED_MARKDOWN: dict[tuple[str, str, object], str] = {}
_markdown2html = VoilaExporter.markdown2html


@pass_context
def markdown2html_once(self: VoilaExporter, context: Any, source: str) -> str:
    """Voilà's markdown2html filter, remembered per text: the same text renders to the same HTML,
    unless it has attachments or an image (the page inlines the image's file as it is now)."""
    cell = context.get("cell") or {}
    if cell.get("attachments") or "<img" in source or "![" in source:
        return _markdown2html(self, context, source)
    key = (source, self.anchor_link_text, self.markdown_renderer_class)
    html = _RENDERED_MARKDOWN.get(key)
    if html is None:
        if len(_RENDERED_MARKDOWN) >= MARKDOWN_CACHE_LIMIT:
            _RENDERED_MARKDOWN.clear()
        html = _RENDERED_MARKDOWN[key] = _markdown2html(self, context, source)
    return html


def compile_once() -> None:
    """Make every page's templates come from COMPILED_TEMPLATES and its markdown be rendered
    once per text."""
    TemplateExporter._create_environment = _environment_sharing_compiled_templates  # type: ignore[method-assign]
    VoilaExporter.markdown2html = markdown2html_once  # type: ignore[method-assign]


def install() -> list[str]:
    """Make every unbounded kernel-channel wait in this process re-check its socket, and let a
    page rendered without waiting for its kernel end cleanly; what could not be installed."""
    lacking = lacks("recheck") + lacks("text_first")
    if not lacks("recheck"):
        AsyncZMQSocketChannel.get_msg = get_msg_rechecking  # type: ignore[method-assign]
    if not lacks("text_first"):
        NotebookRenderer._cleanup_resources = cleanup_if_started  # type: ignore[method-assign]
    return lacking


#: What each of henkit's changes to Voilà reads or replaces of the installed Voilà, Jupyter and
#: nbconvert (private parts among them), by the setting that turns it off; checked as the server
#: starts: a change whose parts are missing is left off, and the log says so in one line.
NEEDS: dict[str, tuple[tuple[object, str], ...]] = {
    "recheck": ((AsyncZMQSocketChannel, "get_msg"),),
    "compile_once": ((TemplateExporter, "_create_environment"),
                     (VoilaExporter, "markdown2html")),
    "text_first": ((NotebookRenderer, "_cleanup_resources"),),
    "progressive_cold": ((TornadoVoilaHandler, "should_use_rendered_notebook"),
                         (VoilaConfiguration, "progressive_rendering")),
    "run_early": ((ExecutionRequestHandler, "_execution_data"),),
}
#: The settings that plain mode turns off: every change to Voilà's own workings (its pages are
#: then served as stock Voilà serves them, with henkit's configuration, template, page guard and
#: teacher's page, all through Voilà's and Jupyter's supported settings).
PLAIN_OFF = ("compile_once", "progressive_cold", "text_first", "whole_html", "run_early",
             "compress_ahead")


def lacks(change: str) -> list[str]:
    """The parts a change needs that the installed packages do not have ('Class.attribute')."""
    return [f"{getattr(owner, '__name__', owner)}.{name}" for owner, name in NEEDS[change]
            if not hasattr(owner, name)]


def plain_asked(argv: list[str]) -> bool:
    """Whether the command line (or HENKIT_PLAIN=1) asks for plain mode."""
    return os.environ.get("HENKIT_PLAIN") == "1" or any(
        a.lower() in ("--henkitvoila.plain=true", "--henkitvoila.plain=1") for a in argv)


_voilas_cleanup = NotebookRenderer._cleanup_resources


async def cleanup_if_started(self: NotebookRenderer) -> None:
    """Voilà's end of a page's rendering, which stops the kernel client its kernel_start made:
    a progressive page sent before its kernel is up (the template's text_first) made none."""
    if self.kernel_started:
        await _voilas_cleanup(self)


# --- Lighter pages ---------------------------------------------------------------------------

#: Compressed static files kept in memory at most (bytes); past it, files are gzipped per request
#: by Tornado's transform. The dashboards' files take about 3 MB compressed.
GZIP_CACHE_LIMIT = 64 * 2**20
_GZIPPED: dict[str, tuple[bytes, datetime]] = {}  # virtual path -> (gzip bytes, original mtime)
_GZIP_MARK = "\0gzip:"  # never part of a real path (a file name cannot hold a NUL byte)


def compressible(content_type: str) -> bool:
    """Whether Tornado's gzip transform would compress a response of this type (text/*,
    JavaScript, JSON, SVG, ...)."""
    return content_type.startswith("text/") or content_type in GZipContentEncoding.CONTENT_TYPES


def gzipped_copy(path: str) -> str | None:
    """The virtual path under which a gzip copy of the file at `path` is kept (made now if
    needed), or None when the cache is full. A changed file (new mtime or size) gets a new copy."""
    stat = os.stat(path)
    virtual = f"{path}{_GZIP_MARK}{stat.st_mtime_ns}:{stat.st_size}"
    if virtual not in _GZIPPED:
        if sum(len(body) for body, _ in _GZIPPED.values()) + stat.st_size > GZIP_CACHE_LIMIT:
            return None
        with open(path, "rb") as f:
            body = gzip.compress(f.read(), compresslevel=9, mtime=0)
        _GZIPPED[virtual] = (body, datetime.fromtimestamp(int(stat.st_mtime), UTC))
    return virtual


class GzipStaticFiles(StaticFileHandler):
    """Serves a static file's gzip copy (`gzipped_copy`) to a browser that accepts gzip, when
    the server compresses responses (`compress_response`), the file is compressible and worth
    it, and no byte range is asked for. Mixed into each of Voilà's static file handlers.

    The copy is served as a file of its own, at a virtual path: size, content, ETag (a hash of
    the compressed bytes) and 304 answers all follow from it; type and modification time are the
    original file's. Tornado's gzip transform leaves a response that is already encoded alone.
    """

    async def get(self, path: str, include_body: bool = True) -> None:
        # A file's first request compresses it in a worker thread (zlib lets go of the GIL):
        # done in the event loop, as validate_absolute_path below would, plotly.js alone held
        # every other request of the server for about 0.5 s. The checks are the handler's own,
        # made again by the request itself.
        try:
            self.path = self.parse_url_path(path)  # as Tornado's get sets it, for the checks
            absolute = self.get_absolute_path(self.root, self.path)
        except (ValueError, AssertionError) as e:
            # Voilà's template files split a path into template, "static" and file, and assert
            # its parts: a path that climbs out of them ("static/../conf.json") names no file
            # (it failed with a 500).
            raise HTTPError(404) from e
        try:
            if os.path.isfile(absolute):
                checked = super().validate_absolute_path(self.root, absolute)
                if checked is not None and self._serve_gzipped(checked):
                    await asyncio.get_running_loop().run_in_executor(None, gzipped_copy, checked)
        except HTTPError:
            pass  # the request below answers as Tornado does
        await super().get(path, include_body)

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        path = super().validate_absolute_path(root, absolute_path)
        self._original_path = path
        if path is not None and self._serve_gzipped(path):
            return gzipped_copy(path) or path
        return path

    def _serve_gzipped(self, path: str) -> bool:
        return (
            bool(self.settings.get("compress_response"))
            and "gzip" in self.request.headers.get("Accept-Encoding", "")
            and "Range" not in self.request.headers
            and compressible(mimetypes.guess_type(path)[0] or "")
            and os.path.getsize(path) >= GZipContentEncoding.MIN_LENGTH
        )

    @property
    def _gzipped(self) -> bool:
        return self.absolute_path in _GZIPPED

    def set_headers(self) -> None:
        super().set_headers()
        if self._gzipped:
            self.set_header("Content-Encoding", "gzip")

    def get_content_type(self) -> str:
        if self._gzipped:
            return mimetypes.guess_type(self._original_path)[0] or "application/octet-stream"
        return super().get_content_type()

    def get_modified_time(self) -> datetime | None:
        if self._gzipped:
            return _GZIPPED[self.absolute_path][1]
        return super().get_modified_time()

    def get_content_size(self) -> int:
        if self._gzipped:
            return len(_GZIPPED[self.absolute_path][0])
        return super().get_content_size()

    @classmethod
    def get_content(cls, abspath: str, start: int | None = None, end: int | None = None):
        if abspath in _GZIPPED:
            return _GZIPPED[abspath][0][start:end]
        return super().get_content(abspath, start, end)


# --- Preloaded scripts -----------------------------------------------------------------------

PRELOADS = Path(__file__).resolve().parent / "jupyter" / "voila" / "templates" / "henkit" / "preload.json"


def installed_versions() -> dict[str, str]:
    """The versions of the packages whose scripts a dashboard page loads."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("voila", "jupyterlab_widgets"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = ""
    return found


def preload_scripts(path: Path = PRELOADS) -> tuple[list[str], str]:
    """The scripts (paths under the server's base URL) a page may preload, and why none when
    the list is empty: no list, or one written for other versions than those installed."""
    try:
        recorded = json.loads(path.read_text())
    except (OSError, ValueError):
        return [], f"no preload list at {path}"
    versions = installed_versions()
    if recorded.get("versions") != versions:
        return [], (f"{path.name} was written for {recorded.get('versions')}, not the installed "
                    f"{versions}: run `python -m tests.browser.browsing write-preloads`")
    scripts = recorded.get("scripts", [])
    if not all(isinstance(u, str) and not u.startswith(("/", "http")) for u in scripts):
        return [], f"{path.name} holds something other than relative script paths"
    return scripts, ""


# --- Cold pages progressive ------------------------------------------------------------------


def progressive_copy(configuration: VoilaConfiguration) -> VoilaConfiguration:
    """A copy of Voilà's configuration with progressive rendering on (the original unchanged)."""
    copied = copy.copy(configuration)  # traitlets copies the values: a change stays in the copy
    copied.progressive_rendering = True
    return copied


class GuardedPages(TornadoVoilaHandler):
    """Voilà's page handler within the kernel budget, binding each page's kernel to its viewer
    (page_guard.py): a page beyond the budget gets the "server is full" page at once, and no
    kernel; the piece of a page that names its kernel goes out once that kernel is bound."""

    async def get_generator(self, path: str | None = None):
        pages: Pages | None = self.settings.get("henkit_pages")
        if pages is not None:
            refusal = pages.refusal(len(self.kernel_manager.list_kernel_ids()),
                                    self.request.remote_ip,
                                    pages.budget(lambda: kernels_rss_mb(os.getpid())))
            if refusal is not None:
                # At once, and no kernel is started: a page beyond the budget costs nothing.
                self.log.warning("A page of %s refused (%s): %s", path, self.request.remote_ip,
                                 refusal)
                self.set_status(503)
                self.set_header("Retry-After", "60")
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                yield FULL_PAGE.replace("{reason}", refusal)
                return
        viewer, bound = viewer_of(self), pages is None
        async for html in self.pieces(path):
            if not bound and viewer is not None:
                bound = pages.bind_from_html(html, viewer, self.request.remote_ip) is not None
            yield html

    def pieces(self, path: str | None):
        """The page's pieces as Voilà renders them."""
        return super().get_generator(path)


class ColdPagesProgressive(GuardedPages):
    """Voilà's page handler, serving a page from a preheated kernel only when one is ready and
    rendering every other page progressively at once (Voilà would make it wait for a kernel still
    waiting out its fill delay: 120 s in a lesson, for a student who reloads the page)."""

    def initialize(self, **kwargs: Any) -> None:
        self._progressive: VoilaConfiguration | None = kwargs.pop("progressive_configuration")
        self._run_early: bool = kwargs.pop("run_early", True)
        self._whole_html: bool = kwargs.pop("whole_html", True)
        self._notebook_path = ""
        super().initialize(**kwargs)

    def preheated_kernel_ready(self, notebook_path: str) -> bool:
        """Whether one of the notebook's preheated kernels has started; if so it is put first in
        its pool, where Voilà takes the kernel for a page (a kernel still starting, or a failed
        one, no longer holds back a started one behind it)."""
        pool = getattr(self.kernel_manager, "_pools", {}).get(notebook_path, [])  # Voilà 0.5
        pool.sort(key=lambda item: not started(item))  # stable: the others keep their order
        return bool(pool) and started(pool[0])

    def should_use_rendered_notebook(self, *args: Any) -> bool:
        """Voilà's test for serving this page from a preheated kernel, and a kernel ready for
        it; when not, the page is made progressive. Voilà asks once per page, before it reads
        its configuration for a cold page."""
        preheated = super().should_use_rendered_notebook(*args) and (
            self.preheated_kernel_ready(self._notebook_path))
        if not preheated and self._progressive is not None:
            self.voila_configuration = self._progressive
            forget_closed_kernels(self.kernel_manager)
        return preheated

    async def pieces(self, path: str | None = None):
        self._notebook_path = self.notebook_path or path  # as Voilà's generator names it
        first = self._run_early
        held: list[str] = []
        hold: bool | None = None  # known once Voilà has chosen how to serve the page
        async for html in super().pieces(path):
            if first:
                # A progressive page's kernel has been asked for before its first piece is
                # sent, and its notebook kept for it: its cells start now.
                start_early_runs(self.kernel_manager, self.log)
                first = False
            if hold is None:
                hold = self._holds_pieces()
            if not hold:
                yield html
            elif html == HEARTBEAT:
                # Voilà's heartbeat: the page has waited for its next piece for a while (a
                # template waiting on something): what is held goes out now, with it.
                held.append(html)
                yield "".join(held)
                held.clear()
            else:
                held.append(html)
        if held:
            yield "".join(held)

    def _holds_pieces(self) -> bool:
        """Whether this page's HTML goes out whole once rendered (whole_html; the module
        doc says why): a progressive page sent at once, its kernel still starting (text
        first), whose template waits for nothing. A page whose template waits for its kernel
        (text_first off) sends its head first, as Voilà does; a page from a preheated kernel
        comes whole already."""
        configuration = self.voila_configuration
        text_first = (configuration.resources or {}).get("henkit_text_first", True)
        return self._whole_html and configuration.progressive_rendering and text_first


#: What Voilà's page handler yields when the page's next piece has not come for a while.
HEARTBEAT = "<script>window.voila_heartbeat()</script>\n"


def started(item: asyncio.Future) -> bool:
    """Whether a pool's entry (a task giving a kernel that runs the notebook) gave its kernel."""
    return item.done() and not item.cancelled() and item.exception() is None


def forget_closed_kernels(kernel_manager: Any) -> None:
    """Drop the notebooks kept for pages that never asked for their cells to be run (a tab
    closed at once): each is kept until its page's websocket asks, under its kernel's id."""
    waiting = ExecutionRequestHandler._execution_data
    for kernel_id in [k for k in waiting if k not in kernel_manager]:
        del waiting[kernel_id]
    for kernel_id in [k for k in EARLY_RUNS if k not in kernel_manager]:
        EARLY_RUNS.pop(kernel_id).task.cancel()  # ended already, as its kernel went
    HANDED_BACK.difference_update([k for k in HANDED_BACK if k not in kernel_manager])


class EarlyRun:
    """A progressive page's cells, run in its kernel from the moment the kernel is up. Voilà
    runs them only when the page, its scripts loaded and its widget manager started, asks over
    its websocket; here the cells run meanwhile, and that websocket gets at once the results of
    the cells that have run, then each other result as its cell ends.

    Widgets made before the page connects to its kernel reach it as they reach a page served
    from a preheated kernel: its widget manager asks the kernel for every widget's state when it
    starts. Until that answer has gone out, no cell may run: the page handles the kernel's
    messages one after another, and a new widget holding an earlier one (a shared layout, a
    box's children) would wait for that earlier widget's state, queued behind it, for the
    manager's 2 s and fail ("widget model not found"). So the page's kernel socket holds the run
    when it connects (`hold`: the running cell ends, the next waits) and releases it when the
    states have been sent (`release`), or after HOLD_SECONDS at most."""

    def __init__(self, kernel_id: str, data: dict[str, Any], kernel_manager: Any,
                 log: logging.Logger) -> None:
        self.kernel_id = kernel_id
        self.results: list[dict[str, Any]] = []  # execution_result payloads, in cell order
        self.finished = False
        self.running: int | None = None  # the index of the cell running now
        self._more = asyncio.Event()
        self._go = asyncio.Event()  # cleared while a page connects to the kernel
        self._go.set()
        self._between = asyncio.Event()  # set while no cell runs (once the widgets can be asked for)
        self._ready = asyncio.Event()  # set once the widgets can be asked for, or the run failed
        self._release_later: asyncio.TimerHandle | None = None
        self._log = log
        # The notebook Voilà keeps for the page, run as Voilà runs it: the page's template has
        # made a copy of its own before the page's first piece (nbconvert's exporter).
        self.task = asyncio.ensure_future(self._run(data, kernel_manager))

    async def _run(self, data: dict[str, Any], kernel_manager: Any) -> None:
        notebook, executor = data["nb"], None
        try:
            km = await ensure_async(kernel_manager.get_kernel(self.kernel_id))
            executor = VoilaExecutor(notebook, km=km, config=data["config"],
                                     show_tracebacks=data["show_tracebacks"])
            executor.kc = await client_of_its_own(km, executor.startup_timeout)
            # The kernel answers a page's widget manager asking for the widgets' states only
            # once ipywidgets is imported: asked before, it refuses the request, and the page
            # would never get the states of the widgets the cells make while it connects.
            # It also names the kernel, as the page's template does once the kernel is up
            # (which may come after the first cells here).
            reply = await executor.async_wait_for_reply(await ensure_async(executor.kc.execute(
                WIDGETS_IMPORT % {"kernel_id": self.kernel_id}, silent=True,
                store_history=False)))
            if (reply or {}).get("content", {}).get("status") != "ok":
                self._log.info("Kernel %s: ipywidgets could not be imported ahead of its cells",
                               self.kernel_id)
            self._between.set()
            self._ready.set()
            total = len(notebook.cells)
            died = False  # the kernel died on its own: the cells left fail at once
            for index, cell in enumerate(notebook.cells):
                await self._go.wait()
                self._between.clear()
                self.running = index
                try:
                    output = await executor.execute_cell(cell, None, index, store_history=False)
                except Exception as error:  # noqa: BLE001 - each kind shown as Voilà shows it
                    if not died and await kernel_shut_down(kernel_manager, self.kernel_id):
                        self._log.info("The page of kernel %s closed while its cells ran",
                                       self.kernel_id)
                        return
                    died = died or not await ensure_async(km.is_alive())
                    output = failed_cell(executor, cell, error, self._log)
                finally:
                    self.running = None
                    self._between.set()
                output.pop("source", None)  # stripped sources stay on the server
                self.results.append({"output_cell": output, "cell_index": index,
                                     "total_cell": total})
                self._more.set()
        except Exception as error:  # noqa: BLE001 - a task of its own: logged here or never
            if await kernel_shut_down(kernel_manager, self.kernel_id):
                self._log.info("The page of kernel %s closed before its cells ran",
                               self.kernel_id)
            elif not self._ready.is_set():
                # The kernel was not ready in the executor's startup time (a class opening
                # cold pages at once, on a server short of cores), or died starting. Its page
                # has been sent (text first) and has asked for nothing yet: its kernel socket
                # waits for _ready. The cells go back to Voilà, which runs them when the page
                # asks, as it runs them without an early run: a slow kernel's page still
                # works once the kernel is up. (A kernel that never comes up leaves its page
                # waiting, its text shown: the page never asks.)
                ExecutionRequestHandler._execution_data[self.kernel_id] = data
                HANDED_BACK.add(self.kernel_id)
                self._log.warning("Kernel %s was not ready for its cells to run early (%s: "
                                  "%s); they run when its page asks", self.kernel_id,
                                  type(error).__name__, error)
            else:
                self._log.exception("Running the cells of kernel %s early failed", self.kernel_id)
        finally:
            if self.kernel_id in HANDED_BACK or self.kernel_id not in kernel_manager:
                EARLY_RUNS.pop(self.kernel_id, None)  # no page asks this run for results
            self.finished = True
            self._more.set()
            self._between.set()
            self._ready.set()
            self.release()
            if executor is not None and executor.kc is not None:
                await ensure_async(executor.kc.stop_channels())

    async def hold(self, seconds: float) -> None:
        """Let no further cell start until `release`, or for `seconds` at most once the cell
        running now, if any, has ended (or for `seconds`, if it has not: a cell that waits for
        its page must not keep the page from connecting); return then. A page that connects
        while its kernel starts (the template sends a progressive page without waiting for
        it) waits for the start first, however long it takes: asked for the widgets' states
        before ipywidgets is imported, the kernel would refuse, and the cells would then wait
        `seconds` for states that never come. The run ends that wait in any case (its kernel
        up, or the run failed: the kernel's own start is bounded by its startup timeout)."""
        self._go.clear()
        running, began = self._doing(), time.monotonic()
        await self._ready.wait()
        try:
            await asyncio.wait_for(self._between.wait(), seconds)
        except TimeoutError:
            self._log.info("Kernel %s: its page connects while %s still runs",
                           self.kernel_id, self._doing())
        else:
            waited = time.monotonic() - began
            if waited >= HOLD_NOTED_SECONDS:  # what a page waits for is worth knowing
                self._log.info("Kernel %s: its page waited %.0f ms to connect, for %s to end",
                               self.kernel_id, 1000 * waited, running)
        if self._release_later is not None:
            self._release_later.cancel()
            self._release_later = None
        if not self._go.is_set():
            self._release_later = asyncio.get_running_loop().call_later(
                seconds, self._held_too_long, seconds)

    def _doing(self) -> str:
        """What the run is doing, as its log lines name it."""
        if self.running is not None:
            return f"cell {self.running}"
        return "nothing" if self._ready.is_set() else "the kernel's start or ipywidgets' import"

    def release(self) -> None:
        """Let the cells run on."""
        if self._release_later is not None:
            self._release_later.cancel()
            self._release_later = None
        self._go.set()

    def _held_too_long(self, seconds: float) -> None:
        self._release_later = None
        if not self._go.is_set():
            self._log.info("Kernel %s: its page sent for no widget states in %.0f s; its cells "
                           "run on", self.kernel_id, seconds)
        self._go.set()

    async def results_from(self):
        """Each result, in cell order, as soon as its cell has run."""
        sent = 0
        while True:
            while sent < len(self.results):
                yield self.results[sent]
                sent += 1
            if self.finished:
                return
            self._more.clear()  # nothing can append between the check above and this
            await self._more.wait()


#: What an early run has its kernel run before the first cell (see EarlyRun._run).
WIDGETS_IMPORT = 'import os, ipywidgets; os.environ["VOILA_KERNEL_ID"] = "%(kernel_id)s"'
#: Early runs, by kernel id, until their page's websocket has had every result.
EARLY_RUNS: dict[str, EarlyRun] = {}
#: Kernels whose cells an early run handed back to Voilà (their kernel was not ready in time):
#: the next page's start_early_runs leaves them be, and they go with their kernels.
HANDED_BACK: set[str] = set()
#: The longest a page connecting to its kernel waits for the cell running then, and then holds
#: its early run (seconds). Its widget manager asks for the states as soon as the socket is
#: open; the limit matters to a client that never asks or a cell that never ends, and is
#: generous for a browser slowed down by a class opening the lesson at once.
HOLD_SECONDS = 30.0
#: A page's wait for the running cell that is logged (seconds): the benchmark's cold-phases
#: part reads it, and a slow page on a class server can be told from it.
HOLD_NOTED_SECONDS = 0.01


def start_early_runs(kernel_manager: Any, log: logging.Logger) -> None:
    """Start running the cells of every notebook Voilà keeps for a progressive page."""
    waiting = ExecutionRequestHandler._execution_data
    for kernel_id in [k for k in waiting if k not in HANDED_BACK]:
        EARLY_RUNS[kernel_id] = EarlyRun(kernel_id, waiting.pop(kernel_id), kernel_manager, log)


async def client_of_its_own(km: Any, timeout: float) -> Any:
    """A client of the kernel with a session of its own, connected and the kernel ready. A
    client that `km.client()` makes shares the kernel manager's session, whose id is the
    identity of its sockets: the page's template starts one of those while the early run's
    runs, and the kernel's ROUTER socket does not take a second peer with the same identity
    (the requests of one of them went unanswered and the page never loaded)."""
    session = km.session.clone()
    session.session = str(uuid.uuid4())
    kc = km.client(session=session)
    await ensure_async(kc.start_channels())
    try:
        await ensure_async(kc.wait_for_ready(timeout=timeout))
    except RuntimeError:
        await ensure_async(kc.stop_channels())
        raise
    kc.allow_stdin = False
    return kc


#: How long a kernel found dead may take to leave its manager, when its page shut it down.
SHUTDOWN_SECONDS = 2.0


async def kernel_shut_down(kernel_manager: Any, kernel_id: str) -> bool:
    """Whether the kernel has been shut down (its page closed), as opposed to one that died on its
    own (its page stays and shows each failed cell, as Voilà's do). A kernel being shut down is
    dead a moment before its manager forgets it."""
    deadline = time.monotonic() + SHUTDOWN_SECONDS
    while kernel_id in kernel_manager:
        if await ensure_async(kernel_manager.get_kernel(kernel_id).is_alive()):
            return False
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def failed_cell(executor: VoilaExecutor, cell: Any, error: Exception,
                log: logging.Logger) -> Any:
    """What a page shows for a cell that failed, as Voilà's progressive pages show it: a timed
    out cell or one that raised keeps the outputs it made (errors stripped unless tracebacks are
    shown); any other failure is the server's, shown as one line (or its traceback)."""
    if isinstance(error, TimeoutError):
        return cell
    log.error("Error at server while executing cell: %r", cell, exc_info=error)
    if isinstance(error, CellExecutionError):
        if executor.should_strip_error():
            strip_code_cell_warnings(cell)
            executor.strip_code_cell_errors(cell)
        return cell
    failed = nbformat.v4.new_code_cell()
    if executor.should_strip_error():
        failed.outputs = [nbformat.v4.new_output(
            "stream", name="stderr",
            text=f"An exception occurred at the server (not the notebook). "
                 f"{executor.cell_error_instruction}")]
    else:
        failed.outputs = [nbformat.v4.new_output(
            "error", ename=type(error).__name__, evalue=str(error),
            traceback=traceback.format_exception(error))]
    return failed


class CellRunner(ExecutionRequestHandler):
    """Voilà's websocket that runs a progressive page's cells; a page whose cells run early
    (EarlyRun) gets their results from there, and the run is let go when the socket closes. A
    run of Voilà's ends when its tab has closed: the cell that was running is logged as failed
    (its kernel shut down by the closing page) by Voilà, and the write of its result to the
    closed socket, which Voilà's handler lets escape as a second traceback, is one line here. A
    socket closed before any run does not fail in on_close."""

    _executor = None

    async def prepare(self) -> None:
        await super().prepare()
        if not allowed_here(self):  # only the page the kernel was served to runs its cells
            raise HTTPError(403)

    async def on_message(self, message: str | bytes) -> None:
        try:
            early = self._early_run(message)
            if early is None:
                await super().on_message(message)
                return
            async for result in early.results_from():
                await self.write_message({"action": "execution_result", "payload": result})
            EARLY_RUNS.pop(early.kernel_id, None)  # every result is on the page
        except WebSocketClosedError:
            self.log.info("A page closed while its cells ran (kernel %s)",
                          getattr(self, "_kernel_id", "?"))

    def on_close(self) -> None:
        EARLY_RUNS.pop(getattr(self, "_kernel_id", ""), None)  # its page has gone
        super().on_close()

    def _early_run(self, message: str | bytes) -> EarlyRun | None:
        """The early run this page's request to run its cells is for, taken from EARLY_RUNS."""
        try:
            request = json.loads(message)
        except ValueError:
            return None
        payload = request.get("payload") if isinstance(request, dict) else None
        kernel_id = getattr(self, "_kernel_id", None)
        if (request.get("action") != "execute" or not isinstance(payload, dict)
                or payload.get("kernel_id") != kernel_id):
            return None  # Voilà's handler answers it
        return EARLY_RUNS.get(kernel_id)


#: The comm a page's widget manager opens to ask for every widget's state (ipywidgets 8).
CONTROL_COMM = "jupyter.widget.control"


#: The parts of a kernel message in the websocket's v1 protocol, in order (then its buffers).
V1_PARTS = ("channel", "header", "parent_header", "metadata", "content")


def message_parts(message: bytes | str | dict, kinds: tuple[str, ...],
                  parts: tuple[str, ...]) -> tuple[str, dict[str, dict]]:
    """(msg_type, {part: its JSON}) of a kernel message between a page and its kernel when its
    type is one of `kinds`, else ("", {}); `parts` from header, parent_header, metadata and
    content; in the kernel websocket's protocol (v1, binary) or the older JSON one. Only the
    header is read of other messages."""
    try:
        if isinstance(message, bytes):
            count = int.from_bytes(message[:8], "little")
            if not 5 <= count < len(message) // 8:  # not v1 (the older binary form, say)
                return "", {}
            offsets = [int.from_bytes(message[8 * (i + 1):8 * (i + 2)], "little")
                       for i in range(count)] + [len(message)]
            kind = json.loads(message[offsets[1]:offsets[2]]).get("msg_type")
            if kind not in kinds:
                return "", {}
            found = {}
            for part in parts:
                at = V1_PARTS.index(part)
                found[part] = json.loads(message[offsets[at]:offsets[at + 1]])
        else:
            parsed = json.loads(message) if isinstance(message, str) else message
            kind = (parsed.get("header") or {}).get("msg_type")
            if kind not in kinds:
                return "", {}
            found = {part: parsed.get(part) for part in parts}
        if not all(isinstance(value, dict) for value in found.values()):
            return "", {}
        return kind, found
    except (ValueError, AttributeError, TypeError):
        return "", {}


def comm_message(message: bytes | str | dict, kinds: tuple[str, ...]) -> tuple[str, dict]:
    """(msg_type, content) of a kernel message between a page and its kernel when its type is
    one of `kinds`, else ("", {}) (see message_parts)."""
    kind, found = message_parts(message, kinds, ("content",))
    return (kind, found["content"]) if kind else ("", {})


#: The kernel messages that are a cell's output (or its echo), which a page's kernel socket
#: does not pass on when they answer a request to run a cell (see cell_output).
CELL_OUTPUTS = ("execute_input", "execute_result", "display_data", "stream", "error")


def cell_output(message: bytes | str | dict) -> bool:
    """Whether a kernel message on its way to a page is the output of a cell run for the page:
    its type one of CELL_OUTPUTS, in answer to an execute_request. Voilà sends each cell's
    outputs to the page as the cell's result (CellRunner); the same outputs come out of the
    kernel on its iopub channel, which the page's kernel socket would carry a second time for
    the page to decode and drop (a chart's figure, many kilobytes, twice). The page itself asks
    its kernel to run nothing: its widgets talk to it in comm messages, which pass."""
    kind, found = message_parts(message, CELL_OUTPUTS, ("parent_header",))
    return bool(kind) and found["parent_header"].get("msg_type") == "execute_request"


def states_answer(content: dict) -> bool:
    """Whether a comm message's content is the kernel's answer to a page's widget manager asking
    for every widget's state (method update_states)."""
    data = content.get("data")
    return isinstance(data, dict) and data.get("method") == "update_states"


class CountedKernelSocket(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, telling the page guard when a page connects and goes (Jupyter's
    own check, through PageAuthorizer, lets only the kernel's own viewer in)."""

    async def open(self, kernel_id: str) -> None:
        await super().open(kernel_id)
        pages: Pages | None = self.settings.get("henkit_pages")
        if pages is not None:
            pages.connected(kernel_id)

    def on_close(self) -> None:
        super().on_close()
        pages: Pages | None = self.settings.get("henkit_pages")
        if pages is not None and getattr(self, "kernel_id", None):
            pages.disconnected(self.kernel_id)


class GuardedShutdown(VoilaShutdownKernelHandler):
    """Voilà's route a page calls to shut its kernel down as its tab closes, for that page's
    viewer only (Voilà's own asks only that the viewer has a cookie, which anyone can get)."""

    async def post(self, kernel_id: str) -> None:
        if not allowed_here(self):
            raise HTTPError(403)
        await super().post(kernel_id)


class KernelSocket(CountedKernelSocket):
    """Voilà's kernel websocket for a page, holding the page's early run (EarlyRun) from the
    moment it connects until the widget states have gone out to it, or the kernel has refused
    to send them (it closes the comm they were asked on); it does not carry the outputs of the
    cells run for the page, which the page gets as their cells' results (cell_output)."""

    _held: EarlyRun | None = None
    _asked_on = ""  # the comm the page asked for the states on

    async def pre_get(self) -> None:
        await super().pre_get()  # the viewer is allowed in
        run = EARLY_RUNS.get(self.kernel_id)
        if run is not None and not run.finished:
            self._held = run
            await run.hold(HOLD_SECONDS)

    def on_message(self, message: Any) -> None:
        if self._held is not None and not self._asked_on:
            _, content = comm_message(message, ("comm_open",))
            if content.get("target_name") == CONTROL_COMM:
                self._asked_on = str(content.get("comm_id", ""))
        return super().on_message(message)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        if cell_output(message):
            return None  # the page has it as its cell's result (see cell_output)
        if self._held is not None and self._answered(message):
            sent = super().write_message(message, binary)
            self._held.release()  # what the cells make next comes after the states
            self._held = None
            return sent
        return super().write_message(message, binary)

    def _answered(self, message: Any) -> bool:
        kind, content = comm_message(message, ("comm_msg", "comm_close"))
        if kind == "comm_close":
            return bool(self._asked_on) and content.get("comm_id") == self._asked_on
        return kind == "comm_msg" and states_answer(content)

    def on_close(self) -> None:
        if self._held is not None:
            self._held.release()
            self._held = None
        super().on_close()


# --- A lesson: one dashboard with a preheated kernel for every student -----------------------

#: How often the lesson's pool is looked at until it is ready (seconds).
LESSON_POLL_SECONDS = 0.5


def kernels_rss_mb(server_pid: int) -> list[float]:
    """Resident memory (MB) of each kernel process the server with this pid runs (Linux /proc;
    empty elsewhere)."""
    sizes = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
            cmdline = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        if fields.get("PPid", "").strip() == str(server_pid) and b"ipykernel" in cmdline:
            sizes.append(int(fields.get("VmRSS", "0 kB").split()[0]) / 1024)
    return sizes


def lesson_ready(pool: list) -> int:
    """How many of a notebook's preheated kernels (Voilà's pool: tasks that give a kernel and
    the task running the notebook in it) have run the notebook to its end."""
    ready = 0
    for item in pool:
        if started(item):
            render = item.result().get("task")
            ready += render is not None and render.done()
    return ready


RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
RULES_STYLE = """
html { font-size: 18px; } body { font-family: "DejaVu Sans", Arial, sans-serif; color: #111;
max-width: 48rem; margin: 1rem auto; padding: 0 1rem; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0; } th, td { border: 1px solid #555;
padding: 0.2rem 0.45rem; text-align: left; } th { background: #e8e8e8; }
code { font-size: 0.95em; } h2 { border-bottom: 2px solid #333; }
"""


def rules_page(game: str, rules: Path = RULES) -> str:
    """The rules sheet of `game` ("henpen" or "hens") as a page (ValueError for another name)."""
    import html

    import mistune  # nbconvert's markdown renderer, which Voilà already brings

    if game not in ("henpen", "hens"):
        raise ValueError(f"there is a rules sheet for 'henpen' and 'hens', not for {game!r}")
    text = (rules / f"{game}.md").read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), game)
    body = mistune.create_markdown(escape=True, plugins=["table"])(text)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{RULES_STYLE}</style></head>\n"
            f"<body><main>\n{body}</main></body></html>\n")


class NotServed(RequestHandler):
    """A route Jupyter adds that the dashboards have no use for (its login and logout pages,
    which need a password the dashboards do not have, and failed with a 500): 404."""

    def get(self, *args: Any) -> None:
        raise HTTPError(404)

    post = get


class RulesSheet(RequestHandler):
    """A lesson's link to a rules sheet (rules/<game>.md beside the dashboard), as a page."""

    def get(self, game: str) -> None:
        try:
            page = rules_page(game)
        except ValueError as e:
            raise HTTPError(404) from e
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(page)


class HenkitVoila(Voila):
    """Voilà with lighter pages and lessons (see the module doc)."""

    lesson = Unicode(
        "", config=True,
        help="A dashboard (notebook path in the served folder) that keeps class_size preheated "
             "kernels; empty: none.",
    )
    class_size = Int(30, config=True, help="Preheated kernels for the lesson (1 to 200).")
    preload = Bool(True, config=True, help="Name the scripts a page will load in its head "
                                           "(preload.json; False: let each wave find its own).")
    compile_once = Bool(True, config=True, help="Compile the page templates and render each "
                                                "markdown text once for every page (False: "
                                                "afresh for each page, as Voilà does).")
    progressive_cold = Bool(True, config=True, help="Render progressively each page that no "
                                                    "preheated kernel serves (False: only when "
                                                    "the whole notebook has run, as Voilà does).")
    text_first = Bool(True, config=True, help="Send a progressive page whole at once, its "
                                              "kernel still starting (False: once the kernel "
                                              "is up, as Voilà does).")
    hold_later_cells = Bool(True, config=True, help="On a page sent whole, lay out the cells "
                                                    "after the first widget's once it shows "
                                                    "(False: all at once, as Voilà does).")
    compress_ahead = Bool(True, config=True, help="Compress the scripts every page loads as "
                                                  "the server starts (False: on their first "
                                                  "request).")
    whole_html = Bool(True, config=True, help="Send a progressive page's HTML whole once it "
                                              "is rendered (False: piece by piece as Jinja "
                                              "renders it, as Voilà does).")
    run_early = Bool(True, config=True, help="Run a progressive page's cells as soon as its "
                                             "kernel is up (False: when the page asks, once its "
                                             "widget manager has started, as Voilà does).")
    max_kernels = Int(0, config=True, help="Kernels the server runs at most, preheated ones "
                                           "too; 0: what 3/4 of the machine's memory holds.")
    kernels_per_address = Int(6, config=True, help="Pages one client address may hold at once "
                                                   "(a student's tabs); 0: no cap.")
    page_grace = Float(120.0, config=True, help="Seconds a page's kernel is kept with no page "
                                                "connected before it is shut down.")
    authorizer_class = Type(PageAuthorizer, klass=Authorizer, config=True,
                            help="Jupyter Server's authorizer: a kernel answers only its page.")
    certfile = Unicode("", config=True, help="A TLS certificate (PEM file): serve over HTTPS "
                                             "(with keyfile, unless the file holds the key).")
    keyfile = Unicode("", config=True, help="The certificate's private key (PEM file).")
    teacher_secret = Unicode(help="The secret in the teacher link; a new one at each start.")
    plain = Bool(False, config=True, help="Serve as stock Voilà does, with henkit's settings, "
                                          "template, page guard and teacher's page only: none of "
                                          "henkit's changes to Voilà's own workings.")

    def _url(self, ip: str) -> str:
        url = super()._url(ip)  # Voilà's own says http:// whatever it serves
        return "https://" + url.removeprefix("http://") if self.certfile else url

    @default("teacher_secret")
    def _new_teacher_secret(self) -> str:
        return new_secret()

    @property
    def students_url(self) -> str:
        """The address students type (this machine's network address when serving on all)."""
        return students_url(self.ip, self.port, self.base_url, https=bool(self.certfile))

    def listen(self) -> None:
        # The teacher's link, once: the students' address with the secret (dashboards/teacher.py).
        self.log.info(teacher_link_line(self.students_url, self.teacher_secret))
        # `henkit class` on this machine acts on the pool this server serves (serve.sh exports
        # it as HENKIT_CLASS_DB), while it serves.
        record = announce_served_pool(self._served_pool(), self.students_url)
        atexit.register(withdraw_served_pool, record)
        if self.certfile:
            # Voilà listens with Tornado's defaults; HTTPS is the same listen with a TLS context.
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.certfile, self.keyfile or None)
            plain = self.app.listen
            self.app.listen = lambda port, address="", **kw: plain(
                port, address, ssl_options=context, **kw)
        super().listen()

    def init_settings(self) -> dict:
        if self.max_kernels < 0 or self.kernels_per_address < 0 or self.page_grace < 0:
            raise ValueError("max_kernels, kernels_per_address and page_grace are 0 or more")
        self.pages = Pages(self.max_kernels, self.kernels_per_address, self.page_grace)
        self._leave_off_what_cannot_work()
        if self.lesson:
            self._configure_lesson()
        if self.compile_once:
            compile_once()
        scripts, why_not = preload_scripts() if self.preload else ([], "")
        if why_not:
            self.log.warning("Pages preload no scripts: %s", why_not)
        # Read by the template (resources.henkit_preload) when it renders each page.
        resources = self.config.VoilaConfiguration.get("resources")
        resources = resources if isinstance(resources, dict) else {}
        self.config.VoilaConfiguration.resources = {
            **resources, "henkit_preload": scripts, "henkit_text_first": self.text_first,
            "henkit_hold_later_cells": self.hold_later_cells}
        # Voilà itself applies tornado_settings only after the application is built.
        settings = {**super().init_settings(), **self.tornado_settings,
                    "henkit_pages": self.pages}
        asyncio.get_event_loop().create_task(self._reap_abandoned())
        if self.lesson:
            asyncio.get_event_loop().create_task(self._announce_lesson(time.monotonic()))
        if self.compress_ahead and settings.get("compress_response"):
            asyncio.get_event_loop().create_task(self._compress_ahead(scripts))
        return settings

    def _leave_off_what_cannot_work(self) -> None:
        """Plain mode: every change to Voilà's workings off. Otherwise each change whose parts
        the installed Voilà lacks is left off, said in one line (a class is never stuck)."""
        if self.plain:
            for setting in PLAIN_OFF:
                setattr(self, setting, False)
            self.log.info("Plain mode: Voilà %s as it is, with henkit's settings, template, "
                          "page guard and teacher's page", voila.__version__)
            return
        for change in NEEDS:
            missing = lacks(change)
            if missing and getattr(self, change, True):
                self.log.warning("Voilà %s lacks %s: henkit's %s is off", voila.__version__,
                                 ", ".join(missing), change)
                if self.has_trait(change):
                    setattr(self, change, False)

    def _served_pool(self) -> str:
        """The class pool the kernels write to (serve.sh sets it; else henkit's default)."""
        from henkit.classpool.stores import default_target

        return default_target()

    async def _reap_abandoned(self) -> None:
        """Shut down, every few seconds, the kernels whose page has gone without saying so."""
        interval = max(1.0, min(15.0, self.page_grace / 4))
        while True:
            await asyncio.sleep(interval)
            self.pages.forget(self.kernel_manager.list_kernel_ids())
            for kernel_id in self.pages.abandoned():
                self.log.info("A page went away without closing (%s): its kernel %s is shut "
                              "down after %.0f s with no page", self.pages.pages[kernel_id].address,
                              kernel_id, self.page_grace)
                self.pages.pages.pop(kernel_id, None)
                try:
                    await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
                except (KeyError, RuntimeError) as error:  # gone already
                    self.log.info("Kernel %s was gone already (%s)", kernel_id, error)

    async def _compress_ahead(self, scripts: list[str]) -> None:
        """Have the scripts every page loads (the preload list) and plotly.js compressed as the
        server starts, by asking this server for them as a browser does: the first viewers get
        the copies made already (GzipStaticFiles), rather than wait for them (about 1 s of CPU
        for them all)."""
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        await asyncio.sleep(0)  # listening from here (listen() starts the loop)
        started, client, done = time.monotonic(), AsyncHTTPClient(), 0
        for script in [*scripts, PLOTLY_JS]:
            try:
                await client.fetch(url_path_join(self.connection_url, script),
                                   headers={"Accept-Encoding": "gzip"}, request_timeout=60,
                                   decompress_response=False)
            except (HTTPClientError, OSError) as error:
                # A server behind a proxy's path (server_url) may not answer its own address:
                # its files are compressed on their first request, as without this.
                self.log.info("Compressing %s ahead failed (%s); no more tried", script, error)
                break
            done += 1
        self.log.info("%d scripts compressed ahead of the first page in %.1f s", done,
                      time.monotonic() - started)

    def _configure_lesson(self) -> None:
        """Give the lesson's notebook class_size preheated kernels (ValueError if it is not a
        notebook of the served folder or the size is not 1 to 200)."""
        if not 1 <= self.class_size <= 200:
            raise ValueError(f"class_size is a whole number from 1 to 200, not {self.class_size}")
        root = Path(self.root_dir)
        if self.notebook_path or not (root / self.lesson).is_file() or self.lesson.startswith(
                ("/", "..")) or not self.lesson.endswith(".ipynb"):
            raise ValueError(f"lesson {self.lesson!r} is not a notebook of the served folder {root}")
        pool = self.voila_configuration.default_pool_size
        self.config.VoilaKernelManager.kernel_pools_config = {
            "default": {"pool_size": pool},
            self.lesson: {"pool_size": self.class_size},
        }
        self.log.info("Lesson %s: %d preheated kernels (the other dashboards %d each)",
                 self.lesson, self.class_size, pool)

    async def _announce_lesson(self, started: float) -> None:
        """Log once when every preheated kernel of the lesson has run its notebook."""
        while True:
            await asyncio.sleep(LESSON_POLL_SECONDS)
            pools = getattr(self.kernel_manager, "_pools", None)  # Voilà 0.5's preheated pools
            if pools is None:
                return
            if lesson_ready(pools.get(self.lesson, [])) >= self.class_size:
                memory = kernels_rss_mb(os.getpid())
                self.log.info(
                    "Lesson %s ready: %d preheated kernels have run it, %.1f s after the start; "
                    "%d kernels use %.0f MB (%.0f MB each on average)",
                    self.lesson, self.class_size, time.monotonic() - started, len(memory),
                    sum(memory), sum(memory) / max(len(memory), 1),
                )
                return

    def init_handlers(self) -> list:
        # Before Voilà's own /voila/render/(.*), which would take the sheet for a notebook.
        handlers: list = [(url_path_join(self.server_url, r"/voila/render/rules/([a-z]+)\.md"),
                           RulesSheet),
                          (url_path_join(self.server_url, r"/(login|logout)"), NotServed),
                          *teacher_handlers(self.server_url, self._served_pool(),
                                            self.teacher_secret, self.students_url)]
        if self.progressive_cold and not self.voila_configuration.progressive_rendering:
            # The websocket a progressive page asks to run its cells, which Voilà adds only when
            # progressive rendering is its setting for every page (first: before a catch-all).
            handlers.append((url_path_join(self.server_url, rf"/voila/execution/{_kernel_id_regex}"),
                             CellRunner))
        for route in super().init_handlers():
            if not isinstance(route, tuple):
                handlers.append(route)
                continue
            pattern, handler, *kwargs = route
            if handler is TornadoVoilaHandler and self.progressive_cold:
                # Voilà's own progressive setting (preheating off) already covers every page.
                progressive = (None if self.voila_configuration.progressive_rendering
                               else progressive_copy(self.voila_configuration))
                handler = ColdPagesProgressive
                kwargs = [{**kwargs[0], "progressive_configuration": progressive,
                           "run_early": self.run_early, "whole_html": self.whole_html}]
            elif handler is TornadoVoilaHandler:
                handler = GuardedPages
            elif handler is ExecutionRequestHandler:
                handler = CellRunner
            elif handler is VoilaKernelWebsocketHandler:
                handler = KernelSocket if self.run_early else CountedKernelSocket
            elif handler is VoilaShutdownKernelHandler:
                handler = GuardedShutdown
            if isinstance(handler, type) and issubclass(handler, StaticFileHandler):
                handler = type(handler.__name__, (GzipStaticFiles, handler), {})
            if kwargs and pattern.endswith("/voila/labextensions/(.*)"):
                # Jupyter's own rule: versioned addresses (?v=) cached for good, others revalidated.
                kwargs = [{**kwargs[0], "no_cache_paths": []}]
            handlers.append((pattern, handler, *kwargs))
        return handlers


def main() -> None:
    """Install the guard (not in plain mode), then run Voilà with this process's command line."""
    if not plain_asked(sys.argv[1:]):
        lacking = install()
        if lacking:
            print(f"voila_server: Voilà {voila.__version__} lacks {', '.join(lacking)}: "
                  "henkit's guard for it is off", file=sys.stderr)
    sys.exit(HenkitVoila.launch_instance())


if __name__ == "__main__":
    main()
