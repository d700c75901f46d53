"""An SQLite pool file deleted or replaced under a running server (a real file, real writers):
the writers notice before their next write, stop, keep their records, log it, and what the lost
file held is saved beside it; a new page does not start an empty pool beside the old log."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest

from henkit.classpool import (
    Recorder,
    RollRecord,
    SQLiteStore,
    StoreError,
    StoreReplaced,
    new_page_id,
)


def first_roll(worms: int) -> RollRecord:
    return RollRecord(8, (8 - worms, 0, 0, 0, 0, worms), frozenset(), False)


@pytest.fixture
def pool(tmp_path: Path) -> Path:
    """A class pool file as `make serve` makes it (schema and a session) before pages open."""
    path = tmp_path / "data" / "class.sqlite3"
    store = SQLiteStore(path)
    store.current_session()
    store.close()
    return path


def lost_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("class.sqlite3.lost-*"))


def test_a_deleted_pool_file_stops_the_writers_and_nothing_is_lost_silently(
        pool: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Two pages write 30 rolls; the file is deleted (rm); the next records: each page's store
    refuses (StoreReplaced, not a new file), the recorder stops writing and keeps them
    (pending), the server's log says so with the file's place, the 30 rolls are saved once in
    a .lost- file beside it, and no new pool file appears."""
    caplog.set_level(logging.INFO, logger="henkit.classpool")
    pages = [Recorder(SQLiteStore(pool)) for _ in range(2)]
    for rec in pages:
        rec.record_many([first_roll(k % 9) for k in range(15)])
        assert rec.written == 15
    os.unlink(pool)
    for rec in pages:
        rec.record_many([first_roll(1) for _ in range(4)])
        assert not rec.online and rec.stopped and "deleted" in rec.stopped
        assert rec.pending == 4 and rec.written == 15  # kept, not written anywhere
        assert rec.flush() is False  # and it stays stopped: no write goes to a new file
        assert rec.pending == 4
    assert not pool.exists()
    (saved,) = lost_files(pool.parent)
    rescued = SQLiteStore(saved)
    assert rescued.board().summary.rolls == 30
    rescued.close()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(str(pool) in m and "deleted" in m and str(saved) in m for m in errors), errors
    assert sum("stops writing" in m for m in errors) == 2
    caplog.clear()
    for rec in pages:
        rec.close()  # the kernel ends: what it never wrote is said, not dropped in silence
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("4 records never written" in m for m in warnings) == 2
    for rec in pages:
        rec.store.close()  # type: ignore[union-attr]


def test_a_new_page_does_not_start_a_new_pool_beside_the_old_log(pool: Path) -> None:
    """While a writer still has the deleted file open its log (-wal) stays: a page that opens
    now gets StoreReplaced, not an empty pool of its own."""
    writer = SQLiteStore(pool)
    writer.add(first_roll(2).stamped(page=new_page_id(), seq=0))
    os.unlink(pool)
    assert pool.with_name("class.sqlite3-wal").exists()
    newcomer = SQLiteStore(pool)
    with pytest.raises(StoreReplaced, match="missing but its write-ahead log"):
        newcomer.board()
    assert not pool.exists()
    writer.close()
    # The server restarted: the log of the deleted file is still there (SQLite keeps it), so a
    # new pool is refused until someone moves it away, and the message says how.
    assert pool.with_name("class.sqlite3-wal").exists()
    with pytest.raises(StoreReplaced, match="move class.sqlite3-wal and class.sqlite3-shm away"):
        SQLiteStore(pool).new_session()
    for leftover in ("class.sqlite3-wal", "class.sqlite3-shm"):
        pool.with_name(leftover).unlink(missing_ok=True)
    fresh = SQLiteStore(pool)
    assert fresh.board().summary.records == 0  # moved away: a new pool, said by the person
    fresh.close()


def test_a_replaced_pool_file_is_noticed_and_the_board_read_refused(pool: Path,
                                                                     tmp_path: Path) -> None:
    """Another pool file moved into its place: writes and board reads are refused (the board
    would show another pool's counts as this class's), the old file's records are saved."""
    store = SQLiteStore(pool)
    page = new_page_id()
    store.add_many([first_roll(3).stamped(page=page, seq=i) for i in range(5)])
    other = tmp_path / "other.sqlite3"
    elsewhere = SQLiteStore(other)
    elsewhere.add_many([first_roll(8).stamped(page=page, seq=i) for i in range(99)])
    elsewhere.close()
    content = other.read_bytes()
    shutil.move(other, pool)
    with pytest.raises(StoreReplaced, match="replaced by another file"):
        store.add(first_roll(1).stamped(page=page, seq=100))
    with pytest.raises(StoreReplaced):
        store.board()
    with pytest.raises(StoreError):  # for good: a later call does not open the new file
        store.new_session()
    (saved,) = lost_files(pool.parent)
    assert SQLiteStore(saved).board().summary.rolls == 5
    assert pool.read_bytes() == content  # nothing was written into the file put in its place
    store.close()


def test_a_background_page_recorder_notices_it_too(pool: Path) -> None:
    """The page's background writer (as a dashboard kernel has): after the file is deleted its
    thread stops writing, keeps the records and flags it."""
    rec = Recorder(SQLiteStore(pool), background=True, retry_interval=0)
    try:
        rec.record_many([first_roll(1) for _ in range(3)])
        assert rec.flush() and rec.written == 3
        os.unlink(pool)
        rec.record_many([first_roll(2) for _ in range(2)])
        assert rec.flush() is False
        assert rec.stopped is not None and rec.pending == 2 and rec.written == 3
        assert not pool.exists()
    finally:
        rec.close()
        rec.store.close()  # type: ignore[union-attr]
