"""What a page's recorder has to say reaches the server's log: a real Python process (as a
dashboard kernel) whose stderr is the "server's log", its pool unreachable, then back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from henkit.classpool import SQLiteStore

PAGE = """
import os, sys, time
from henkit.classpool import RollRecord, page_recorder, close_page_recorder
rec = page_recorder()
print(rec.page, flush=True)
rec.record(RollRecord(8, (8, 0, 0, 0, 0, 0), frozenset(), False))
assert not rec.flush()          # the pool's folder is a file: offline
os.remove(sys.argv[1])          # the folder can be made now: back online at the next write
rec.record(RollRecord(8, (8, 0, 0, 0, 0, 0), frozenset(), False))
assert rec.flush(), rec.last_error
close_page_recorder()
"""


def test_a_page_going_offline_and_back_is_logged_on_the_servers_log(tmp_path: Path) -> None:
    """The page's recorder of a kernel whose pool cannot be reached: the kernel's stderr (which
    the dashboard server logs) says the pool went offline, for which page and why, then that it
    is back; the records kept meanwhile are written."""
    blocker = tmp_path / "data"
    blocker.write_text("a file where the pool's folder should be")
    pool = blocker / "class.sqlite3"
    env = {**os.environ, "HENKIT_CLASS_DB": str(pool)}
    done = subprocess.run([sys.executable, "-c", PAGE, str(blocker)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    page = done.stdout.split()[0]
    log = done.stderr.splitlines()
    offline = [line for line in log if "class pool offline" in line]
    assert len(offline) == 1 and page in offline[0] and str(pool) in offline[0], log
    back = [line for line in log if "back online" in line]
    assert len(back) == 1 and page in back[0], log
    assert log.index(offline[0]) < log.index(back[0])
    store = SQLiteStore(pool)
    assert sum(1 for r in store.records() if r.page == page) == 2
    store.close()
