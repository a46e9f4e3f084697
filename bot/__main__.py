"""Run the Hanamikoji Discord bot: ``python -m bot [--config config.toml]
[--shards 0-3 --shard-count 8]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import discord

from bot.config import NO_TOKEN, BotConfig, ConfigError, load_config, masked_url
from bot.operations.http_endpoints import MetricsPortRefused
from bot.operations.json_logs import configure_logging
from engine.command_line import CommandLineParser, count
from engine.service import StoreError

log = logging.getLogger("bot")


MOST_SHARDS = 1_000_000
"""More shards than any bot has: a count above it is a typo, not a plan."""


def build_parser() -> argparse.ArgumentParser:
    parser = CommandLineParser(
        prog="python -m bot",
        description=(
            "Run the Hanamikoji Discord bot. The token comes from DISCORD_TOKEN (which wins) "
            "or [discord] token in the config file; every other setting is documented in "
            "config.example.toml."
        ),
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="TOML settings file (default: config.toml if it exists, else built-in defaults)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help=(
            "check the settings and open the database as the bot would (creating and "
            "migrating it if need be), then exit without connecting to Discord; a missing "
            "token is only a warning here; exit status 2 for a bad setting, 1 for a "
            "database that cannot be used"
        ),
    )
    parser.add_argument(
        "--shards",
        metavar="N|A-B",
        default=None,
        help=(
            "run only these shards, e.g. 0-3 (needs --shard-count or [discord] shard_count); "
            "wins over [discord] shards; default: every shard"
        ),
    )
    parser.add_argument(
        "--shard-count",
        metavar="COUNT",
        type=count(1, MOST_SHARDS),
        default=None,
        help=(
            "the bot's shards in all, over every process; wins over [discord] shard_count; "
            "default: what Discord recommends"
        ),
    )
    return parser


async def open_database(config: BotConfig) -> None:
    """Open (creating and migrating, as the bot does) and close the configured database.

    Raises :class:`~engine.service.StoreError` naming the database and what is wrong.
    """
    from bot.client import build_store

    store = build_store(config)
    try:
        await store.open()
    finally:
        await store.close()


def database_name(config: BotConfig) -> str:
    """The database as logs may show it: a PostgreSQL URL without its password."""
    if config.database.url is not None:
        return masked_url(config.database.url)
    return config.database.path


async def run(config: BotConfig) -> int:
    configure_logging(config.logging.level, config.logging.format)
    try:
        # Before logging in, so a bad path stops the bot without a trip to Discord.
        await open_database(config)
    except StoreError as error:
        log.error("%s", error)
        return 1
    from bot.client import HanamikojiBot, point_at_discord

    point_at_discord(config)
    quiet_voice_warnings()
    bot = HanamikojiBot(config)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        # Graceful: in-flight decisions finish and commit, then the database closes.
        loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(config.discord.token)
    except StoreError as error:  # the database changed under us since the check above
        log.error("%s", error)
        return 1
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (developer portal → Bot)")
        return 1
    except MetricsPortRefused as error:
        log.error("%s", error)
        return 1
    except (OSError, aiohttp.ClientError) as error:
        log.error("cannot reach Discord at %s: %s", config.discord.api_base, error)
        return 1
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        log.error("Discord refused a privileged intent")
        return 1
    return 0


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (not on Windows), else asyncio's.

    The bot's own CPU goes mostly to the event loop and its sockets (every click is a few
    HTTP requests and gateway messages); uvloop, a drop-in loop on libuv, does that work
    in C. Measured with bench/bot_load.py: see docs/benchmarks.md."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def quiet_voice_warnings() -> None:
    """discord.py warns at every start that voice needs PyNaCl and davey; this bot never
    joins a voice channel, so those two warnings (and only they) are turned off."""
    for flag in ("warn_nacl", "warn_dave"):  # warn_dave exists from discord.py 2.6
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


def check_database(config: BotConfig) -> int:
    """``--check``'s verdict on the database: one line, and the exit status."""
    path = config.database.path
    postgres = config.database.url is not None
    existed = postgres or (os.path.isfile(path) and os.path.getsize(path) > 0)
    try:
        asyncio.run(open_database(config))
    except StoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    what = "PostgreSQL database" if postgres else "database"
    shown = database_name(config)
    print(f"settings OK; {what} {shown!r} {'opened' if existed else 'created'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    path = args.config
    if path is None and Path("config.toml").exists():
        path = Path("config.toml")
    overrides: dict[str, object] = {}
    if args.shards is not None:
        overrides["shards"] = args.shards
    if args.shard_count is not None:
        overrides["shard_count"] = args.shard_count
    try:
        config = load_config(path, discord_overrides=overrides, require_token=not args.check)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.check:
        if not config.discord.token:
            # An admin may check the settings and the database before the application exists.
            print(f"warning: {NO_TOKEN}; the bot will not start without one", file=sys.stderr)
        return check_database(config)
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        return runner.run(run(config))


if __name__ == "__main__":
    sys.exit(main())
