"""The page's recorder: one `Recorder` per kernel (one notebook or dashboard page) for every widget.

Every widget of a page writes through the same recorder, so a page is one anonymous page id in
the class pool however many widgets it shows. It is made on first use, on the default store
(`open_store(None)`: HENKIT_CLASS_DB, else class.sqlite3 in the data folder), with a background
writer: a click only queues its records, it never waits for the store. When the kernel ends the
recorder writes what is still waiting (if the store can be reached). It records no faster than
a person can click (`limits.PERSON`).

What the recorder has to say (the pool offline and back, a pool file deleted under the server)
goes to the server's log (`server_log`): the kernel's original stderr, which the dashboard server
writes to its own log, never the student's page (in a kernel, sys.stderr is the page's output).
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading

from henkit.classpool.limits import PERSON
from henkit.classpool.recorder import LOG, Recorder

_lock = threading.Lock()
_recorder: Recorder | None = None
_log_handler: logging.Handler | None = None


class _ServerLog(logging.Handler):
    """Writes log lines to a file descriptor (the kernel's original stderr) with os.write."""

    def __init__(self, fd: int) -> None:
        super().__init__(logging.INFO)
        self.fd = fd
        self.setFormatter(logging.Formatter("[%(levelname)s %(asctime)s %(name)s] %(message)s",
                                            "%H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            os.write(self.fd, (self.format(record) + "\n").encode("utf-8", "replace"))
        except (OSError, ValueError, TypeError):  # a log line must never break a page
            self.handleError(record)


def server_log() -> logging.Handler:
    """The handler (made once) sending henkit.classpool's log to the server's log.

    In a Jupyter kernel sys.stderr forwards to the page; its fileno() is a copy of the stderr the
    kernel was started with, which the server logs. Elsewhere it is stderr itself.
    """
    global _log_handler
    with _lock:
        if _log_handler is None:
            try:
                fd = sys.stderr.fileno()
            except (AttributeError, OSError, ValueError):
                fd = 2
            _log_handler = _ServerLog(fd)
            LOG.addHandler(_log_handler)
            if LOG.level == logging.NOTSET or LOG.level > logging.INFO:
                LOG.setLevel(logging.INFO)
        return _log_handler


def page_recorder() -> Recorder:
    """The kernel's one Recorder (background writer, default store), made on first use.

    ValueError if HENKIT_CLASS_DB names no class pool (e.g. a mysql:// URL); a store that is
    named well but cannot be reached is no error (the recorder keeps the records: `online`).
    It records no faster than a person can click (`limits.PERSON`).
    """
    global _recorder
    server_log()
    with _lock:
        if _recorder is None:
            _recorder = Recorder(None, background=True, limits=PERSON)
        return _recorder


def close_page_recorder() -> None:
    """Write what the page's recorder still holds (if the store can be reached) and close it;
    the next `page_recorder()` makes a new one."""
    global _recorder
    with _lock:
        recorder, _recorder = _recorder, None
    if recorder is not None:
        recorder.close()


atexit.register(close_page_recorder)
