"""The teacher's page: the class pool's controls, behind a teacher link with a secret.

A class network is not a trusted network: any student can open any address the server answers.
So the controls that change or read out the class pool (a new class session, the records as CSV)
are not dashboards but these Tornado handlers, which answer only the teacher's browser:

- The server makes a secret as it starts (`new_secret`) and prints the teacher link in its log
  (`teacher_link_line`), as Jupyter prints its token: http://HOST:PORT/teacher?key=SECRET.
- Following the link sets a cookie (http-only, SameSite=Strict, scoped to /teacher) holding an
  HMAC of the secret, not the secret, and redirects to /teacher, so the secret leaves the address
  bar (a 303; from a link clicked on another site, a page that moves on by itself, since the
  browser would send no Strict cookie along that redirect); the logged request shows
  `key=[hidden]`. Every teacher route without that cookie, or with a wrong key, answers 403
  with a plain page. Secrets are compared with hmac.compare_digest. A new secret at each start
  ends the old links and cookies.
- Changes are POSTs carrying Tornado's `_xsrf` form field, checked here even where the
  application does not check it itself; pages may not be framed (a click on "Start a new class
  session" cannot be stolen through an invisible frame).

Routes, under the server's base URL (`teacher_handlers`):

    /teacher                the page: which pool, its current session and counts, the buttons
    /teacher?key=SECRET     the link: sets the cookie, redirects to /teacher
    /teacher/session        POST: start a new class session
    /teacher/records.csv    the records as CSV (?session=ID: one session's)
    /teacher/address        the students' address in very large type, with its QR code (SVG)

The pool is named in words ("SQLite file <path>", "PostgreSQL database <host>/<db>"), never
with a password, and every error shown goes through `hide_passwords`. Store calls run in a
thread, so a slow or unreachable PostgreSQL never holds up the students' pages.

For the server: `teacher_handlers(...)` (add them before Voilà's own), `teacher_link_line(...)`
(print it once listening), `students_url(...)`, and `announce_served_pool` /
`withdraw_served_pool` (re-exported from henkit.classpool.cli: the record that lets
`henkit class` act on the served pool).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import html
import io
import re
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from http.client import responses
from typing import Any, TypeVar
from urllib.parse import quote

from tornado.ioloop import IOLoop
from tornado.web import HTTPError, RequestHandler

from henkit.classpool import StoreError, open_store
from henkit.classpool.base import ClassStore, StoreStatus, Summary
from henkit.classpool.cli import (
    announce_served_pool,
    hide_passwords,
    pool_words,
    withdraw_served_pool,
)
from henkit.classpool.records import check_session

__all__ = ["BOARD", "COOKIE", "announce_served_pool", "new_secret", "students_url",
           "teacher_handlers", "teacher_link", "teacher_link_line", "withdraw_served_pool"]

COOKIE = "henkit_teacher"
"""The teacher's cookie: an HMAC of the server's secret (never the secret itself)."""
BOARD = "voila/render/08_class_board.ipynb"
"""The class board dashboard, under the server's base URL."""
SECRET = re.compile(r"[A-Za-z0-9_-]{32,}")
"""A teacher secret: URL-safe characters, at least 32 of them (`new_secret` makes 43)."""
REFRESH_SECONDS = 30
"""How often the teacher's page reloads itself (a meta refresh: no JavaScript)."""
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # No script, no outside asset, no framing; forms post only to this server.
    "Content-Security-Policy": ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' "
                                "data:; form-action 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'"),
}
STYLE = """
html { font-size: 26px; } body { font-family: "DejaVu Sans", Arial, sans-serif; color: #111;
background: #fff; margin: 0.8rem 1.6rem; line-height: 1.35; }
h1 { font-size: 1.9rem; margin: 0.2em 0 0.4em; } h2 { font-size: 1.25rem; margin: 1em 0 0.3em; }
p { margin: 0.4em 0; } .pool { font-size: 0.85rem; color: #333; }
.big { font-size: 1.5rem; font-weight: bold; }
.note { padding: 0.4em 0.7em; border-left: 0.3em solid #1f6f2a; background: #eef7ee; }
.error { padding: 0.4em 0.7em; border-left: 0.3em solid #a11; background: #fbeaea; }
.actions { display: flex; flex-wrap: wrap; gap: 0.6rem; margin: 1rem 0; }
.actions form { margin: 0; }
button, .button { font: inherit; font-size: 1.05rem; padding: 0.45em 0.9em; border: 0.12em solid
#0b3d91; border-radius: 0.35em; background: #0b3d91; color: #fff; text-decoration: none;
display: inline-block; cursor: pointer; }
.button.plain { background: #fff; color: #0b3d91; }
button:focus-visible, a:focus-visible { outline: 0.15em solid #e08a00; outline-offset: 0.12em; }
a { color: #0b3d91; }
table { border-collapse: collapse; font-size: 0.8rem; } th, td { border: 1px solid #777;
padding: 0.15em 0.5em; text-align: left; } th { background: #e8e8e8; }
.address { font-weight: bold; text-align: center; overflow-wrap: anywhere; margin: 0.1em 0;
line-height: 1.15; }
.qr svg { display: block; height: min(70vh, 92vw); width: auto; margin: 0.2em auto; }
.back { font-size: 0.8rem; text-align: center; }
"""

