"""The class pool under a class's load: the board's one query, a click's write, and the time from
a roll to the board showing it, on SQLite and on a throwaway PostgreSQL server.

- Board refresh over 100,000 records of one session (30 students): wall time and the CPU the
  database spends per refresh (SQLite: this process; PostgreSQL: the server's backend process,
  read from /proc), and the share of one core 30 boards refreshing every 2 s would take.
- A click's write: one record through a store (what a Recorder's background thread does).
- Roll to board: a Recorder(background=True) writes a roll while a board polls the store every
  2 s from a random phase, as the class board widget does; the time until the board counts it.
  Target 3 s (the widget and the browser add a few tens of ms on top).

Run with `.venv/bin/python -m benchmarks classpool`. PostgreSQL is measured when Debian's
server programs are installed (`make test` installs them); otherwise its rows say why not.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from benchmarks.harness import Result
from henkit.classpool import (
    ClassStore,
    DrawRecord,
    PostgresStore,
    Record,
    Recorder,
    RollRecord,
    SQLiteStore,
    TurnRecord,
    new_page_id,
)
from henkit.classpool.server import throwaway_postgres
from henkit.henpen.dice import FACES
from henkit.henpen.rules import is_bust
from henkit.hens.cards import CARDS

RECORDS = 100_000
STUDENTS = 30
REFRESH = 2.0  # the class board's refresh interval (seconds)
BOARD_CPU_SHARE = 0.25  # target: 30 boards refreshing every 2 s take at most a quarter core
WRITE_MS = 20.0
ROLL_TO_BOARD_S = 3.0


def class_records(n: int, seed: int = 0, students: int = STUDENTS) -> list[Record]:
    """`n` records of a class of `students` pages: mostly rolls, some turns and draws."""
    rng = np.random.default_rng(seed)
    pages = [f"{int(x):016x}" for x in rng.integers(0, 2**63, students)]
    out: list[Record] = []
    for seq in range(n):
        page = pages[seq % students]
        kind = rng.random()
        if kind < 0.8:
            taken = frozenset(int(f) for f in rng.choice(FACES, int(rng.integers(0, 4)),
                                                         replace=False))
            dice = int(rng.integers(1, 9 - len(taken)))
            counts = tuple(int(c) for c in rng.multinomial(dice, [1 / 6] * 6))
            bust = is_bust(counts, tuple(int(f in taken) for f in FACES))
            out.append(RollRecord(dice, counts, taken, bust, page=page, seq=seq))
        elif kind < 0.9:
            total = int(rng.integers(21, 37))
            out.append(TurnRecord("student", total, None, int(rng.integers(21, total + 1)),
                                  page=page, seq=seq))
        else:
            out.append(DrawRecord("deck", CARDS[int(rng.integers(len(CARDS)))].code, 2,
                                  page=page, seq=seq))
    return out


def _backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process on this machine, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _board_figures(store: ClassStore, label: str, backend_pid: int | None) -> list[Result]:
    store.board()
    walls, cpus = [], []
    for _ in range(15):
        cpu0 = _backend_cpu(backend_pid) if backend_pid else time.process_time()
        t0 = time.perf_counter()
        board = store.board()
        walls.append(time.perf_counter() - t0)
        cpu1 = _backend_cpu(backend_pid) if backend_pid else time.process_time()
        cpus.append(cpu1 - cpu0)
    assert board.summary.records == RECORDS, board.summary
    wall, cpu = statistics.median(walls), statistics.mean(cpus)
    share = STUDENTS / REFRESH * max(cpu, wall if backend_pid is None else cpu)
    where = "this process" if backend_pid is None else "the server's backend"
    return [
        Result(f"classpool {label}: board refresh, {RECORDS:,} records", 1000 * wall, "ms",
               note=f"median of 15; database CPU per refresh {1000 * cpu:.1f} ms ({where})"),
        Result(f"classpool {label}: {STUDENTS} boards every {REFRESH:g} s", share, "cores",
               BOARD_CPU_SHARE, higher_is_better=False,
               note=f"{STUDENTS / REFRESH:g} refreshes a second x the CPU of one"),
    ]


def _write_figure(store: ClassStore, label: str) -> Result:
    page = new_page_id()
    times = []
    for seq in range(200):
        record = RollRecord(3, (1, 0, 0, 0, 1, 1), frozenset(), False, page=page, seq=seq)
        t0 = time.perf_counter()
        store.add(record)
        times.append(time.perf_counter() - t0)
    return Result(f"classpool {label}: one click's write", 1000 * statistics.median(times),
                  "ms", WRITE_MS, higher_is_better=False,
                  note=f"95th percentile {1000 * sorted(times)[189]:.1f} ms over 200 writes")


def _roll_to_board(store: ClassStore, reader: ClassStore, label: str, rounds: int = 8) -> Result:
    """Median and slowest time from a page's roll to a board polling every REFRESH s."""
    rng = np.random.default_rng(7)
    recorder = Recorder(store, background=True)
    delays = []
    try:
        for _ in range(rounds):
            before = reader.board().summary.rolls
            seen = threading.Event()
            phase = float(rng.uniform(0, REFRESH))  # where the board is in its cycle

            def board_loop(before: int = before, phase: float = phase,
                           seen: threading.Event = seen) -> None:
                time.sleep(phase)
                while not seen.is_set():
                    if reader.board().summary.rolls > before:
                        seen.set()
                        return
                    time.sleep(REFRESH)

            t0 = time.perf_counter()
            recorder.record(RollRecord(2, (0, 0, 0, 0, 1, 1), frozenset(), False))
            loop = threading.Thread(target=board_loop)
            loop.start()
            loop.join(timeout=30)
            delays.append(time.perf_counter() - t0 if seen.is_set() else float("inf"))
            seen.set()
    finally:
        recorder.close()
    return Result(f"classpool {label}: roll to board (refresh {REFRESH:g} s)",
                  max(delays), "s", ROLL_TO_BOARD_S, higher_is_better=False,
                  note=f"slowest of {rounds}; median {statistics.median(delays):.2f} s; the "
                       "board's refresh interval is most of it")


def _fill(store: ClassStore, records: list[Record]) -> None:
    for i in range(0, len(records), 5_000):
        store.add_many(records[i:i + 5_000])


def _measure(store: ClassStore, reader: ClassStore, label: str,
             backend_pid: int | None) -> list[Result]:
    _fill(store, class_records(RECORDS))
    if isinstance(store, PostgresStore):  # what autovacuum does soon after a bulk load
        with store._connection() as conn:
            conn.execute("VACUUM ANALYZE henkit_records")
    results = _board_figures(reader, label, backend_pid)
    results.append(_write_figure(store, label))
    # The board's figures above need exactly RECORDS records; the write test added 200 more.
    results.append(_roll_to_board(store, reader, label))
    return results


@contextmanager
def _postgres() -> Iterator[str | None]:
    try:
        with throwaway_postgres() as server:
            yield server.url()
    except RuntimeError as e:
        print(f"bench_classpool: PostgreSQL not measured: {e}")
        yield None


def run() -> list[Result]:
    """Every class pool figure, SQLite first, then PostgreSQL when its server can be started."""
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="henkit-bench-pool-") as folder:
        path = Path(folder) / "class.sqlite3"
        with SQLiteStore(path) as store, SQLiteStore(path) as reader:
            results += _measure(store, reader, "SQLite", None)
    with _postgres() as url:
        if url is None:
            return results
        with PostgresStore(url) as store, PostgresStore(url) as reader:
            with reader._connection() as conn:  # the backend serving the board's queries
                pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            results += _measure(store, reader, "PostgreSQL", pid)
    return results
