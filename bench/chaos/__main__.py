"""``python -m bench.chaos``: see bench/chaos/__init__.py."""

import sys

from bench.chaos.run import main

sys.exit(main())
