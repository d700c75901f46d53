"""`python -m henkit` is the `henkit` command."""

import sys

from henkit.cli import main

sys.exit(main())
