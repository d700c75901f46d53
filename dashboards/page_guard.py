"""Who may use a dashboard's kernel, and how many kernels the server gives out.

A class network is not a trusted network: a kernel's id is written in its page, and a student who
reads it off a neighbour's screen (or off the wire) must not be able to end, interrupt, drive or
listen to that kernel. So each kernel is bound to the viewer its page was served to, and every
route that reaches a kernel (Jupyter's kernel REST routes and websocket, Voilà's shutdown and
cell-running routes) answers 403 to anyone else.

The viewer is Jupyter Server's own: with no password, its IdentityProvider gives each browser a
random user in a signed, http-only login cookie on its first request. `PageAuthorizer` is a
Jupyter Server Authorizer (the supported hook for "may this user do this"), so Jupyter's own
kernel handlers ask it; Voilà's two routes that do not ask an authorizer are guarded by
`allowed_here`.

`Pages` also keeps the kernel budget: a cap on kernels in all (by default what the server's
memory holds with room to spare, from the memory a kernel takes once its lesson has run), a cap
per client address, and the reaping of kernels whose page has gone without saying so (a closed
laptop lid, a lost connection, a killed tab): no page connected for `grace` seconds.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_server.auth.authorizer import Authorizer

#: A kernel id as a page names it in its settings (`"kernelId": "..."`).
KERNEL_IN_PAGE = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
#: A kernel's memory before one has been measured: a lesson's kernel takes 84-119 MB once its
#: notebook has run (measured on the served dashboards), so this errs on the side of fewer.
KERNEL_MB_GUESS = 150.0
#: The share of the memory the kernels may take: the rest is room for the server, the class
#: pool, a lesson's notebook growing, and the machine's other work.
MEMORY_SHARE = 0.75

FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The server is full</title>
<style>body { font: 22px/1.5 "DejaVu Sans", Arial, sans-serif; max-width: 36rem;
margin: 3rem auto; padding: 0 1rem; color: #111; }</style></head>
<body><main><h1>The server is full</h1>
<p>{reason} Try again in a minute.</p></main></body></html>
"""


@dataclass
class Page:
    """A kernel given to a page: whose it is, from which address, and whether a page is on it."""

    viewer: str
    address: str
    connections: int = 0
    alone_since: float = field(default_factory=time.monotonic)


@dataclass
class Pages:
    """The kernels given to pages, their viewers, and the budget they are given out under."""

    max_kernels: int = 0
    """Kernels in all (preheated ones too); 0: from the machine's memory (see `budget`)."""
    per_address: int = 6
    """Kernels bound to pages from one client address (a student's tabs); 0: no cap."""
    grace: float = 120.0
    """Seconds a kernel may stay with no page connected before it is shut down."""
    pages: dict[str, Page] = field(default_factory=dict)
    _measured_budget: int | None = None

    # ----- who may use a kernel -----------------------------------------------------------------

    def bind(self, kernel_id: str, viewer: str, address: str) -> None:
        """Give `kernel_id` to the viewer its page is being served to (once: a kernel is never
        handed on)."""
        self.pages.setdefault(kernel_id, Page(viewer, address))

    def allowed(self, kernel_id: str, viewer: str | None) -> bool:
        """Whether `viewer` may use `kernel_id`: only the viewer its page was served to (a kernel
        no page was served with, a preheated one, is nobody's)."""
        page = self.pages.get(kernel_id)
        return page is not None and viewer is not None and page.viewer == viewer

    def bind_from_html(self, html: str, viewer: str, address: str) -> str | None:
        """Bind the kernel a piece of a page names (its settings), if it names one; its id."""
        found = KERNEL_IN_PAGE.search(html)
        if found:
            self.bind(found.group(1), viewer, address)
            return found.group(1)
        return None

    # ----- pages connecting and going ------------------------------------------------------------

    def connected(self, kernel_id: str) -> None:
        """A page's websocket to its kernel opened."""
        if kernel_id in self.pages:
            self.pages[kernel_id].connections += 1

    def disconnected(self, kernel_id: str) -> None:
        """A page's websocket to its kernel closed."""
        page = self.pages.get(kernel_id)
        if page is not None:
            page.connections = max(0, page.connections - 1)
            if page.connections == 0:
                page.alone_since = time.monotonic()

    def abandoned(self, now: float | None = None) -> list[str]:
        """Kernels whose page has not been connected for `grace` seconds."""
        now = time.monotonic() if now is None else now
        return [k for k, p in self.pages.items()
                if p.connections == 0 and now - p.alone_since >= self.grace]

    def forget(self, live: Iterable[str]) -> None:
        """Drop the kernels that are no longer running."""
        live = set(live)
        for kernel_id in [k for k in self.pages if k not in live]:
            del self.pages[kernel_id]

    # ----- the budget ----------------------------------------------------------------------------

    def budget(self, kernels_mb: Callable[[], list[float]],
               available: Callable[[], float] | None = None) -> int:
        """How many kernels the server gives out in all: `max_kernels`, or else what
        MEMORY_SHARE of the machine's memory holds (memory available now plus what the running
        kernels take), at the median size of the running kernels (measured once)."""
        if self.max_kernels > 0:
            return self.max_kernels
        if self._measured_budget is None:
            sizes = kernels_mb()
            per_kernel = max(statistics.median(sizes), 60.0) if sizes else KERNEL_MB_GUESS
            memory = (available or available_mb)() + sum(sizes)
            self._measured_budget = max(1, int(MEMORY_SHARE * memory / per_kernel))
        return self._measured_budget

    def refusal(self, running: int, address: str, budget: int) -> str | None:
        """Why a new page from `address` cannot have a kernel now (None: it can)."""
        if running >= budget:
            return (f"All {budget} places on this server are taken just now "
                    "(each open page holds one).")
        if self.per_address:
            mine = sum(1 for p in self.pages.values() if p.address == address)
            if mine >= self.per_address:
                return (f"This device already has {mine} lessons open, the most one device may "
                        "have: close a tab you no longer use.")
        return None


def available_mb(meminfo: Path = Path("/proc/meminfo")) -> float:
    """The memory the machine can give without swapping (Linux's MemAvailable), in MB."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 4096.0  # not Linux: a modest machine


def kernel_id_of(handler) -> str | None:
    """The kernel a request names in its route (Jupyter's and Voilà's kernel routes)."""
    kernel_id = handler.path_kwargs.get("kernel_id")
    if kernel_id is None and handler.path_args:
        kernel_id = handler.path_args[0]
    return kernel_id if isinstance(kernel_id, str) else None


def viewer_of(handler) -> str | None:
    """The viewer a request comes from: Jupyter's user for it (its login cookie)."""
    try:
        user = handler.current_user
    except RuntimeError:  # a handler Jupyter has not prepared (it has no user)
        return None
    return getattr(user, "username", None) if user else None


def allowed_here(handler) -> bool:
    """Whether the request's viewer may use the kernel its route names."""
    pages: Pages | None = handler.settings.get("henkit_pages")
    kernel_id = kernel_id_of(handler)
    return pages is None or (kernel_id is not None
                             and pages.allowed(kernel_id, viewer_of(handler)))


class PageAuthorizer(Authorizer):
    """Jupyter Server's authorizer for the dashboards: a kernel answers only the viewer its page
    was served to; everything else a dashboard does is allowed, as with no authorizer."""

    def is_authorized(self, handler, user, action: str, resource: str) -> bool:
        """Kernels: only their own page's viewer; every other resource: allowed."""
        if resource != "kernels":
            return True
        return allowed_here(handler)
