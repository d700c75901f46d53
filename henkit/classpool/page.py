"""The page's recorder: one `Recorder` per kernel (one notebook or dashboard page) for every widget.

Every widget of a page writes through the same recorder, so a page is one anonymous page id in
the class pool however many widgets it shows. It is made on first use, on the default store
(`open_store(None)`: HENKIT_CLASS_DB, else class.sqlite3 in the data folder), with a background
writer: a click only queues its records, it never waits for the store. When the kernel ends the
recorder writes what is still waiting (if the store can be reached).
"""

from __future__ import annotations

import atexit
import threading

from henkit.classpool.recorder import Recorder

_lock = threading.Lock()
_recorder: Recorder | None = None


def page_recorder() -> Recorder:
    """The kernel's one Recorder (background writer, default store), made on first use.

    ValueError if HENKIT_CLASS_DB names no class pool (e.g. a mysql:// URL); a store that is
    named well but cannot be reached is no error (the recorder keeps the records: `online`).
    """
    global _recorder
    with _lock:
        if _recorder is None:
            _recorder = Recorder(None, background=True)
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
