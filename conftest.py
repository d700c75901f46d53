"""Settings for the whole test session."""

import os

# Tests play their tournaments: a game read from henkit's shared results cache would let a test
# of the engines, the executors or a notebook pass without running what it checks. The notebook
# kernels (nbval) and Voilà servers the tests start inherit this. The cache's own tests turn it
# back on in a temporary directory.
os.environ["HENKIT_CACHE"] = "off"