T = TypeVar("T")


def new_secret() -> str:
    """A fresh teacher secret (256 random bits, URL-safe): make one each time the server starts."""
    return secrets.token_urlsafe(32)


def _check_secret(secret: object) -> str:
    if not isinstance(secret, str) or not SECRET.fullmatch(secret):
        raise ValueError("the teacher secret is at least 32 URL-safe characters (letters, digits, "
                         "- and _), as new_secret() makes it; not that")  # never echo a secret
    return secret


def _check_url(url: object, what: str) -> str:
    if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
        raise ValueError(f"{what} is an http:// or https:// address with no query, e.g. "
                         f"http://192.168.1.20:8866/, not {hide_passwords(repr(url))}"[:300])
    return url if url.endswith("/") else url + "/"


def teacher_link(server_url: str, secret: str) -> str:
    """The teacher link: the server's address (with its base URL) + teacher?key=SECRET."""
    return f"{_check_url(server_url, 'server_url')}teacher?key={_check_secret(secret)}"


def teacher_link_line(server_url: str, secret: str) -> str:
    """The line the server prints as it starts, holding the teacher link."""
    return ("The teacher's page (keep this link to yourself; a new one at each start): "
            + teacher_link(server_url, secret))


def students_url(host: str, port: int, base_url: str = "/", *, https: bool = False) -> str:
    """The address students type: http://HOST:PORT/BASE; for a server listening on every
    interface (0.0.0.0, ::, or empty), this machine's address on its outward network."""
    if not isinstance(host, str) or not re.fullmatch(r"[A-Za-z0-9.:\[\]%_-]*", host):
        raise ValueError(f"host is a host name or IP address, not {host!r}"[:300])
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise ValueError(f"port is a whole number from 1 to 65535, not {port!r}"[:300])
    base = _check_base_url(base_url)
    if host.strip("[]") in ("", "0.0.0.0", "::"):
        host = _outward_address()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    scheme = "https" if https else "http"
    default = 443 if https else 80
    return f"{scheme}://{host}{'' if port == default else f':{port}'}{base}"


def _outward_address() -> str:
    """This machine's IPv4 address on the network its default route leaves by (a UDP socket
    "connected" sends nothing), else its host name."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        if not address.startswith("0."):
            return address
    except OSError:
        pass
    return socket.gethostname()


def _check_base_url(base_url: object) -> str:
    if not isinstance(base_url, str) or not re.fullmatch(r"/([A-Za-z0-9._~-]+/)*", base_url):
        raise ValueError(f"base_url is the server's path prefix, starting and ending with /, "
                         f"e.g. / or /henkit/, not {base_url!r}"[:300])
    return base_url


@dataclass(frozen=True)
class Teacher:
    """What the teacher's handlers share: where they are, the pool, the secret, the students'
    address and the board's."""

    base_url: str
    pool: str
    secret: str
    student_url: str
    board: str = BOARD

    @property
    def path(self) -> str:
        """The teacher page's path (also the cookie's: it goes to the teacher's routes only)."""
        return f"{self.base_url}teacher"

    @property
    def cookie_value(self) -> str:
        """The cookie's value: an HMAC of the secret, so the cookie never holds the secret."""
        return hmac.new(self.secret.encode(), b"henkit teacher cookie",
                        hashlib.sha256).hexdigest()

    @property
    def words(self) -> str:
        """The pool in words, without a password."""
        return pool_words(self.pool)

    def hide(self, text: str) -> str:
        """`text` without the pool's password (or any other URL's)."""
        return hide_passwords(text, self.pool)


