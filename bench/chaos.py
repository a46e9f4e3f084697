"""Chaos run: the bot SIGKILLed at random moments, and what was lost (see bench/chaos/).

python bench/chaos.py [options]      (the same as: python -m bench.chaos [options])
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The emulator lives in tests/ and the run's pieces in bench/chaos/, neither an installed
# package; make `python bench/chaos.py` import them from the repository root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.chaos.run import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
