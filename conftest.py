"""Settings for the whole test session."""

import os
import tempfile

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
