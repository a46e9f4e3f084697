"""One run: the emulator and its members, the bot process, every match, then the report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from pathlib import Path

from tests.discord_emulator.server import DiscordEmulator

from .bot_process import (
    BotDidNotStart,
    last_line,
    start_bot,
    stop_bot,
    wait_for_sync,
    write_config,
)
from .match_script import play_all
from .measurements import LoopLag, RequestRate, Stats, machine_busy, own_cpu, process_cpu
from .message_watch import MessageWatch
from .metrics_scrape import Scrapes, bot_figures, last_scrape, metrics_address, scrape_every
from .report import report


async def run(args: argparse.Namespace, scratch: Path, profile_dir: Path | None) -> int:
    emulator = DiscordEmulator(member_names=())
    await emulator.start()
    bot: asyncio.subprocess.Process | None = None
    exit_code: int | None = None
    log_path = scratch / "bot.log"
    try:
        for i in range(2 * args.matches):
            emulator.add_user(f"p{i:04d}")
        watch = MessageWatch(emulator)
        config = write_config(emulator, scratch, args.matches, args.pace, args.metrics)
        bot = await start_bot(config, log_path, profile_dir)
        await wait_for_sync(emulator, bot, log_path)
        scrapes = Scrapes()
        scraper: asyncio.Task[None] | None = None
        address = None
        if args.metrics:
            address = metrics_address(log_path)
            if address is None:
                raise BotDidNotStart(f"the bot opened no metrics port: {last_line(log_path)}")
            scraper = asyncio.create_task(scrape_every(address, scrapes))
        stats = Stats()
        lag = LoopLag()
        lag.start()
        rate = RequestRate(lambda: emulator.rate_limits.stats.global_counted, bot.pid)
        rate.start()
        loop = asyncio.get_running_loop()
        started, bench_cpu, bot_cpu = loop.time(), own_cpu(), process_cpu(bot.pid)
        busy = machine_busy()
        in_time = await play_all(emulator, watch, stats, args)
        wall = loop.time() - started
        bench_cpu, bot_cpu = own_cpu() - bench_cpu, process_cpu(bot.pid) - bot_cpu
        # Other processes on the machine compete for the same cores and skew the figures.
        others = max(0.0, machine_busy() - busy - bench_cpu - bot_cpu)
        lag.stop()
        rate.stop()
        if scraper is not None:
            scraper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await scraper
        if address is not None:
            await last_scrape(address, scrapes)
        await asyncio.sleep(0.5)  # let late followups land, so their refusals are counted
        exit_code = await stop_bot(bot)
    finally:
        if bot is not None and bot.returncode is None:
            bot.kill()
            await bot.wait()
        await emulator.stop()
    status = report(
        args,
        stats,
        emulator,
        in_time,
        wall,
        (bench_cpu, bot_cpu, others),
        (lag, rate),
        exit_code,
        log_path,
    )
    if args.metrics:
        slowest = max(scrapes.seconds, default=0.0)
        print(
            f"metrics: {scrapes.count} scrapes of /metrics (slowest {slowest * 1000:.0f} ms); "
            f"the bot's own figures: {bot_figures(scrapes.last)}"
        )
        if not scrapes.count:
            print("metrics: no scrape succeeded")
            return 1
    return status
