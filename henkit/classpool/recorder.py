"""What widgets call to write to the class pool: a `Recorder` per page that never breaks a page.

A recorder stamps each record with its page's anonymous id and the page's own next number
(`seq`), and writes it. When the store cannot be reached (file not writable, server down) the
record stays in memory, `online` turns False (a widget can say "class pool offline"), and the
kept records are written when the store is back: on a later record (at most once every
`retry_interval` seconds, so a page does not wait on a dead server at every roll) or on
`flush()`. The store writes a (page, seq) once, so a write whose answer was lost can be sent
again without doubling it. At most `limit` records wait; beyond that the oldest are dropped and
counted in `dropped`.

With `limits` (a page's recorder has `limits.PERSON`) records faster than a person can click are
dropped before they are stamped, counted by kind in `too_fast`, and those counts are written to
the store with the records (`ClassStore.add_too_fast`), so the class board can say them.

A store that stops for good (its SQLite file deleted or replaced under the server:
`StoreReplaced`) gets no more writes: the records stay in memory (up to `limit`, the rest
counted in `dropped`), `online` is False and the reason is logged once.

With `background=True` a thread of the recorder's own does the writing: `record` only queues,
so a click never waits for a slow or unreachable server (a connection attempt can take
seconds). Without it (the default, simplest to reason about in tests and scripts) `record`
writes before it returns.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from itertools import islice

import numpy as np

from henkit.checks import whole
from henkit.classpool.base import ClassStore, StoreError, StoreReplaced
from henkit.classpool.limits import Limit, RateLimiter
from henkit.classpool.records import KINDS, Record, check_page, check_record, new_page_id
from henkit.classpool.stores import open_store

LOG = logging.getLogger("henkit.classpool")
LIMIT = 10_000
"""How many records a recorder keeps while its store is unreachable (the oldest go first)."""
CHUNK = 1_000
"""The most records written in one transaction when catching up."""


class Recorder:
    """Writes a page's records to the class pool; keeps them while the pool is unreachable.

    `store`: a ClassStore (left open on close: its owner closes it), or what `open_store` takes
    (None: HENKIT_CLASS_DB or the default SQLite file in `data_dir`), opened on first use.
    `limits`: record kind -> `limits.Limit` (a page's recorder has `limits.PERSON`), or None
    (no limit: a script's own recorder); what goes past is counted in `too_fast`.
    """

    def __init__(self, store: ClassStore | str | os.PathLike[str] | None = None, *,
                 data_dir: str | os.PathLike[str] | None = None, page: str | None = None,
                 limit: int = LIMIT, retry_interval: float = 2.0, background: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 limits: Mapping[str, Limit] | None = None) -> None:
        self.page = new_page_id() if page is None else check_page(page)
        self.limit = whole(limit, "limit (records kept while the class pool is offline)", 1,
                           10_000_000)
        if isinstance(retry_interval, bool | np.bool_) or not isinstance(
                retry_interval, int | float | np.integer | np.floating) or not (
                0 <= retry_interval <= 3600):
            raise ValueError("retry_interval is a number of seconds from 0 to 3600, not "
                             f"{retry_interval!r}")
        if not isinstance(background, bool | np.bool_):
            raise ValueError(f"background is True or False, not {background!r}")
        if not callable(clock):
            raise ValueError(f"clock is a function returning seconds (time.monotonic), "
                             f"not {clock!r}"[:300])
        background = bool(background)
        self._limiter = None if limits is None else RateLimiter(limits, clock=clock)
        self.retry_interval = float(retry_interval)
        if isinstance(store, ClassStore):
            self._store: ClassStore | None = store
            self._opener: Callable[[], ClassStore] | None = None
        else:
            # Checked now (bad input is the caller's to hear about), opened on first use.
            self._store = None
            target = store
            open_store(target, data_dir=data_dir)
            self._opener = lambda: open_store(target, data_dir=data_dir)
        self._clock = clock
        self._queue = threading.Condition()  # guards the waiting records and the counters
        self._writing = threading.Lock()  # one write at a time
        self._pending: deque[Record] = deque()
        self._next_seq = 0
        self._last_try = -float("inf")
        self._closed = False
        self.online = True
        """Whether the last write reached the store (True before any write)."""
        self.dropped = 0
        """Records dropped (the oldest) because more than `limit` were waiting."""
        self.written = 0
        """Records this recorder has written to the store."""
        self.last_error: str | None = None
        """Why the last write failed (None after a write that worked)."""
        self.too_fast: dict[str, int] = dict.fromkeys(KINDS, 0)
        """Records dropped by kind because they came faster than `limits` allow."""
        self._too_fast_sent: dict[str, int] = dict(self.too_fast)
        self.stopped: str | None = None
        """Why this recorder writes no more (its store stopped for good), or None."""
        self._thread: threading.Thread | None = None
        if background:
            self._thread = threading.Thread(target=self._run, name=f"henkit-recorder-{self.page}",
                                            daemon=True)
            self._thread.start()

    def __repr__(self) -> str:
        state = "online" if self.online else "offline"
        return (f"Recorder(page={self.page!r}, {state}, pending={self.pending}, "
                f"written={self.written}, dropped={self.dropped}, "
                f"too_fast={sum(self.too_fast.values())})")

    @property
    def limits(self) -> dict[str, Limit] | None:
        """The most records of each kind this recorder lets through (None: no limit)."""
        return None if self._limiter is None else dict(self._limiter.limits)

    @property
    def pending(self) -> int:
        """Records waiting to be written."""
        return len(self._pending)

    @property
    def store(self) -> ClassStore | None:
        """The store written to (None until it could be opened)."""
        return self._store

    def record(self, record: Record) -> None:
        """Stamp one record and write it (or keep it while the pool is offline).

        Never raises because the store is unreachable (see `online`); a record that is not one
        is the caller's mistake: ValueError.
        """
        self.record_many([record])

    def record_many(self, records: Iterable[Record]) -> None:
        """Stamp records and write them (or keep them while the pool is offline)."""
        if isinstance(records, Record | str | bytes) or not isinstance(records, Iterable):
            raise ValueError(f"record_many takes a list of records, not {records!r}")
        batch = [check_record(r) for r in records]
        for r in batch:
            if r.page not in (None, self.page):
                raise ValueError(f"this recorder writes page {self.page}'s records, not "
                                 f"page {r.page}'s")
        with self._queue:
            if self._closed:
                raise ValueError("this recorder is closed")
            for r in batch:
                if self._limiter is not None and not self._limiter.allow(r.kind):
                    self.too_fast[r.kind] += 1  # faster than a person: counted, not kept
                    continue
                stamped = r.stamped(page=self.page, seq=self._next_seq)
                self._next_seq += 1
                if len(self._pending) >= self.limit:
                    self._pending.popleft()
                    self.dropped += 1
                self._pending.append(stamped)
            self._queue.notify()
        if self._thread is None and self._due() and (self._pending or self._counts_waiting()):
            self._write()

    def flush(self) -> bool:
        """Write every waiting record now if the store can be reached; True if none is left."""
        self._write()
        return not self._pending and not self._counts_waiting()

    def _counts_waiting(self) -> bool:
        """Whether counts of records too fast wait to be written."""
        return self.too_fast != self._too_fast_sent

    def _due(self) -> bool:
        if self.stopped is not None:
            return False
        return self.online or self._clock() - self._last_try >= self.retry_interval

    def _write(self) -> None:
        with self._writing:
            self._last_try = self._clock()
            for attempt in (1, 2):
                was_connected = bool(getattr(self._store, "connected", False))
                try:
                    self._write_pending()
                except StoreReplaced as e:
                    if self.stopped is None:
                        LOG.error("page %s stops writing to the class pool and keeps its %d "
                                  "records in memory: %s", self.page, self.pending, e)
                    self.stopped = str(e)
                    self.online = False
                    self.last_error = str(e)
                    return
                except (StoreError, OSError) as e:
                    # A connection that worked before and broke (a restarted server) is
                    # dropped by the store: one more try opens a new one at once.
                    if attempt == 1 and was_connected and not getattr(self._store, "connected",
                                                                      True):
                        continue
                    if self.online:
                        LOG.warning("page %s: class pool offline, keeping records in memory: %s",
                                    self.page, e)
                    self.online = False
                    self.last_error = str(e)
                    return
                break
            if not self.online:
                LOG.info("page %s: class pool back online (%d records written in all)",
                         self.page, self.written)
            self.online = True
            self.last_error = None

    def _write_pending(self) -> None:
        if self.stopped is not None:
            raise StoreReplaced(self.stopped)
        if self._store is None and self._opener is not None:
            self._store = self._opener()
        while self._store is not None:
            with self._queue:
                chunk = list(islice(self._pending, CHUNK))
                counts = dict(self.too_fast)
            if not chunk:
                if counts != self._too_fast_sent:
                    self._store.add_too_fast(self.page, counts)
                    self._too_fast_sent = counts
                return
            self._store.add_many(chunk)
            last = chunk[-1].seq
            with self._queue:
                # The oldest may have been dropped meanwhile: remove by number, not by count.
                while self._pending and self._pending[0].seq <= last:  # type: ignore[operator]
                    self._pending.popleft()
                self.written += len(chunk)

    def _run(self) -> None:
        """The background writer: write whenever records wait and a write is due."""
        while True:
            with self._queue:
                while not self._closed and not ((self._pending or self._counts_waiting())
                                                and self._due()):
                    idle = self.stopped is not None or not (self._pending or
                                                            self._counts_waiting())
                    wait = None if idle else max(
                        0.01, self.retry_interval - (self._clock() - self._last_try))
                    self._queue.wait(wait)
                if self._closed:
                    return
            self._write()

    def close(self) -> None:
        """Stop the background writer, try a last flush, close the store if this recorder
        opened it."""
        with self._queue:
            self._closed = True
            self._queue.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self._pending or self._counts_waiting():
            self._write()
        if self._pending:
            # Said, never lost silently: the server's log tells how many and why.
            LOG.warning("page %s closes with %d records never written to the class pool: %s",
                        self.page, len(self._pending), self.last_error or "no reason known")
        if self._opener is not None and self._store is not None:
            self._store.close()
            self._store = None
