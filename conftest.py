"""Settings for the whole test session."""

import os
import shutil
import tempfile

# Whatever the tests and the processes they start (Voilà servers and their homes, notebook
# kernels and their demo class pools, Chromium's profiles, pytest's tmp_path) put in a temporary
# folder goes under one folder of this session's own, removed when the session's process exits:
# a kernel killed at the end of a notebook run cannot remove its own folder, and nothing else
# would remove a server's home (4 MB) or the session's class pool. A failed test's tmp_path goes
# with it: rerun that test alone with --basetemp=DIR to keep it.
_SESSION_TMP = tempfile.mkdtemp(prefix="henkit-tests-")
# Others may pass through but not list it: run as root, the class pool's PostgreSQL test server
# runs as the postgres user and must reach its data folder inside (henkit/classpool/server.py).
os.chmod(_SESSION_TMP, 0o711)
os.environ["TMPDIR"] = _SESSION_TMP  # inherited by every process the tests start
tempfile.tempdir = _SESSION_TMP


def pytest_unconfigure(config) -> None:
    """Remove the session's temporary folder as the process exits, after multiprocessing has
    removed the folder it keeps in there (a process pool's tests start one)."""
    from multiprocessing import util

    # multiprocessing removes its own folder at exit priority -100; a lower priority runs later.
    util.Finalize(None, shutil.rmtree, args=(_SESSION_TMP,), kwargs={"ignore_errors": True},
                  exitpriority=-200)


# Tests play their tournaments: a game read from henkit's shared results cache would let a test
# of the engines, the executors or a notebook pass without running what it checks. The notebook
# kernels (nbval) and Voilà servers the tests start inherit this. The cache's own tests turn it
# back on in a temporary directory.
os.environ["HENKIT_CACHE"] = "off"

# Every widget writes to the class pool (henkit.classpool). The notebooks (nbval), the Voilà
# servers and the widget tests write to a pool of this test session's own, never to a real
# class's; tests that check where the pool is found set or unset this themselves.
_POOL_DIR = tempfile.mkdtemp(prefix="henkit-test-pool-")
os.environ["HENKIT_CLASS_DB"] = os.path.join(_POOL_DIR, "class.sqlite3")


def pytest_collection_modifyitems(config, items) -> None:
    """Mark every test that starts a PostgreSQL server (through the class pool's fixtures, or
    the "postgres" side of a store test) `postgres`, so that `make check` can leave them out."""
    import pytest

    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        param = getattr(getattr(item, "callspec", None), "params", {}).get("target")
        if {"postgres_server", "find_postgres"} & names or param == "postgres":
            item.add_marker(pytest.mark.postgres)
