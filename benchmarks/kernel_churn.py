"""Kernels and memory while a class opens, reloads and abandons pages: what the kernel budget and
the reaping of abandoned pages keep the server to.

`python -m benchmarks.kernel_churn [--students 30] [--minutes 10] [--seed 1]` serves the probe
dashboard (a button and a chart, cold and preheated as `make serve` does) and plays `students`
clients with no browser: each opens the page as a browser does (the page, then its kernel's
websocket with the page's cookies), stays 40-80 s, then either reloads it (the page closes as a
tab does: Voilà's shutdown call, then a new page), or abandons it (a closed laptop lid or a killed
tab: the socket drops, nothing is said, and a new page is opened). Every 30 s it prints the
kernels the server runs and their memory. Seeded: the same seed plays the same class. (All the
students come from one address here, so the cap per address is lifted.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path

import numpy as np
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.browser.browsing import PROBE, VoilaServer, free_port, probe_site


class Student:
    """One client opening, keeping and leaving pages."""

    def __init__(self, server: VoilaServer, rng: np.random.Generator) -> None:
        self.server, self.rng, self.jar = server, rng, SimpleCookie()
        self.client = AsyncHTTPClient(force_instance=True)
        self.socket = None
        self.kernel_id = ""
        self.opened = self.refused = 0

    def _cookie(self) -> str:
        return "; ".join(f"{k}={m.value}" for k, m in self.jar.items())

    async def _get(self, url: str) -> tuple[int, str]:
        try:
            r = await self.client.fetch(url, headers={"Cookie": self._cookie()},
                                        request_timeout=120, raise_error=False)
        except (OSError, HTTPClientError):
            return 0, ""
        for header in r.headers.get_list("Set-Cookie"):
            self.jar.load(header)
        return r.code, r.body.decode(errors="replace") if r.body else ""

    async def open_page(self) -> None:
        """The landing page (its cookies), the dashboard, then its kernel's websocket."""
        if "_xsrf" not in self.jar:
            await self._get(self.server.url)
        code, html = await self._get(self.server.dashboard_url(PROBE.name))
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', html)
        if code != 200 or not found:
            self.refused += 1
            return
        self.opened += 1
        self.kernel_id = found.group(1)
        url = self.server.url.replace("http://", "ws://") + \
            f"api/kernels/{self.kernel_id}/channels?session_id=churn"
        try:
            self.socket = await websocket_connect(HTTPRequest(
                url, headers={"Cookie": self._cookie(), "Origin": self.server.url.rstrip("/")}))
        except (OSError, HTTPClientError):
            self.socket = None

    async def leave(self, politely: bool) -> None:
        """Close the page: as a tab closes (Voilà's shutdown call), or by just going."""
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        if politely and self.kernel_id:
            xsrf = self.jar["_xsrf"].value if "_xsrf" in self.jar else ""
            await self.client.fetch(
                self.server.url + f"voila/api/shutdown/{self.kernel_id}", method="POST",
                body=b"", headers={"Cookie": self._cookie(), "X-XSRFToken": xsrf},
                raise_error=False)
        self.kernel_id = ""

    async def play(self, until: float) -> None:
        """Open, stay, reload or abandon, until `until` (monotonic seconds)."""
        await asyncio.sleep(float(self.rng.uniform(0, 20)))  # the class arrives over 20 s
        while time.monotonic() < until:
            await self.open_page()
            await asyncio.sleep(float(self.rng.uniform(40, 80)))
            await self.leave(politely=bool(self.rng.random() < 0.5))
        await self.leave(politely=False)


def kernels_and_memory(server: VoilaServer) -> tuple[int, float]:
    """Kernels the server runs, and their resident memory in MB."""
    sizes = server.kernels_rss_mb()
    return len(sizes), sum(sizes)


async def churn(server: VoilaServer, students: int, minutes: float, seed: int) -> list[dict]:
    """Play the class; the samples taken every 30 s."""
    rng = np.random.default_rng(seed)
    until = time.monotonic() + 60 * minutes
    class_ = [Student(server, np.random.default_rng(rng.integers(2**32)))
              for _ in range(students)]
    tasks = [asyncio.ensure_future(s.play(until)) for s in class_]
    samples, started = [], time.monotonic()
    while time.monotonic() < until + 5:
        await asyncio.sleep(30)
        kernels, memory = kernels_and_memory(server)
        sample = {"s": round(time.monotonic() - started), "kernels": kernels,
                  "MB": round(memory), "pages": sum(s.socket is not None for s in class_),
                  "opened": sum(s.opened for s in class_),
                  "refused": sum(s.refused for s in class_)}
        samples.append(sample)
        print(json.dumps(sample), flush=True)
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples


def main(argv: list[str] | None = None) -> int:
    """Serve the probe, play the class, print the samples and a summary line."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.kernel_churn",
                                description=__doc__.splitlines()[0])
    p.add_argument("--students", type=int, default=30)
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    site = probe_site(Path(tempfile.mkdtemp(prefix="henkit-churn-")) / "site")
    # Every student here is one address (127.0.0.1): VoilaServer lifts the cap per address.
    server = VoilaServer(port=free_port(), site=site).start()
    try:
        server.wait_for_pools([PROBE.name])
        samples = asyncio.run(churn(server, args.students, args.minutes, args.seed))
    finally:
        server.stop()
    last, most = samples[-1], max(samples, key=lambda s: s["kernels"])
    print(f"after {args.minutes:g} min of {args.students} students: {last['kernels']} kernels, "
          f"{last['MB']} MB ({last['pages']} pages open); most {most['kernels']} kernels, "
          f"{most['MB']} MB; {last['opened']} pages opened, {last['refused']} refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
