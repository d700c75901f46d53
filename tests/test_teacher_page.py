"""The teacher's page (dashboards/teacher.py) on a real Tornado server on 127.0.0.1, driven with
plain HTTP requests, each cookie sent by hand: what a student's browser (no cookie, a guessed
key, a copied or old cookie, a forged form) gets, and what the teacher's gets.
"""

from __future__ import annotations

import asyncio
import gzip
import html
import http.client
import importlib.util
import io
import logging
import re
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
import qrcode
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port
from tornado.web import Application, RequestHandler

from henkit.classpool import RollRecord, new_page_id, open_store, read_csv
from henkit.classpool.server import PostgresServer, postgres_bindir, throwaway_postgres

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "pw-Kq7s3cr3t"
STUDENTS = "http://192.0.2.7:8866/"


def load_teacher():
    """dashboards/teacher.py as a module (dashboards/ is not a package)."""
    spec = importlib.util.spec_from_file_location("henkit_teacher", ROOT / "dashboards" /
                                                  "teacher.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


teacher = load_teacher()
SECRET = teacher.new_secret()


@dataclass
class Reply:
    """One HTTP answer."""

    status: int
    headers: http.client.HTTPMessage
    raw: bytes

    @property
    def body(self) -> str:
        """The body as text."""
        return self.raw.decode()

    def cookies(self) -> dict[str, str]:
        """The cookies it sets: name -> the whole Set-Cookie line."""
        return {line.split("=", 1)[0]: line for line in self.headers.get_all("Set-Cookie") or []}

    def everything(self) -> str:
        """Status, headers and body as one text (to look for what must not be there)."""
        return f"{self.status}\n{self.headers}\n{self.raw.decode(errors='replace')}"


@dataclass
class Server:
    """A running server: where, and a way to ask it."""

    base: str
    port: int

    def ask(self, method: str, path: str, *, cookies: dict[str, str] | None = None,
            form: dict[str, str] | None = None, headers: dict[str, str] | None = None) -> Reply:
        """One request, with exactly these cookies (no redirect followed)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(headers or {})
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            return Reply(r.status, r.headers, r.read())
        finally:
            conn.close()


@contextmanager
def serving(handlers: list, **settings) -> Iterator[Server]:
    """Serve `handlers` on a free port of 127.0.0.1 in a thread, until the block ends."""
    ready, box = threading.Event(), {}

    async def serve() -> None:
        sock, port = bind_unused_port()
        server = HTTPServer(Application(handlers, **settings))
        server.add_sockets([sock])
        box.update(port=port, stop=asyncio.Event(), loop=asyncio.get_running_loop())
        ready.set()
        await box["stop"].wait()
        server.stop()
        await server.close_all_connections()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(30), "the test server did not start"
    try:
        yield Server(f"http://127.0.0.1:{box['port']}", box["port"])
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(30)


def fill(pool: str) -> None:
    """Three rolls from two students' pages in the pool's current session."""
    a, b = new_page_id(), new_page_id()
    roll = RollRecord(3, (1, 1, 1, 0, 0, 0), frozenset(), False)
    with open_store(pool) as store:
        store.add_many([roll.stamped(page=a, seq=0), roll.stamped(page=a, seq=1),
                        roll.stamped(page=b, seq=0)])


@pytest.fixture
def pool(tmp_path: Path) -> str:
    """A served SQLite pool with a session and three records."""
    path = str(tmp_path / "class.sqlite3")
    fill(path)
    return path


@pytest.fixture(params=[False, True], ids=["xsrf-unset", "xsrf-cookies"])
def server(request: pytest.FixtureRequest, pool: str) -> Iterator[Server]:
    """The teacher's routes alone in an application, with tornado's xsrf_cookies setting off (as
    in Voilà's application) or on."""
    with serving(teacher.teacher_handlers("/", pool, SECRET, STUDENTS),
                 xsrf_cookies=request.param) as s:
        yield s


def words(body: str) -> str:
    """A page's text as a reader sees it: no tags, entities read, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def log_in(server: Server) -> dict[str, str]:
    """Follow the teacher link; the cookies the teacher's browser then holds."""
    r = server.ask("GET", f"/teacher?key={SECRET}")
    assert r.status == 303
    name, value = r.cookies()[teacher.COOKIE].split(";")[0].split("=", 1)
    return {name: value}


def form_token(server: Server, cookies: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The page's _xsrf form field, and the cookies with the _xsrf cookie it set."""
    r = server.ask("GET", "/teacher", cookies=cookies)
    assert r.status == 200
    field = html.unescape(re.search(r'name="_xsrf" value="([^"]+)"', r.body).group(1))
    xsrf = r.cookies()["_xsrf"].split(";")[0].split("=", 1)[1]
    return field, {**cookies, "_xsrf": xsrf}


def sessions(pool: str) -> list[str]:
    """The pool's session ids, oldest first."""
    with open_store(pool) as store:
        return [s.id for s in store.status().sessions]


# ----- who gets in ---------------------------------------------------------------------------------

ROUTES = [("GET", "/teacher"), ("GET", "/teacher/address"), ("GET", "/teacher/records.csv"),
          ("GET", "/teacher/records.csv?session=20250114-093000-3fa2c1"),
          ("POST", "/teacher/session")]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_every_route_is_403_without_the_teacher_cookie(server: Server, pool: str, method: str,
                                                       path: str) -> None:
    """A student's browser: no cookie, the secret itself as the cookie, or the cookie of an
    earlier start of the server (another secret): 403, a plain page, and nothing done."""
    before = sessions(pool)
    old = teacher.Teacher("/", pool, teacher.new_secret(), STUDENTS).cookie_value
    for cookies in (None, {teacher.COOKIE: SECRET}, {teacher.COOKIE: old},
                    {teacher.COOKIE: ""}, {"henkit_teacher2": old}):
        r = server.ask(method, path, cookies=cookies, form={} if method == "POST" else None)
        assert r.status == 403, (cookies, r.body)
        assert "This page is the teacher's" in html.unescape(r.body) and "<script" not in r.body
        assert "kind,session" not in r.body and "<svg" not in r.body and STUDENTS not in r.body
        assert r.headers["Content-Type"].startswith("text/html")
        assert SECRET not in r.everything() and not r.cookies()
    assert sessions(pool) == before


@pytest.mark.parametrize("key", ["wrong", SECRET[:-1], SECRET + "x", SECRET.upper(), "",
                                 "é" * 43, "<script>alert(1)</script>"])
def test_a_wrong_key_is_403_and_sets_no_cookie(server: Server, key: str) -> None:
    """Guessing the key: 403, no cookie, the guess not echoed; even a teacher's cookie does not
    make a wrong key good."""
    r = server.ask("GET", "/teacher?" + urlencode({"key": key}))
    assert r.status == 403 and not r.cookies() and "<script>alert" not in r.body
    r = server.ask("GET", "/teacher?" + urlencode({"key": key}), cookies=log_in(server))
    assert r.status == 403 and not r.cookies()


def test_the_link_sets_a_strict_http_only_cookie_and_leaves_the_address_bar(
        server: Server, caplog: pytest.LogCaptureFixture) -> None:
    """The teacher link: 303 to /teacher (no key in the address), a cookie that is not the
    secret, http-only, SameSite=Strict, for the teacher's routes only; the access log does not
    hold the key. Then the page opens, and the cookie opens every route."""
    caplog.set_level(logging.INFO, logger="tornado.access")
    r = server.ask("GET", f"/teacher?key={SECRET}")
    assert r.status == 303 and r.headers["Location"] == "/teacher"
    line = r.cookies()[teacher.COOKIE]
    flags = {part.strip().lower() for part in line.split(";")[1:]}
    assert {"httponly", "samesite=strict", "path=/teacher"} <= flags
    assert SECRET not in r.everything()
    cookies = log_in(server)
    for method, path in ROUTES[:4]:
        got = server.ask(method, path, cookies=cookies)
        assert got.status in (200, 404), (path, got.status)  # 404: no such session (the last)
    assert "key=[hidden]" in caplog.text and SECRET not in caplog.text


@pytest.mark.parametrize("came_from", ["cross-site", "same-site"])
def test_a_link_followed_from_another_site_moves_on_within_this_one(server: Server,
                                                                   came_from: str) -> None:
    """A click on the link in a webmail: browsers send no SameSite=Strict cookie along the
    redirect such a click starts (Chromium answered 403 then), so the answer is a page of this
    site that sets the cookie and moves on to /teacher itself (a same-site navigation)."""
    r = server.ask("GET", f"/teacher?key={SECRET}", headers={"Sec-Fetch-Site": came_from})
    assert r.status == 200 and "samesite=strict" in r.cookies()[teacher.COOKIE].lower()
    assert '<meta http-equiv="refresh" content="0; url=/teacher">' in r.body
    assert 'href="/teacher"' in r.body and SECRET not in r.everything()
    r = server.ask("GET", "/teacher?key=wrong", headers={"Sec-Fetch-Site": came_from})
    assert r.status == 403 and not r.cookies()


def test_the_page_shows_the_pool_the_session_and_the_controls(server: Server, pool: str) -> None:
    """Which pool in words, the current session and its counts, the four controls, no script,
    and headers that keep it out of caches, referrers and frames."""
    r = server.ask("GET", "/teacher", cookies=log_in(server))
    assert r.status == 200
    text = words(r.body)
    assert f"Class pool: SQLite file {pool}" in text
    assert f"Session {sessions(pool)[-1]}" in text
    assert "2 student pages, 3 records" in text and "3 rolls, 0 turns" in text
    for control in ("Start a new class session", "Download the records (CSV)",
                    "Open the class board", "Show the students' address"):
        assert control in text
    assert 'href="/voila/render/08_class_board.ipynb"' in r.body
    assert 'method="post" action="/teacher/session"' in r.body and 'name="_xsrf"' in r.body
    assert "<script" not in r.body and "http-equiv=\"refresh\"" in r.body
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["Cache-Control"] == "no-store"
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    assert "script-src" not in r.headers["Content-Security-Policy"]  # default-src 'none'


# ----- a new class session -------------------------------------------------------------------------


def test_a_new_session_starts_with_the_form(server: Server, pool: str) -> None:
    """The button's POST (with the page's _xsrf): a new session, the current one, shown."""
    before = sessions(pool)
    field, cookies = form_token(server, log_in(server))
    r = server.ask("POST", "/teacher/session", cookies=cookies, form={"_xsrf": field})
    assert r.status == 303
    after = sessions(pool)
    assert after[:-1] == before and len(after) == len(before) + 1
    assert r.headers["Location"] == f"/teacher?started={after[-1]}"
    with open_store(pool) as store:
        assert store.current_session() == after[-1]
    page = server.ask("GET", r.headers["Location"], cookies=cookies)
    assert f"New class session {after[-1]} started" in words(page.body)
    assert "0 student pages, 0 records" in words(page.body)


@pytest.mark.parametrize("forgery", ["no field", "no xsrf cookie", "another token",
                                     "field in the query"])
def test_a_post_without_a_good_xsrf_is_refused(server: Server, pool: str, forgery: str) -> None:
    """A page elsewhere making the teacher's browser post (the browser adds the teacher's cookie,
    had it been Lax): without the page's own _xsrf pair, 403 and no session."""
    before = sessions(pool)
    field, cookies = form_token(server, log_in(server))
    other, _ = form_token(server, log_in(server))
    path, form = "/teacher/session", {"_xsrf": field}
    if forgery == "no field":
        form = {}
    elif forgery == "no xsrf cookie":
        cookies = {k: v for k, v in cookies.items() if k != "_xsrf"}
    elif forgery == "another token":
        form = {"_xsrf": other}
    else:
        path, form = f"/teacher/session?_xsrf=x{field}", {}
    r = server.ask("POST", path, cookies=cookies, form=form)
    assert r.status == 403 and "_xsrf" not in r.body.split("<h1>")[0]
    assert sessions(pool) == before


# ----- the records ---------------------------------------------------------------------------------


def test_the_records_download_as_csv(server: Server, pool: str) -> None:
    """Every record, or one session's, as the CSV `henkit class export --csv` writes; a bad or
    unknown session: 400 or 404."""
    cookies = log_in(server)
    with open_store(pool) as store:
        records = list(store.records())
        current = store.current_session()
    r = server.ask("GET", "/teacher/records.csv", cookies=cookies)
    assert r.status == 200 and r.headers["Content-Type"] == "text/csv; charset=UTF-8"
    assert re.fullmatch(r'attachment; filename="henkit-class-all-\d{8}-\d{4}\.csv"',
                        r.headers["Content-Disposition"])
    assert list(read_csv(io.StringIO(r.body))) == records and len(records) == 3
    fill(pool)  # three more, then a session with none
    with open_store(pool) as store:
        store.new_session()
    r = server.ask("GET", f"/teacher/records.csv?session={current}", cookies=cookies)
    assert r.status == 200 and len(list(read_csv(io.StringIO(r.body)))) == 6
    r = server.ask("GET", f"/teacher/records.csv?session={sessions(pool)[-1]}", cookies=cookies)
    assert r.status == 200 and list(read_csv(io.StringIO(r.body))) == []
    assert server.ask("GET", "/teacher/records.csv?session=monday", cookies=cookies).status == 400
    r = server.ask("GET", "/teacher/records.csv?session=20000101-000000-000000", cookies=cookies)
    assert r.status == 404 and "Content-Disposition" not in r.headers


def test_the_csv_is_compressed_once_and_off_the_event_loop(
        pool: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In an application that gzips its answers (Voilà's, with compress_response): a browser
    asking for gzip gets the CSV gzipped once, by the handler in a worker thread (not by
    Tornado in the event loop), one asking for nothing gets it plain."""
    threads, original = [], gzip.compress

    def compress(data: bytes, level: int = 9) -> bytes:
        threads.append(threading.current_thread().name)
        return original(data, level)

    monkeypatch.setattr(teacher.gzip, "compress", compress)
    with serving(teacher.teacher_handlers("/", pool, SECRET, STUDENTS),
                 compress_response=True) as server:
        cookies = log_in(server)
        with open_store(pool) as store:
            records = list(store.records())
        r = server.ask("GET", "/teacher/records.csv", cookies=cookies,
                       headers={"Accept-Encoding": "gzip"})
        assert r.status == 200 and r.headers["Content-Encoding"] == "gzip"
        assert list(read_csv(io.StringIO(gzip.decompress(r.raw).decode()))) == records
        assert len(threads) == 1 and threads[0].startswith("asyncio_")  # the loop's executor
        r = server.ask("GET", "/teacher/records.csv", cookies=cookies)
        assert "Content-Encoding" not in r.headers
        assert list(read_csv(io.StringIO(r.body))) == records


# ----- the students' address -----------------------------------------------------------------------


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark squares of qrcode's SVG path (each module is "Mx,yH..V..H..z")."""
    d = re.search(r'<path d="([^"]+)"', svg).group(1)
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", d)}


def qr_modules(text: str) -> set[tuple[int, int]]:
    """The dark modules of the QR code of `text` (error correction M, 4 modules of quiet zone)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(text)
    code.make(fit=True)
    return {(x, y) for y, row in enumerate(code.get_matrix()) for x, dark in enumerate(row)
            if dark}


def test_the_address_page_shows_the_url_and_its_qr_code(server: Server) -> None:
    """The students' address in large type, and an inline SVG QR code of exactly that address
    (its modules are those of the address's QR code, not of a neighbour's)."""
    r = server.ask("GET", "/teacher/address", cookies=log_in(server))
    assert r.status == 200
    # Projector-sized: one line as wide as the screen allows, a QR code 70 % of its height.
    assert re.search(rf'<p class="address" style="font-size: min\(\d\.\d\dvw, 15vh\)">'
                     rf"{re.escape(STUDENTS)}</p>", r.body)
    assert "height: min(70vh, 92vw)" in r.body
    svg = re.search(r"<svg.*?</svg>", r.body, re.DOTALL).group(0)
    assert 'role="img"' in svg and "viewBox=" in svg and "mm" not in svg.split(">")[0]
    modules = dark_modules(svg)
    assert modules == qr_modules(STUDENTS)
    assert modules != qr_modules(STUDENTS.replace("7", "8"))
    # The three finder patterns' corners, as every QR code has them.
    size = max(x for x, _ in modules) + 5
    assert {(4, 4), (10, 4), (4, 10), (size - 5, 4), (4, size - 5)} <= modules
    assert "<script" not in r.body and "http" not in r.body.split("<body>")[0].split(
        "<style>")[0].replace('content="width', "")


# ----- no password anywhere --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server (trusting its user: any password in the URL is accepted)."""
    try:
        postgres_bindir()
    except RuntimeError as e:
        pytest.fail(f"the teacher page's tests need a PostgreSQL server: {e}", pytrace=False)
    with throwaway_postgres() as server:
        yield server


def test_a_postgres_pool_is_shown_and_used_without_its_password(postgres: PostgresServer) -> None:
    """The served pool is a postgresql:// URL with a password (in its user info, and once more in
    a password= setting): every answer of every route, errors included, is free of it."""
    import psycopg

    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS teacher_pg")
    url = postgres.url("teacher_pg").replace("postgres@", f"postgres:{PASSWORD}@")
    fill(url)
    replies = []
    with serving(teacher.teacher_handlers("/", url, SECRET, STUDENTS)) as server:
        cookies = log_in(server)
        page = server.ask("GET", "/teacher", cookies=cookies)
        assert (f"Class pool: PostgreSQL database 127.0.0.1:{postgres.port}/postgres, schema "
                "teacher_pg") in words(page.body)
        assert "2 student pages, 3 records" in words(page.body)
        field, with_xsrf = form_token(server, cookies)
        started = server.ask("POST", "/teacher/session", cookies=with_xsrf,
                             form={"_xsrf": field})
        assert started.status == 303
        replies += [page, started, server.ask("GET", started.headers["Location"], cookies=cookies)]
        replies += [server.ask("GET", p, cookies=cookies) for p in (
            "/teacher/records.csv", "/teacher/address", "/teacher/records.csv?session=x",
            "/teacher/records.csv?session=20000101-000000-000000")]
        assert [r.status for r in replies] == [200, 303, 200, 200, 200, 400, 404]
        assert len(list(read_csv(io.StringIO(replies[3].body)))) == 3
    down = f"postgresql://teacher:{PASSWORD}@127.0.0.1:9/class?password={PASSWORD}"
    with serving(teacher.teacher_handlers("/", down, SECRET, STUDENTS)) as server:
        # The same secret: the teacher's cookie and _xsrf pair from above are good here too.
        assert log_in(server) == cookies
        replies += [server.ask("GET", "/teacher", cookies=cookies),
                    server.ask("GET", "/teacher/records.csv", cookies=cookies),
                    server.ask("POST", "/teacher/session", cookies=with_xsrf,
                               form={"_xsrf": field})]
    assert [r.status for r in replies[-3:]] == [503, 503, 503]
    assert "The class pool cannot be used" in replies[-1].body
    assert "postgresql://teacher:***@127.0.0.1:9/class" in replies[-3].body
    for r in replies:
        assert PASSWORD[3:] not in r.everything()


# ----- the server's side ---------------------------------------------------------------------------


def test_the_link_line_and_the_students_address() -> None:
    """What the server prints, and the address it shows students."""
    line = teacher.teacher_link_line("http://192.0.2.7:8866/", SECRET)
    assert line.endswith(f": http://192.0.2.7:8866/teacher?key={SECRET}")
    assert teacher.teacher_link("http://h:1/henkit", SECRET) == f"http://h:1/henkit/teacher?key={SECRET}"
    assert teacher.students_url("127.0.0.1", 8866) == "http://127.0.0.1:8866/"
    assert teacher.students_url("::1", 8866, "/henkit/") == "http://[::1]:8866/henkit/"
    assert teacher.students_url("10.1.2.3", 80) == "http://10.1.2.3/"
    assert "0.0.0.0" not in teacher.students_url("0.0.0.0", 8866)
    assert len({teacher.new_secret() for _ in range(20)}) == 20


@pytest.mark.parametrize(("call", "words"), [
    (lambda: teacher.teacher_handlers("/", "x.sqlite3", "short", STUDENTS), "32 URL-safe"),
    (lambda: teacher.teacher_handlers("/", "x.sqlite3", SECRET + "/", STUDENTS), "32 URL-safe"),
    (lambda: teacher.teacher_handlers("teacher", "x.sqlite3", SECRET, STUDENTS), "base_url"),
    (lambda: teacher.teacher_handlers("/", "x.sqlite3", SECRET, "192.0.2.7:8866"),
     "student_url"),
    (lambda: teacher.teacher_handlers("/", f"mysql://t:{PASSWORD}@db/c", SECRET, STUDENTS),
     r"mysql://t:\*\*\*@db/c"),
    (lambda: teacher.teacher_handlers("/", "x.sqlite3", SECRET, STUDENTS, board="../x"),
     "board"),
    (lambda: teacher.teacher_link_line("http://h:1/", "a" * 31), "32 URL-safe"),
    (lambda: teacher.students_url("0.0.0.0", 0), "port"),
])
def test_bad_settings_are_value_errors_without_secrets(call, words: str) -> None:
    """Bad settings stop the server at start, saying what is allowed; never echoing a secret or
    a password."""
    with pytest.raises(ValueError, match=words) as refused:
        call()
    assert PASSWORD[3:] not in str(refused.value) and SECRET not in str(refused.value)


# ----- in a real browser ---------------------------------------------------------------------------


class OtherSite(RequestHandler):
    """A page of another site (reached as localhost, the teacher's server as 127.0.0.1) holding
    the teacher link, as a webmail would."""

    def get(self) -> None:
        """A page with one link: the teacher link."""
        self.finish(f'<a id="link" href="{html.escape(self.get_query_argument("to"))}">link</a>')


@pytest.mark.browser
def test_in_chromium_the_link_opens_the_page_typed_or_clicked_elsewhere(pool: str) -> None:
    """Debian's Chromium: the link typed in the address bar, or clicked on another site, ends
    on /teacher (no key in the address) with the controls; the button starts a session (the
    browser sends the form's _xsrf); the address page's QR code fills most of the screen."""
    from tests.browser.browsing import CHROMIUM_ARGS

    # Without the resolver rule that leaves only 127.0.0.1: the other site is localhost.
    args = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")]
    handlers = teacher.teacher_handlers("/", pool, SECRET, STUDENTS) + [(r"/other", OtherSite)]
    # In a thread of its own: the browser tests' Playwright may hold this thread's event loop.
    with serving(handlers) as server, ThreadPoolExecutor(1) as thread:
        thread.submit(drive_chromium, server, pool, args).result()


def drive_chromium(server, pool: str, args: list[str]) -> None:
    """The teacher's link typed, then clicked on another site, in Debian's Chromium."""
    from playwright.sync_api import sync_playwright

    from tests.browser.browsing import CHROMIUM

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            typed = browser.new_context(viewport={"width": 1280, "height": 720})
            page = typed.new_page()
            assert page.goto(f"{server.base}/teacher?key={SECRET}").status == 200
            assert page.url == f"{server.base}/teacher"
            before = sessions(pool)
            page.get_by_role("button", name="Start a new class session").click()
            page.wait_for_url(re.compile(r".*/teacher\?started=.*"))
            assert sessions(pool)[:-1] == before and len(sessions(pool)) == len(before) + 1
            assert sessions(pool)[-1] in page.locator(".note").inner_text()
            page.get_by_role("link", name="Show the students' address").click()
            box = page.locator(".qr svg").bounding_box()
            assert box is not None and box["height"] >= 0.6 * 720
            assert page.locator(".address").inner_text() == STUDENTS
            typed.close()

            clicked = browser.new_context()
            page = clicked.new_page()
            link = f"{server.base}/teacher?key={SECRET}"
            page.goto(f"http://localhost:{server.port}/other?to={link}")
            page.click("#link")
            page.get_by_role("button", name="Start a new class session").wait_for()
            assert page.url == f"{server.base}/teacher"
            clicked.close()
        finally:
            browser.close()
