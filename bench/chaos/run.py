"""One chaos run, start to finish: the emulator and its members, the bot process and its
kills, every match, the catch-up, the audit and the report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import sys
import tempfile
import warnings
from pathlib import Path

import bench.chaos
from bench.load.measurements import Stats
from bench.load.message_watch import MessageWatch
from bench.load.player_profile import PlayerProfile
from engine.command_line import description, fail
from tests.discord_emulator.server import DiscordEmulator

from .audit import audit
from .bot_process import BotRuns, ProcessId, descendants, write_config
from .database import read_database
from .emulator_watch import AckWatch
from .kills import Killer
from .options import parse_options
from .players import BotState, ChaosPair, ClickLog
from .report import RunFacts, report

SETTLE_QUIET = 3.0  # the bot silent this long (after the players stop) before SIGTERM
SETTLE_MAX = 30.0


async def run(args: argparse.Namespace, scratch: Path, command: str) -> int:
    # Each failed interaction is a recorded failure, counted in the report; not a log line.
    logging.getLogger("tests.discord_emulator").setLevel(logging.CRITICAL)
    # A request cut off by a kill is an error to aiohttp's server; here it is the point.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    # A player cancelled at the end while thinking leaves its click coroutine unawaited.
    warnings.filterwarnings("ignore", "coroutine .* was never awaited", RuntimeWarning)
    loop = asyncio.get_running_loop()
    load_before = os.getloadavg()
    began = loop.time()
    emulator = DiscordEmulator(member_names=())
    await emulator.start()
    # Every limit as on Discord: the bot sends its commands only when they change, so 60
    # restarts do not meet the command-sync bucket.
    relaxed = "every emulator limit as on Discord"
    for i in range(2 * args.matches):
        emulator.add_user(f"p{i:04d}")
    channels = [emulator.channel.id] + [
        (await emulator.add_text_channel(f"games-{i}")).id for i in range(1, args.channels)
    ]
    database = scratch / "chaos.sqlite3"
    runs = BotRuns(
        write_config(emulator, database, turn_timer=args.turn_timer, matches=args.matches),
        scratch,
    )
    bot = BotState()
    killer = Killer(
        emulator,
        runs,
        bot,
        kills=args.kills,
        seed=args.seed,
        mean_gap=args.mean_gap,
        ack_share=args.ack_share,
        startup_share=args.startup_share,
        orphan_wait=args.orphan_wait,
    )
    watch = MessageWatch(emulator)
    acks = AckWatch(emulator, killer.on_ack)
    clicks = ClickLog()
    stats = Stats()
    pace = argparse.Namespace(profile="capacity", think_ms=args.think_ms, ramp=0, duration=0)
    profile = PlayerProfile(pace, loop.time())
    pairs = [
        ChaosPair(
            emulator,
            watch,
            stats,
            i,
            args,
            profile,
            channels[i % len(channels)],
            bot=bot,
            clicks=clicks,
        )
        for i in range(args.matches)
    ]
    exit_code: int | None = None
    left_after_sigterm: list[ProcessId] = []
    tasks = [asyncio.create_task(pair.play()) for pair in pairs]
    try:
        await killer.run()
        bot.kills_over.set()
        chaos_seconds = loop.time() - began
        _, unfinished = await asyncio.wait(tasks, timeout=args.catch_up)
        for task in unfinished:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(TimeoutError):
            await emulator.idle(quiet=SETTLE_QUIET, max_wait=SETTLE_MAX)
        final = runs.pid
        family = descendants(final) if final is not None else []
        exit_code = await runs.stop()
        await asyncio.sleep(args.orphan_wait)
        left_after_sigterm = [p for p in family if p.alive()]
        await killer.orphan_checks_done()
    finally:
        for task in tasks:
            task.cancel()
        if runs.pid is not None:
            runs.kill()
            await runs.reap()
        await emulator.stop()
    stored = read_database(database)
    figures = audit(emulator, stored, clicks.clicks, acks)
    leftovers = {p for kill in killer.kills for p in kill.orphans if p.alive()}
    leftovers |= {p for p in left_after_sigterm if p.alive()}
    for process in leftovers:  # the bot's children, started by this run: leave none behind
        process.kill()
    facts = RunFacts(
        command=command,
        wall=loop.time() - began,
        chaos_seconds=chaos_seconds,
        load_before=load_before,
        load_after=os.getloadavg(),
        startup_seconds=runs.startup_seconds,
        exits=killer.exits,
        exit_code=exit_code,
        left_after_sigterm=len(left_after_sigterm),
        orphans_at_end=len(leftovers),
        integrity=stored.integrity,
        log_paths=runs.log_paths,
        relaxed=relaxed,
    )
    report(args, facts, figures, killer.kills, pairs, emulator, clicks.clicks)
    if figures.acknowledged == 0:
        return fail("python -m bench.chaos", "no decision was acknowledged: nothing measured")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_options(description(bench.chaos.__doc__), argv)
    command = shlex.join(["python", "-m", "bench.chaos", *argv])
    keep = os.environ.get("CHAOS_KEEP")
    if keep:
        scratch = Path(keep).resolve()
        scratch.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run(args, scratch, command))
    with tempfile.TemporaryDirectory(prefix="chaos.") as directory:
        return asyncio.run(run(args, Path(directory), command))
