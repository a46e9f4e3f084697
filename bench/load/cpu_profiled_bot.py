"""``python -m bench.load.cpu_profiled_bot PROF_PATH [bot arguments]``: the bot under
cProfile timed by the process's CPU clock, written to PROF_PATH when the bot exits.

``python -m cProfile`` times by the wall clock, so on a shared machine every wait for the
other cores (and every await on I/O) is charged to whatever function was running; the
benchmark asks where the bot's CPU goes, and ``time.process_time`` answers exactly that.
"""

from __future__ import annotations

import cProfile
import runpy
import sys
import time


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -m bench.load.cpu_profiled_bot PROF_PATH [bot arguments]")
    prof_path = sys.argv[1]
    sys.argv = ["bot", *sys.argv[2:]]
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    try:
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
    finally:
        profiler.disable()
        profiler.dump_stats(prof_path)


if __name__ == "__main__":
    main()