def teacher_handlers(base_url: str, pool: str, secret: str, student_url: str, *,
                     board: str = BOARD) -> list[tuple]:
    """The teacher's Tornado routes under `base_url` (e.g. "/"), acting on the class pool `pool`
    (a file path or a postgresql:// URL: the one the server serves), unlocked by `secret`
    (`new_secret`), showing students `student_url` and linking to the board at base_url+board."""
    base_url = _check_base_url(base_url)
    if not isinstance(pool, str) or not pool.strip():
        raise ValueError(f"pool is the served class pool, a file path or a postgresql:// URL, not "
                         f"{pool!r}"[:300])
    try:  # a pool open_store refuses: a ValueError now, not at each request
        open_store(pool).close()
    except ValueError as e:
        raise ValueError(hide_passwords(str(e), pool)) from None
    if not isinstance(board, str) or not re.fullmatch(r"[A-Za-z0-9._~/-]+", board) or \
            board.startswith("/") or ".." in board:
        raise ValueError(f"board is the class board's path under base_url, e.g. {BOARD}, not "
                         f"{board!r}"[:300])
    teacher = Teacher(base_url, pool.strip(), _check_secret(secret),
                      _check_url(student_url, "student_url"), board)
    path = re.escape(teacher.path)
    kwargs = {"teacher": teacher}
    return [
        (path, TeacherPage, kwargs),
        (path + "/session", NewSession, kwargs),
        (path + r"/records\.csv", Records, kwargs),
        (path + "/address", Address, kwargs),
    ]


def page(title: str, body: str, *, refresh: str | None = None,
         after: int = REFRESH_SECONDS) -> str:
    """A whole HTML page: its title (text) and body (HTML), with the teacher's style; with
    `refresh` (a path), the page loads that path `after` seconds."""
    again = (f'<meta http-equiv="refresh" content="{after}; url={html.escape(refresh)}">'
             if refresh else "")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="robots" content="noindex">{again}'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n"
            f"<body><main>\n{body}\n</main></body></html>\n")


def qr_svg(text: str) -> str:
    """A QR code of `text` as an inline SVG element (black modules on white, with the quiet
    zone scanners need)."""
    import qrcode
    import qrcode.image.svg

    if not isinstance(text, str) or not text:
        raise ValueError(f"a QR code holds some text, not {text!r}"[:300])
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    svg = image.to_string(encoding="unicode")
    # The size comes from the page's style (as large as the projector allows), not millimetres.
    svg = re.sub(r'^<svg width="[^"]*" height="[^"]*"',
                 f'<svg role="img" aria-label="QR code of {html.escape(text)}"', svg, count=1)
    return svg


