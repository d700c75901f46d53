"""Viewers of a dashboard cannot run code of their own, nor reach the rest of a Jupyter server.

Voilà 0.5 hands its kernel manager an allow-list of message types a browser may send (comm_open,
comm_close, comm_msg, comm_info_request, kernel_info_request, shutdown_request): widgets work,
execute_request is dropped. These tests try it on the websocket a dashboard page uses, in both
websocket protocols, with a control message that must get through (so a silent socket cannot
pass for a refusal)."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

from .browsing import PROBE, open_dashboard_page, page_config, wait_for_widgets

pytestmark = pytest.mark.browser

V1 = "v1.kernel.websocket.jupyter.org"


def message(msg_type: str, content: dict, session: str) -> dict:
    """A kernel protocol message as a browser would send it on the shell channel."""
    return {
        "header": {
            "msg_id": uuid.uuid4().hex,
            "msg_type": msg_type,
            "session": session,
            "username": "viewer",
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": content,
        "buffers": [],
        "channel": "shell",
    }


def encode(msg: dict, protocol: str) -> str | bytes:
    """Put a message on the wire in the legacy JSON protocol or the v1 binary one."""
    if protocol == V1:
        parts = {k: msg[k] for k in ("header", "parent_header", "metadata", "content")}
        return serialize_msg_to_ws_v1(parts, "shell", pack=lambda d: json.dumps(d).encode())
    return json.dumps(msg)


def decode(raw: str | bytes, protocol: str) -> tuple[str, str]:
    """(channel, msg_type) of a message received from the server."""
    if protocol == V1:
        channel, parts = deserialize_msg_from_ws_v1(raw)
        return channel, json.loads(parts[0])["msg_type"]
    msg = json.loads(raw)
    return msg["channel"], msg["header"]["msg_type"]


async def try_to_execute(base: str, kernel_id: str, code: str, protocol: str,
                         cookie: str) -> list[str]:
    """Send execute_request then kernel_info_request as the viewer whose cookies are `cookie`
    (the kernel's own page's: no one else's connection is let in); return every message type
    received until the kernel_info_reply (the shell channel answers in order, so an executed
    request's execute_reply would come first) plus one more second of listening."""
    session = uuid.uuid4().hex
    ws_url = base.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
    request = HTTPRequest(f"{ws_url}?session_id={session}",
                          headers={"Origin": base.rstrip("/"), "Cookie": cookie})
    conn = await websocket_connect(request, subprotocols=[protocol] if protocol == V1 else None)
    try:
        await conn.write_message(
            encode(message("execute_request", {"code": code, "silent": False}, session), protocol),
            binary=protocol == V1,
        )
        await conn.write_message(
            encode(message("kernel_info_request", {}, session), protocol), binary=protocol == V1
        )
        seen: list[str] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        extra_until = None
        while loop.time() < (extra_until or deadline):
            try:
                raw = await asyncio.wait_for(conn.read_message(), 0.5)
            except TimeoutError:
                continue
            if raw is None:
                break
            seen.append(decode(raw, protocol)[1])
            if seen[-1] == "kernel_info_reply" and extra_until is None:
                extra_until = loop.time() + 1
        return seen
    finally:
        conn.close()


@pytest.mark.parametrize("protocol", ["legacy-json", V1])
def test_the_dashboard_kernel_refuses_code_sent_by_a_viewer(page, probe, tmp_path, protocol):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    kernel_id = page_config(page)["kernelId"]
    marker = tmp_path / "viewer-code-ran"
    code = f"open({str(marker)!r}, 'w').write('ran')"

    # Playwright's sync API owns this thread's event loop: talk to the socket from another.
    with ThreadPoolExecutor(1) as pool:
        seen = pool.submit(asyncio.run, try_to_execute(probe.url, kernel_id, code, protocol,
                                                       cookies_of(page)))
        seen = seen.result()

    assert "kernel_info_reply" in seen, f"the websocket answered nothing useful: {seen}"
    assert not {"execute_reply", "execute_input", "execute_result", "error"} & set(seen), seen
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in probe.log()
    # The dashboard itself still works on its own connection after the attempt.
    assert page.locator(".jupyter-widgets").first.is_visible()


def cookies_of(page) -> str:
    """A page's cookies as a Cookie header: what its own requests carry."""
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())


def status(url: str, method: str = "GET") -> int:
    """The HTTP status a request gets (errors included), without following redirects."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    data = b"{}" if method in {"POST", "PUT", "PATCH"} else None
    req = urllib.request.Request(url, method=method, data=data)
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "api/contents"),
        ("GET", "api/contents/{nb}"),
        ("PUT", "api/contents/new.ipynb"),
        ("GET", "api/kernels"),
        ("POST", "api/kernels"),
        ("GET", "api/sessions"),
        ("POST", "api/sessions"),
        ("GET", "api/terminals"),
        ("POST", "api/terminals"),
        ("GET", "terminals/websocket/1"),
        ("GET", "api/kernelspecs"),
        ("GET", "lab"),
        ("GET", "tree"),
        ("GET", "notebooks/{nb}"),
        ("GET", "files/{nb}"),
        ("GET", "voila/files/{nb}"),
        ("GET", "voila/files/../../pyproject.toml"),
        ("GET", "voila/static/../../../../pyproject.toml"),
    ],
)
def test_no_other_jupyter_endpoint_is_served(probe, method, path):
    url = probe.url + path.format(nb=PROBE.name)
    assert status(url, method) in {400, 403, 404, 405}, f"{method} {url}"


def test_the_contents_listing_names_notebooks_but_never_gives_their_source(probe):
    name = PROBE.name
    with urllib.request.urlopen(probe.url + "voila/api/contents/", timeout=10) as r:
        listing = json.load(r)
    assert name in {item["name"] for item in listing["content"]}
    with urllib.request.urlopen(probe.url + f"voila/api/contents/{name}", timeout=10) as r:
        model = json.load(r)
    assert model["type"] == "notebook" and model["content"] is None
    # And no file but the published notebooks is listed (the template, the config stay hidden).
    assert {item["type"] for item in listing["content"]} <= {"notebook"}


# --- The class pool: never readable, deletable or changeable through the server ------------------


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """Voilà serving the probe from <tmp>/site, with its class pool made by serve.sh in
    <tmp>/data (DATA: beside the served folder, one `..` away) holding a few records; yields
    (server, pool path, the records as first read, their page id)."""
    import signal
    import sys

    from henkit.classpool.records import RollRecord, new_page_id
    from henkit.classpool.stores import open_store

    from .browsing import VoilaServer, free_port, probe_site

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    root = tmp_path_factory.mktemp("class-server")
    site = probe_site(root / "site")
    server = VoilaServer(port=free_port(), site=site, data=root / "data").start()
    try:
        pool = root / "data" / "class.sqlite3"
        store = open_store(str(pool))
        page = new_page_id()
        store.add_many(
            RollRecord(8, (2, 1, 1, 1, 1, 2), frozenset(), False, page=page, seq=seq)
            for seq in range(5)
        )
        store.close()
        before = records_now(pool)
        # Copies a careless teacher might leave in the served folder: the config denies them.
        for name in ("class.sqlite3", "class.sqlite3-wal", ".class.sqlite3", "pool.db"):
            (site / name).write_bytes(pool.read_bytes())
        server.wait_for_pools([PROBE.name])
        yield server, pool, before, page
    finally:
        server.stop()


def records_now(pool) -> list:
    """The pool's records, as comparable rows."""
    from henkit.classpool.stores import open_store

    store = open_store(str(pool))
    try:
        return sorted(tuple(sorted(r.to_row().items())) for r in store.records())
    finally:
        store.close()


def fetch(url: str, method: str = "GET") -> tuple[int, bytes]:
    """Status and body of a request sent with its path as written (no `..` resolved)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        body = b"{}" if method in {"POST", "PUT", "PATCH"} else None
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def viewer_get(url: str, cookie: str = "") -> tuple[int, bytes, str]:
    """GET as a client of its own (curl, a script): status, body, and the cookies it holds after
    (those it sent, updated by the server's Set-Cookie)."""
    import http.client
    from http.cookies import SimpleCookie
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                     headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        jar = SimpleCookie(cookie)
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        return (response.status, response.read(),
                "; ".join(f"{k}={m.value}" for k, m in jar.items()))
    finally:
        conn.close()


def kernel_in(html: bytes) -> str:
    """The kernel id a served page names."""
    config = re.search(rb'id="jupyter-config-data"[^>]*>(.*?)</script>', html, re.DOTALL)
    return json.loads(config.group(1))["kernelId"]


def pool_paths(pool) -> list[str]:
    """Addresses a viewer could try for the pool file: relative and absolute traversals through
    every file-serving route, encoded and not, and the copies left in the served folder."""
    up = "../" * 12
    absolute = str(pool).lstrip("/")
    paths = []
    for route in ("voila/files/", "files/", "voila/static/", "static/", "voila/templates/henkit/static/",
                  "voila/labextensions/", "voila/api/contents/", "api/contents/", "voila/render/",
                  "voila/tree/", "voila/", ""):
        paths += [
            f"{route}../data/class.sqlite3",
            f"{route}%2e%2e/data/class.sqlite3",
            f"{route}..%2fdata%2fclass.sqlite3",
            f"{route}{up}{absolute}",
            f"{route}%2e%2e%2f{'%2e%2e%2f' * 11}{absolute.replace('/', '%2f')}",
            f"{route}/{absolute}",
        ]
    for name in ("class.sqlite3", "class.sqlite3-wal", ".class.sqlite3", "pool.db"):
        paths += [f"voila/files/{name}", f"voila/api/contents/{name}", f"voila/render/{name}",
                  f"voila/tree/{name}", f"files/{name}", f"api/contents/{name}"]
    return paths


def test_a_viewer_cannot_read_the_class_pool_through_any_route(class_server):
    server, pool, before, page = class_server
    assert len(before) == 5
    page_id = page.encode()
    leaks = []
    for path in pool_paths(pool):
        status_code, body = fetch(server.url + path)
        if status_code == 200 or b"SQLite format 3" in body or page_id in body:
            leaks.append(f"{status_code} {path}")
    assert leaks == []
    # The landing page and the contents listing name the notebook only.
    for listing in ("", "voila/tree", "voila/api/contents/"):
        status_code, body = fetch(server.url + listing)
        assert status_code == 200 and b"sqlite" not in body.lower() and b"pool.db" not in body


def test_a_viewer_cannot_delete_or_change_class_records_through_the_server(class_server):
    server, pool, before, _ = class_server
    attempts = []
    for path in pool_paths(pool)[::3] + ["api/contents/../data", "voila/api/shutdown/x"]:
        for method in ("DELETE", "PUT", "PATCH", "POST"):
            status_code, _ = fetch(server.url + path, method)
            if status_code not in {400, 403, 404, 405}:
                attempts.append(f"{status_code} {method} {path}")
    assert attempts == []
    assert pool.is_file() and records_now(pool) == before


@pytest.mark.parametrize("protocol", ["legacy-json", V1])
def test_a_dashboard_kernel_refuses_a_viewers_code_against_the_pool(class_server, protocol):
    server, pool, before, _ = class_server
    # The page a viewer gets names its kernel (no browser needed for that).
    status_code, html, cookie = viewer_get(server.dashboard_url(PROBE.name))
    assert status_code == 200
    kernel_id = kernel_in(html)
    code = ("import os, sqlite3; sqlite3.connect(os.environ['HENKIT_CLASS_DB'])"
            ".execute('DELETE FROM henkit_records'); os.remove(os.environ['HENKIT_CLASS_DB'])")
    with ThreadPoolExecutor(1) as pool_thread:
        seen = pool_thread.submit(
            asyncio.run, try_to_execute(server.url, kernel_id, code, protocol, cookie)).result()
    assert "kernel_info_reply" in seen, seen
    assert not {"execute_reply", "execute_input", "execute_result", "error"} & set(seen), seen
    assert pool.is_file() and records_now(pool) == before


# --- Each kernel answers only its own page (dashboards/page_guard.py) ------------------------------


def request_as(url: str, method: str, cookie: str = "") -> int:
    """The status a request gets from a client holding `cookie` (its _xsrf token sent back as
    Jupyter asks, so that only the kernel check can refuse it)."""
    import http.client
    from http.cookies import SimpleCookie
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = cookie
        xsrf = SimpleCookie(cookie).get("_xsrf")
        if xsrf is not None:
            headers["X-XSRFToken"] = xsrf.value
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    try:
        body = b"{}" if method in {"POST", "PUT", "PATCH"} else None
        conn.request(method, parts.path, body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


async def websocket_answer(url: str, cookie: str) -> str:
    """'open' if a websocket to `url` is let in with `cookie`, else the HTTP status it got."""
    from tornado.httpclient import HTTPClientError

    base = url.split("/api/")[0].split("/voila/")[0]
    request = HTTPRequest(url.replace("http://", "ws://"),
                          headers={"Origin": base, **({"Cookie": cookie} if cookie else {})})
    try:
        conn = await websocket_connect(request)
    except HTTPClientError as e:
        return str(e.code)
    conn.close()
    return "open"


def test_another_viewer_cannot_end_drive_or_join_a_pages_kernel(page, probe):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    kernel_id = page_config(page)["kernelId"]
    # A second viewer, as a script on the same network: it knows the id (read off the owner's
    # screen or the wire) and has cookies of its own (the landing page gives them).
    _, _, stranger = viewer_get(probe.url)
    assert "_xsrf=" in stranger
    refused = {}
    for cookie in (stranger, ""):
        for method, path in [("DELETE", f"api/kernels/{kernel_id}"),
                             ("GET", f"api/kernels/{kernel_id}"),
                             ("POST", f"api/kernels/{kernel_id}/interrupt"),
                             ("POST", f"api/kernels/{kernel_id}/restart"),
                             ("POST", f"voila/api/shutdown/{kernel_id}")]:
            refused[(bool(cookie), method, path)] = request_as(probe.url + path, method, cookie)
        with ThreadPoolExecutor(1) as pool:
            for route in (f"api/kernels/{kernel_id}/channels", f"voila/execution/{kernel_id}"):
                refused[(bool(cookie), "WS", route)] = pool.submit(
                    asyncio.run, websocket_answer(probe.url + route, cookie)).result()
    let_in = {k: v for k, v in refused.items() if str(v) not in {"403", "404", "405"}}
    assert let_in == {}, let_in
    assert "403" in {str(v) for v in refused.values()}  # refused by the guard, not by a 404
    # The owner's kernel is untouched, and the owner still reaches it.
    owner = cookies_of(page)
    assert request_as(probe.url + f"api/kernels/{kernel_id}", "GET", owner) == 200
    with ThreadPoolExecutor(1) as pool:
        seen = pool.submit(asyncio.run, try_to_execute(probe.url, kernel_id, "1", "legacy-json",
                                                       owner)).result()
    assert "kernel_info_reply" in seen, seen
    assert page.locator(".jupyter-widgets").first.is_visible()


def test_a_page_can_still_shut_its_own_kernel_down(page, probe):
    open_dashboard_page(page, probe, PROBE.name)
    wait_for_widgets(page)
    kernel_id = page_config(page)["kernelId"]
    owner = cookies_of(page)
    assert request_as(probe.url + f"voila/api/shutdown/{kernel_id}", "POST", owner) == 204
    assert request_as(probe.url + f"api/kernels/{kernel_id}", "GET", owner) in {403, 404}


# --- A kernel budget: a cap in all, a cap per address, abandoned pages' kernels shut down --------


def budget_server_for(tmp_path_factory, *args: str):
    """Voilà serving the probe cold (no preheated kernel), with the guard's settings `args`."""
    from .browsing import VoilaServer, free_port, probe_site

    site = probe_site(tmp_path_factory.mktemp("budget-site"))
    return VoilaServer(port=free_port(), site=site, pool=0, extra_args=args).start()


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """At most 3 kernels, any number per address; a page's kernel kept 4 s with no page."""
    server = budget_server_for(tmp_path_factory, "--HenkitVoila.max_kernels=3",
                               "--HenkitVoila.kernels_per_address=0",
                               "--HenkitVoila.page_grace=4")
    try:
        yield server
    finally:
        server.stop()


def wait_for_kernels(server, count: int, timeout: float = 60) -> int:
    """Wait until the server runs `count` kernels; how many it runs then."""
    import time

    deadline = time.monotonic() + timeout
    while len(server.kernel_pids()) != count and time.monotonic() < deadline:
        time.sleep(0.25)
    return len(server.kernel_pids())


def test_pages_beyond_the_cap_are_told_the_server_is_full_at_once(capped):
    import time

    wait_for_kernels(capped, 0)
    url = capped.dashboard_url(PROBE.name)
    for _ in range(3):
        assert viewer_get(url)[0] == 200
    assert wait_for_kernels(capped, 3) == 3
    started = time.monotonic()
    code, body, _ = viewer_get(url)
    assert code == 503 and b"The server is full" in body and b"3 places" in body
    assert time.monotonic() - started < 2
    time.sleep(1)
    assert len(capped.kernel_pids()) == 3  # no kernel for a refused page
    # None of the three pages ever connected: their kernels go after the grace, and the server
    # serves again.
    assert wait_for_kernels(capped, 0, timeout=30) == 0
    assert "went away without closing" in capped.log()
    assert viewer_get(url)[0] == 200


def test_a_connected_page_keeps_its_kernel_past_the_grace(capped, page):
    import time

    wait_for_kernels(capped, 0, timeout=30)
    open_dashboard_page(page, capped, PROBE.name)
    wait_for_widgets(page)
    kernel_id = page_config(page)["kernelId"]
    time.sleep(8)  # twice the grace
    assert request_as(capped.url + f"api/kernels/{kernel_id}", "GET", cookies_of(page)) == 200
    assert page.locator(".jupyter-widgets").first.is_visible()


def test_one_address_holds_only_so_many_pages(tmp_path_factory):
    server = budget_server_for(tmp_path_factory, "--HenkitVoila.kernels_per_address=2")
    try:
        url = server.dashboard_url(PROBE.name)
        assert [viewer_get(url)[0] for _ in range(2)] == [200, 200]
        code, body, _ = viewer_get(url)
        assert code == 503 and b"already has 2 lessons open" in body
        assert wait_for_kernels(server, 2) == 2
    finally:
        server.stop()


@pytest.mark.parametrize("path", [
    "logout", "login", "voila/templates/henkit/static/../conf.json",
    "voila/templates/henkit/static/%2e%2e/conf.json",
    "voila/templates/henkit/static/%2e%2e%2fconf.json",
    "voila/templates/henkit/static/..%2fconf.json", "voila/templates/henkit/../henkit/conf.json",
])
def test_odd_addresses_are_not_found_not_server_errors(probe, path):
    status_code, body = fetch(probe.url + path)
    assert status_code in {403, 404}, f"{status_code} {path}"
    assert b"Traceback" not in body and b'"template"' not in body
    assert f"Uncaught exception GET /{path}" not in probe.log()


# --- HTTPS when the teacher gives a certificate ---------------------------------------------------


def self_signed(folder) -> tuple[str, str]:
    """A throwaway certificate for 127.0.0.1 and its key, made with openssl."""
    import subprocess

    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


def test_with_a_certificate_the_dashboards_are_served_over_https_only(tmp_path, page):
    import http.client
    import ssl

    from .browsing import VoilaServer, free_port, probe_site

    cert, key = self_signed(tmp_path)
    server = VoilaServer(port=free_port(), site=probe_site(tmp_path / "site"),
                         env={"CERT": cert, "KEY": key}).start()
    try:
        assert server.url.startswith("https://")
        conn = http.client.HTTPSConnection("127.0.0.1", server.port, timeout=30,
                                           context=server.tls())
        conn.request("GET", "/")
        response = conn.getresponse()
        assert response.status == 200
        # The viewer's cookie is sent over HTTPS only.
        assert any("Secure" in c and "HttpOnly" in c for c in response.headers.get_all(
            "Set-Cookie") or [] if c.startswith("username-")), response.headers.get_all(
            "Set-Cookie")
        plain = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        with pytest.raises((ConnectionError, http.client.HTTPException, ssl.SSLError, OSError)):
            plain.request("GET", "/")
            assert plain.getresponse().status != 200
        assert "https://127.0.0.1" in server.log()
    finally:
        server.stop()


@pytest.mark.parametrize(("env", "words"), [
    ({"CERT": "/nonexistent.pem", "KEY": "/nonexistent.pem"}, "CERT=/nonexistent.pem: no such"),
    ({"CERT": "x"}, "CERT and KEY go together"),
    ({"KERNELS": "many"}, "KERNELS=many: the most kernels"),
    ({"PER_DEVICE": "-1"}, "PER_DEVICE=-1: the most pages one device"),
    ({"PLAIN": "yes"}, "PLAIN=yes: 1 serves with stock Voil"),
    ({"HENKIT_CLASS_DB": "postgresql://teacher:s3cret-pw@127.0.0.1:1/henkit"}, "cannot be used"),
])
def test_bad_serving_settings_stop_at_once_and_never_show_a_password(tmp_path, env, words):
    import subprocess

    from .browsing import DASHBOARDS, ROOT, free_port, isolated_env

    run_env = {**isolated_env(tmp_path), "PORT": str(free_port()),
               "HENKIT_PYTHON": str(ROOT / ".venv" / "bin" / "python"), **env}
    if env.get("CERT") == "x":
        run_env.pop("KEY", None)
    done = subprocess.run([str(DASHBOARDS / "serve.sh")], env=run_env, capture_output=True,
                          check=False, text=True, timeout=120)
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert words in said
    assert "s3cret-pw" not in said


# --- The teacher's controls behind the teacher's link ----------------------------------------------


def test_the_teacher_link_opens_the_teachers_page_and_students_get_none_of_it(probe, page,
                                                                               chromium):
    found = re.search(r"The teacher's page \(keep this link to yourself[^)]*\): (\S+)",
                      probe.log())
    assert found, "the server prints the teacher link as it starts"
    link = found.group(1)
    secret = link.split("key=", 1)[1]
    assert link.startswith(probe.url + "teacher?key=") and len(secret) >= 32
    page.goto(link)
    assert page.url == probe.url + "teacher"  # the secret leaves the address bar
    page.get_by_role("button", name=re.compile("new class session", re.IGNORECASE)).wait_for()
    assert "SQLite file" in page.content()

    # A student: another browser, the same network, no link.
    student = chromium.new_context()
    try:
        other = student.new_page()
        assert other.goto(probe.url + "teacher").status == 403
        assert other.goto(probe.url + "teacher/records.csv").status == 403
        open_dashboard_page(other, probe, PROBE.name)
        html = other.content()
        assert secret not in html, "the secret is on a student's page"
        # No teacher's control, link or word on it (Voilà's icon font names a "chalkboard-
        # teacher" glyph in its CSS, which is not a control).
        assert other.locator("a[href*='teacher'], form[action*='teacher']").count() == 0
        assert "teacher" not in other.locator("body").inner_text().lower()
        assert "sqlite" not in html.lower() and "postgresql://" not in html
    finally:
        student.close()


# --- Plain mode: stock Voilà's workings, the guard kept ---------------------------------------------


def test_plain_mode_serves_a_lesson_with_its_answers_kept_back_and_its_kernel_guarded(
        tmp_path, page):
    from .browsing import SITE, VoilaServer, free_port, probe_site, show_whole_lesson

    lesson = "02_push_your_luck.ipynb"
    site = probe_site(tmp_path / "site")
    (site / lesson).symlink_to((SITE / lesson).resolve())
    server = VoilaServer(port=free_port(), site=site, env={"PLAIN": "1"}).start()
    try:
        server.wait_for_pools([PROBE.name, lesson])
        assert "Plain mode: Voilà" in server.log() and "lacks" not in server.log()
        open_dashboard_page(page, server, lesson)
        wait_for_widgets(page)
        # The template still keeps answers back, and a box still reveals them.
        box = page.locator(".hk-predict").first
        keyed = page.locator("[data-hk-answer]").first
        assert not keyed.is_visible()
        box.locator("input[type=text]").fill("5")
        box.get_by_role("button", name="Lock my prediction").click()
        show = box.get_by_role("button", name="Show the exact answer")
        show.or_(box.locator(".hk-answer")).first.wait_for()
        if show.is_visible():
            show.click()
        box.locator(".hk-answer").wait_for()
        keyed.wait_for(state="visible")
        show_whole_lesson(page)
        # And the kernel answers only this page.
        kernel_id = page_config(page)["kernelId"]
        _, _, stranger = viewer_get(server.url)
        assert request_as(server.url + f"api/kernels/{kernel_id}", "DELETE", stranger) == 403
        assert request_as(server.url + f"api/kernels/{kernel_id}", "GET",
                          cookies_of(page)) == 200
        assert page.log.problems() == {}
    finally:
        server.stop()
