"""Bot under load: N concurrent matches through the Discord emulator against one bot process.

    python bench/bot_load.py [--profile human|capacity] [--matches 200] [--seed 1]
                             [--duration 300] [--ramp 60] [--limit N] [--think-ms 500]
                             [--timeout 900] [--metrics]

The emulator enforces Discord's rate limits (the global 50 requests/s, per-route buckets,
see tests/discord_emulator/README.md), so the figures are those the bot would reach on
Discord.

Two player profiles:

- ``human`` (the default): people. Matches start spread over ``--ramp`` seconds (200 matches
  in a server are not started in the same second) and play for ``--duration`` seconds.
  Before each decision (pressing Hand, or taking from an offer) a player thinks for a time
  drawn from a log-normal distribution with a median of 6 s (σ = 0.75: a quarter of the
  decisions under 3.6 s, one in twenty over 20 s; capped at 60 s); each further click of
  the same decision (the action, the cards, Confirm) takes a log-normal 1 s (σ = 0.5).
  Think times in card games are right-skewed, many quick moves and a long tail, which a
  log-normal models; a 6 s median is our assumption for a light card game played in a
  chat app, not a measured figure. Targets: 0 failed interactions, p99 first response
  < 250 ms, p99 board < 2 s, and no global-limit 429 (the bot paces itself).
- ``capacity``: the closed loop of the first load test. Every pair starts at once and plays
  its whole match, thinking uniform 0..2x ``--think-ms`` before each click (500 ms; ``0``
  is saturation). It measures throughput, not what players see.

The emulator (``tests/discord_emulator``) runs in this process with 2N members; the bot runs
as one separate process started exactly as production starts it, ``python -m bot --config
FILE``, with a config that points it at the emulator, a fresh SQLite file and no AI pause.
Pair i challenges, accepts and plays through the UI only: it reads whose turn it is from
the public board, then presses Hand, an action, random cards and Confirm, or a random
"Take …" on the board. Matches are spread over ``--channels`` text channels (20), as a
bot with hundreds of matches is in many servers: Discord limits each channel on its own
(5 messages, 5 edits and 5 new threads per 5 s, tests/discord_emulator/rate_limits.py),
and the bot as a whole to 50 requests a second. ``--limit`` caps how many matches run at a
time. ``--seed`` fixes the players' choices and think times; the bot deals its own random
cards.

Prints decisions/s; the bot's requests to Discord per decision, the rate-limited ones apart
from the exempt interaction callbacks and webhooks; the 429s it received by scope; p50/p99
time to first response over every interaction (dispatch until the bot's first callback,
Discord's 3-second clock); p50/p99 time from a Confirm/Take click until the board message
shows the new state, for the clicks made while matches start (``--ramp``) and after; a
match's opening (Accept click until its board is in its thread); a timeline of 30 s windows
(rate-limited requests arriving each second, the bot's own process's CPU, the board and
opening latencies); the bot's pacer figures from its log at exit (how many requests of each
urgency waited for its pace, and how long); the failed interactions (everything the
emulator refused, 3-second misses included); where the CPU went, and the CPU seconds of the
bot and its workers per decision. Targets: p99 first response < 250 ms, p99 board update <
2 s, no failed interaction, no global 429, at most 20 ms of CPU per decision. Exit status 1
if a target is missed, a match broke or no decision was measured.

``--metrics`` runs the bot with ``[metrics] port = 0`` and scrapes its /metrics every 5 s
(bench/load/metrics_scrape.py), then prints the bot's own count of decisions and p99 first
response beside the benchmark's: run the same options with and without to see what
measuring costs.

``BOT_LOAD_PROFILE=DIR`` runs the bot under cProfile timed by its CPU clock
(bench/load/cpu_profiled_bot.py; ``DIR/bot.prof``, written when it exits on SIGTERM) and
profiles this process too (``DIR/bench.prof``); cProfile slows both,
so use it for where the time goes, not for the figures.

This script is the entry point; the benchmark's pieces are in bench/load/: ``options``
(the command line), ``player_profile`` (think times), ``message_watch`` (what the bot
wrote, and when), ``match_script`` (the scripted pairs), ``bot_process`` (starting and
stopping ``python -m bot``), ``measurements`` (latencies, loop lag, CPU), ``report`` (the
figures and targets) and ``benchmark`` (one run, start to finish).
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The emulator lives in tests/ and the benchmark's pieces in bench/load/, neither an
# installed package; make `python bench/bot_load.py` import them from the repository root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load.benchmark import run  # noqa: E402
from bench.load.bot_process import BotDidNotStart  # noqa: E402
from bench.load.options import parse_options  # noqa: E402
from engine.command_line import description, fail  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """The benchmark; its exit status (1: a target missed or the bot did not start)."""
    args = parse_options(description(__doc__), argv)
    profile = os.environ.get("BOT_LOAD_PROFILE")
    profile_dir = Path(profile).resolve() if profile else None
    if profile_dir is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
    profiler = cProfile.Profile() if profile_dir else None
    with tempfile.TemporaryDirectory(prefix="bot_load.") as scratch:
        if profiler is not None:
            profiler.enable()
        try:
            status = asyncio.run(run(args, Path(scratch), profile_dir))
        except BotDidNotStart as error:
            return fail("bench/bot_load.py", str(error))
        if profiler is not None and profile_dir is not None:
            profiler.disable()
            profiler.dump_stats(profile_dir / "bench.prof")
    return status


if __name__ == "__main__":
    sys.exit(main())