class TeacherHandler(RequestHandler):
    """What every teacher route shares: the cookie check (403 without it), the _xsrf check of
    every POST, headers that keep the pages out of caches, referrers and frames, plain error
    pages, and store calls in a thread."""

    teacher: Teacher

    def initialize(self, teacher: Teacher) -> None:
        """Keep the shared settings (Tornado calls this for each request)."""
        self.teacher = teacher

    def set_default_headers(self) -> None:
        """No caching, no referrer, no framing, no script."""
        for name, value in HEADERS.items():
            self.set_header(name, value)

    def is_teacher(self) -> bool:
        """Whether the request carries the teacher's cookie."""
        cookie = self.get_cookie(COOKIE)
        return cookie is not None and hmac.compare_digest(
            cookie.encode(), self.teacher.cookie_value.encode())

    def prepare(self) -> None:
        """403 without the teacher's cookie; a POST also needs a good _xsrf field."""
        if not self.is_teacher():
            raise HTTPError(403, "no teacher cookie")
        if self.request.method not in ("GET", "HEAD", "OPTIONS"):
            # Tornado checks it only where the application sets xsrf_cookies: here always.
            self.check_xsrf_cookie()

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A plain page saying what went wrong, never a traceback."""
        self.clear_header("Content-Disposition")
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        if status_code == 403:
            title = "Not for you"
            text = ("This page is the teacher's. Open the teacher link the server printed when "
                    "it started (it holds the key), in the browser you teach from.")
        else:
            error = kwargs.get("exc_info", (None, None, None))[1]
            reason = getattr(error, "reason", None) or responses.get(status_code, "Error")
            title, text = f"{status_code} {reason}", reason
        self.finish(page(title, f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>"))

    async def with_store(self, work: Callable[[ClassStore], T]) -> T:
        """`work(store)` on the served pool, in a thread (the event loop serves every page)."""

        def run() -> T:
            store = open_store(self.teacher.pool)
            try:
                return work(store)
            finally:
                store.close()

        return await IOLoop.current().run_in_executor(None, run)

    def store_failed(self, e: StoreError) -> None:
        """Answer 503 with the store's error (no password) and a way back."""
        self.set_status(503)
        message = self.teacher.hide(" ".join(str(e).split()))
        self.finish(page("The class pool cannot be used", (
            f"<h1>The class pool cannot be used</h1><p class=\"error\">{html.escape(message)}</p>"
            f'<p><a class="button" href="{html.escape(self.teacher.path)}">Back to the '
            "teacher's page</a></p>")))


class TeacherPage(TeacherHandler):
    """/teacher: the pool's state and the controls; /teacher?key=SECRET: the link that unlocks
    them."""

    def prepare(self) -> None:
        """The link: a good key sets the cookie and redirects to /teacher; a wrong key is 403."""
        key = self.get_query_argument("key", None)
        if key is None:
            super().prepare()
            return
        # The access log shows the request as it is now: not the key.
        self.request.uri = f"{self.request.path}?key=[hidden]"
        if not hmac.compare_digest(key.encode(), self.teacher.secret.encode()):
            raise HTTPError(403, "wrong teacher key")
        self.set_cookie(COOKIE, self.teacher.cookie_value, path=self.teacher.path,
                        httponly=True, samesite="Strict",
                        secure=self.request.protocol == "https")
        if self.request.headers.get("Sec-Fetch-Site", "none") in ("none", "same-origin"):
            self.redirect(self.teacher.path, status=303)
            return
        # The link was followed from another site (a webmail, a chat page): a browser sends no
        # SameSite=Strict cookie along a redirect that such a click started, so /teacher would
        # answer 403. A page of this site moving on to /teacher is a same-site navigation.
        to = html.escape(self.teacher.path)
        self.finish(page("Teacher's page", (
            f'<p><a class="button" href="{to}">Open the teacher\'s page</a></p>'),
            refresh=self.teacher.path, after=0))

    async def get(self) -> None:
        """The teacher's page."""
        started = self.get_query_argument("started", None)

        def read(store: ClassStore) -> tuple[StoreStatus, Summary]:
            status = store.status()
            return status, store.summary(status.current)

        try:
            status, summary = await self.with_store(read)
        except StoreError as e:
            self.store_failed(e)
            return
        t = self.teacher
        current = next(s for s in status.sessions if s.id == status.current)
        note = ""
        if started is not None:
            try:
                note = (f'<p class="note">New class session {html.escape(check_session(started))}'
                        " started: the students' rolls, turns and draws go to it from now on.</p>")
            except ValueError:
                note = ""
        rows = "".join(
            f"<tr><td>{'current' if s.id == status.current else ''}</td>"
            f"<td>{html.escape(s.id)}</td><td>{s.started:%Y-%m-%d %H:%M} UTC</td>"
            f"<td>{s.records:,}</td></tr>"
            for s in reversed(status.sessions[-6:]))
        earlier = len(status.sessions) - 6
        more = f"<p class=\"pool\">and {earlier} earlier sessions</p>" if earlier > 0 else ""
        body = f"""<h1>Teacher's page</h1>
<p class="pool">Class pool: {html.escape(t.words)}</p>
{note}
<h2>This class session</h2>
<p class="big">{summary.pages:,} student page{'' if summary.pages == 1 else 's'},
{summary.records:,} record{'' if summary.records == 1 else 's'}</p>
<p>{summary.rolls:,} rolls, {summary.turns:,} turns, {summary.draws:,} card draws,
{summary.barnyards:,} barnyards. Session {html.escape(current.id)}, started
{current.started:%H:%M} UTC on {current.started:%Y-%m-%d}.</p>
<div class="actions">
<form method="post" action="{html.escape(t.path)}/session">{self.xsrf_form_html()}
<button type="submit">Start a new class session</button></form>
<a class="button" href="{html.escape(t.path)}/address">Show the students' address</a>
<a class="button plain" href="{html.escape(t.base_url + t.board)}" target="_blank"
 rel="noopener">Open the class board</a>
<a class="button plain" href="{html.escape(t.path)}/records.csv" download>Download the records
(CSV)</a>
<a class="button plain" href="{html.escape(t.path)}/records.csv?session={quote(current.id)}"
 download>This session's records (CSV)</a>
</div>
<h2>Sessions</h2>
<table><tr><th></th><th>session</th><th>started</th><th>records</th></tr>{rows}</table>{more}
<p class="pool">This page reloads every {REFRESH_SECONDS} s. Students open
{html.escape(t.student_url)}.</p>"""
        self.finish(page("Teacher's page", body, refresh=t.path))


