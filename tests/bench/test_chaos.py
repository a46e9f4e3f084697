"""bench/chaos's own pieces that need no bot: the process family, acknowledgements, options.

The run itself (`python -m bench.chaos`) takes minutes and is not part of the suite."""

import os
import subprocess
import sys

from bench.chaos.audit import _ack_text_fits
from bench.chaos.bot_process import descendants
from bench.chaos.options import parse_options


def test_descendants_are_found_through_their_parents_and_die_when_killed():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        family = descendants(os.getpid())
        (found,) = [p for p in family if p.pid == child.pid]
        assert found.alive()
        found.kill()
        child.wait(timeout=10)
        assert not found.alive()
    finally:
        child.kill()
        child.wait()


def test_an_acknowledgement_names_its_own_decision_only():
    assert _ack_text_fits((1, 4, "3CDE"), "✅ Gift: C D E (3CDE)")
    assert not _ack_text_fits((1, 4, "3CDE"), "✅ Gift: C D G (3CDG)")
    assert _ack_text_fits((1, 5, "-E"), "✅ You took E.")
    assert not _ack_text_fits((1, 5, "-AB"), "✅ You took E.")


def test_the_defaults_are_the_documented_run():
    args = parse_options("chaos", [])
    assert (args.matches, args.kills, args.seed) == (40, 60, 1)
