"""Viewers of a dashboard cannot run code of their own, nor reach the rest of a Jupyter server.

Voilà 0.5 hands its kernel manager an allow-list of message types a browser may send (comm_open,
comm_close, comm_msg, comm_info_request, kernel_info_request, shutdown_request): widgets work,
execute_request is dropped. These tests try it on the websocket a dashboard page uses, in both
websocket protocols, with a control message that must get through (so a silent socket cannot
pass for a refusal)."""

from __future__ import annotations

import asyncio
import json
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


async def try_to_execute(base: str, kernel_id: str, code: str, protocol: str) -> list[str]:
    """Send execute_request then kernel_info_request; return every message type received until
    the kernel_info_reply (the shell channel answers in order, so an executed request's
    execute_reply would come first) plus one more second of listening."""
    session = uuid.uuid4().hex
    ws_url = base.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
    request = HTTPRequest(f"{ws_url}?session_id={session}", headers={"Origin": base.rstrip("/")})
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
        seen = pool.submit(asyncio.run, try_to_execute(probe.url, kernel_id, code, protocol))
        seen = seen.result()

    assert "kernel_info_reply" in seen, f"the websocket answered nothing useful: {seen}"
    assert not {"execute_reply", "execute_input", "execute_result", "error"} & set(seen), seen
    assert not marker.exists()
    assert 'Received message of type "execute_request", which is not allowed' in probe.log()
    # The dashboard itself still works on its own connection after the attempt.
    assert page.locator(".jupyter-widgets").first.is_visible()


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