class NewSession(TeacherHandler):
    """POST /teacher/session: start a new class session, then back to the page."""

    async def post(self) -> None:
        """Start the session (the current one from now on) and show it on the page."""
        try:
            session = await self.with_store(lambda s: s.new_session())
        except StoreError as e:
            self.store_failed(e)
            return
        self.redirect(f"{self.teacher.path}?started={quote(session)}", status=303)


class Records(TeacherHandler):
    """GET /teacher/records.csv: every record as CSV (?session=ID: that session's)."""

    async def get(self) -> None:
        """The CSV file, as `henkit class export --csv` writes it."""
        session = self.get_query_argument("session", None)
        if session is not None:
            try:
                check_session(session)
            except ValueError as e:
                raise HTTPError(400, "not a class session id", reason="Bad session id") from e

        gzipped = "gzip" in self.request.headers.get("Accept-Encoding", "")

        def export(store: ClassStore) -> bytes | None:
            if session is not None and session not in {s.id for s in store.status().sessions}:
                return None
            text = io.StringIO()
            store.export_csv(text, session)
            data = text.getvalue().encode()
            # Compressed here, in the worker thread, rather than by Tornado's compress_response
            # in the event loop that serves every student's page.
            return gzip.compress(data, 6) if gzipped else data

        try:
            csv = await self.with_store(export)
        except StoreError as e:
            self.store_failed(e)
            return
        if csv is None:
            raise HTTPError(404, "no such session", reason="No such class session")
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
        name = f"henkit-class-{session or 'all'}-{stamp}.csv"
        self.set_header("Content-Type", "text/csv; charset=UTF-8")
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.set_header("Vary", "Accept-Encoding")
        if gzipped:
            self.set_header("Content-Encoding", "gzip")
        self.finish(csv)


class Address(TeacherHandler):
    """GET /teacher/address: the students' address, very large, and its QR code."""

    def get(self) -> None:
        """The page for the projector."""
        t = self.teacher
        # As large as one line across the screen allows (bold digits and dots average under 0.6 em).
        size = f"min({150 / len(t.student_url):.2f}vw, 15vh)"
        body = (f'<p class="address" style="font-size: {size}">{html.escape(t.student_url)}</p>'
                f'<div class="qr">{qr_svg(t.student_url)}</div>'
                f'<p class="back"><a href="{html.escape(t.path)}">Back to the teacher\'s page'
                "</a></p>")
        self.finish(page("The students' address", body))
