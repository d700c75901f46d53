"""Settings for the whole test session."""

import os
import shutil
import tempfile

# Whatever the tests and the processes they start (Voilà servers and their homes, notebook
# kernels and their demo class pools, Chromium's profiles, pytest's tmp_path) put in a temporary
# folder goes under one folder of this session's own, removed when the session ends: a kernel
# killed at the end of a notebook run cannot remove its own, and each run of the suite left its
# servers' homes (4 MB each), its class pool and a notebook's demo pool behind in /tmp.
_SESSION_TMP = tempfile.mkdtemp(prefix="henkit-tests-")
# Others may pass through but not list it: run as root, the class pool's PostgreSQL test server
# runs as the postgres user and must reach its data folder inside (henkit/classpool/server.py).
os.chmod(_SESSION_TMP, 0o711)
os.environ["TMPDIR"] = _SESSION_TMP  # inherited by every process the tests start
tempfile.tempdir = _SESSION_TMP


def pytest_unconfigure(config) -> None:
    """Remove the session's temporary folder (every server and kernel has stopped by now)."""
    shutil.rmtree(_SESSION_TMP, ignore_errors=True)


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
