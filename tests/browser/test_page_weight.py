"""Bytes on the wire (issue 11, lighter pages): a first visit to each dashboard moves at most
3 MB, a second dashboard in the same browser at most 0.5 MB; the server gzips its text
responses, and a browser keeps the static files one dashboard loaded for the next.

Bytes are counted by a TCP proxy between Chromium and Voilà: everything the server sends,
headers, compressed bodies and the kernel's websocket frames (permessage-deflate) as they are
on the wire. Which responses were compressed or came from the browser's cache is read from
Chromium's own network events.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

import pytest

from .browsing import (
    MARK_USABLE,
    VIEWPORT,
    VoilaServer,
    complete_after_ms,
    dashboards,
    usable_after_ms,
)

pytestmark = pytest.mark.browser

MB = 1_000_000
FIRST_VISIT_LIMIT = 3 * MB
SECOND_DASHBOARD_LIMIT = MB // 2
# Tornado leaves bodies under this many bytes uncompressed (GZipContentEncoding.MIN_LENGTH).
SMALL_BODY = 1024


class CountingProxy:
    """A TCP proxy on 127.0.0.1 in front of `port` that counts the bytes it carries each way."""

    def __init__(self, port: int) -> None:
        self.target = ("127.0.0.1", port)
        self.received = self.sent = 0  # as the browser sees it: from the server, to the server
        self.last_traffic = time.monotonic()
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def take(self) -> tuple[int, int]:
        """Bytes (received, sent) since the last call."""
        with self._lock:
            counts = self.received, self.sent
            self.received = self.sent = 0
        return counts

    def wait_until_quiet(self, quiet: float = 1.0, timeout: float = 30) -> None:
        """Wait until no byte has moved for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_traffic < quiet and time.monotonic() < deadline:
            time.sleep(0.1)

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                browser, _ = self._listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(browser, server, "sent"), daemon=True).start()
            threading.Thread(
                target=self._pump, args=(server, browser, "received"), daemon=True
            ).start()

    def _pump(self, source: socket.socket, sink: socket.socket, way: str) -> None:
        try:
            while data := source.recv(65536):
                with self._lock:
                    setattr(self, way, getattr(self, way) + len(data))
                    self.last_traffic = time.monotonic()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@dataclass
class Visit:
    """One dashboard page load: bytes through the proxy, and each response Chromium got."""

    name: str
    received: int = 0
    sent: int = 0
    responses: list[dict] = field(default_factory=list)

    def fetched(self) -> list[dict]:
        """Responses that came over the network (not from the browser's cache)."""
        return [r for r in self.responses if not r["cached"]]

    def __str__(self) -> str:
        return (
            f"{self.name}: {self.received / MB:.2f} MB received, {self.sent / MB:.2f} MB sent, "
            f"{len(self.fetched())} of {len(self.responses)} responses over the network"
        )


def visit(context, proxy: CountingProxy, name: str) -> Visit:
    """Open dashboard `name` through the proxy in `context`; count until the page is usable and
    complete, its charts are drawn and nothing has moved for a second."""
    page = context.new_page()
    page.add_init_script(MARK_USABLE)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    seen: dict[str, dict] = {}
    result = Visit(name)

    def response(event) -> None:
        r = event["response"]
        seen[event["requestId"]] = {
            "url": r["url"],
            "status": r["status"],
            "type": r.get("mimeType", ""),
            "headers": {k.lower(): v for k, v in r["headers"].items()},
            "cached": bool(r.get("fromDiskCache") or r.get("fromMemoryCache")),
            "header_bytes": r.get("encodedDataLength", 0),
        }

    def finished(event) -> None:
        if event["requestId"] in seen:
            r = seen.pop(event["requestId"])
            r["body_bytes"] = event["encodedDataLength"] - r["header_bytes"]
            result.responses.append(r)

    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished", finished)
    proxy.wait_until_quiet()
    proxy.take()
    try:
        page.goto(f"http://127.0.0.1:{proxy.port}/voila/render/{name}")
        usable_after_ms(page)
        complete_after_ms(page)  # a page without a ready kernel shows its outputs cell by cell
        page.wait_for_function(  # every chart drawn (plotly.js loads after the widgets)
            "[...document.querySelectorAll('.henkit-chart')].every(c => c.querySelector('svg'))"
        )
        proxy.wait_until_quiet()
        result.received, result.sent = proxy.take()
    finally:
        page.close()
    return result


