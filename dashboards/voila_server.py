"""Start Voilà (as `python -m voila` would), with a guard against a lost ZeroMQ wake-up.

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
"""

from __future__ import annotations

import logging
import sys
import time
from queue import Empty
from typing import Any

from jupyter_client.channels import AsyncZMQSocketChannel

#: How long one wait lasts before the socket is asked directly (seconds): the longest a lost
#: wake-up can delay a page.
RECHECK_SECONDS = 1.0

log = logging.getLogger("Voila")
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


def install() -> None:
    """Make every unbounded kernel-channel wait in this process re-check its socket."""
    AsyncZMQSocketChannel.get_msg = get_msg_rechecking  # type: ignore[method-assign]


def main() -> None:
    """Install the guard, then run Voilà with this process's command line."""
    install()
    from voila.app import main as voila_main

    sys.exit(voila_main())


if __name__ == "__main__":
    main()