@pytest.fixture(scope="module")
def visits(chromium, voila: VoilaServer) -> dict[str, Visit]:
    """'first <name>': each dashboard opened in a fresh browser context (empty cache);
    'second <name>': dashboard 6 opened after dashboard 1 in the same context."""
    names = dashboards()
    first, second = names[0], names[5]
    proxy = CountingProxy(voila.port)
    found = {}

    def fresh_context():
        context = chromium.new_context(viewport=VIEWPORT)
        context.set_default_timeout(30_000)
        context.set_default_navigation_timeout(120_000)  # a kernel being refilled
        return context

    try:
        context = fresh_context()
        try:
            found[f"first {first}"] = visit(context, proxy, first)
            found[f"second {second}"] = visit(context, proxy, second)
        finally:
            context.close()
        # Dashboard 6 last: its preheated kernel has been taken just now.
        for name in [n for n in names if n not in (first, second)] + [second]:
            context = fresh_context()
            try:
                found[f"first {name}"] = visit(context, proxy, name)
            finally:
                context.close()
    finally:
        proxy.close()
    return found


def report(visits: dict[str, Visit]) -> str:
    return "\n".join(str(v) for v in visits.values())


def test_a_first_visit_to_each_dashboard_moves_at_most_3_mb(visits):
    firsts = {k: v for k, v in visits.items() if k.startswith("first ")}
    assert len(firsts) == len(dashboards())
    assert all(v.received <= FIRST_VISIT_LIMIT for v in firsts.values()), report(visits)
    # (Before compression a first visit moved 9.8 MB.)


def test_a_second_dashboard_in_the_same_browser_moves_at_most_half_a_mb(visits):
    (second,) = [v for k, v in visits.items() if k.startswith("second ")]
    assert second.received <= SECOND_DASHBOARD_LIMIT, report(visits)


def test_text_responses_are_gzip_compressed(visits):
    textual = ("text/", "application/javascript", "application/json", "image/svg+xml")
    uncompressed = [
        f"{r['url']} ({r['type']}, {r['body_bytes']} bytes)"
        for v in visits.values()
        for r in v.fetched()
        if r["type"].startswith(textual)
        and r["status"] == 200
        and r["body_bytes"] >= SMALL_BODY
        and r["headers"].get("content-encoding") != "gzip"
    ]
    assert uncompressed == []
    # The big ones certainly: plotly.js and Voilà's JavaScript.
    fetched = [r for v in visits.values() for r in v.fetched()]
    plotly = [r for r in fetched if "/plotly.min.js" in r["url"]]
    assert plotly and all(r["headers"]["content-encoding"] == "gzip" for r in plotly)
    assert all(r["body_bytes"] < 2 * MB for r in plotly)  # 4.8 MB as sent before


def test_the_next_dashboard_reuses_the_static_files_of_the_first(visits):
    first = next(v for k, v in visits.items() if k.startswith("first "))
    (second,) = [v for k, v in visits.items() if k.startswith("second ")]
    static = ("/voila/static/", "/voila/templates/", "/voila/labextensions/")
    # Versioned addresses (?v=...) are cached for good: no request at all the next time.
    versioned = [
        r for r in first.fetched() if "?v=" in r["url"] and any(s in r["url"] for s in static)
    ]
    assert versioned
    assert all("max-age" in r["headers"].get("cache-control", "") for r in versioned), [
        (r["url"], r["headers"].get("cache-control")) for r in versioned
    ]
    # Whatever the next dashboard fetched again over the network is small: its page, its kernel,
    # and revalidations answered with "not modified".
    again = [r for r in second.fetched() if any(s in r["url"] for s in static)]
    assert all(r["body_bytes"] < SMALL_BODY for r in again), [
        (r["url"], r["body_bytes"]) for r in again
    ]
    paths = {r["url"].split("/", 3)[3] for r in second.responses}
    assert any("plotly.min.js" in p for p in paths)  # the next dashboard uses it too...
    assert not any("plotly.min.js" in r["url"] for r in second.fetched())  # ...from the cache
