"""Run the Hanamikoji Discord bot: ``python -m bot [--config config.toml]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import aiohttp
import discord

from bot.config import ConfigError, load_config
from engine.store.errors import StoreError
from engine.store.sqlite import SqliteMatchStore

log = logging.getLogger("bot")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
            "migrating it if need be), then exit without connecting to Discord; exit "
            "status 2 for a bad setting, 1 for a database that cannot be used"
        ),
    )
    return parser


async def open_database(path: str) -> None:
    """Open (creating and migrating, as the bot does) and close the database at ``path``.

    Raises :class:`~engine.store.errors.StoreError` naming the path and what is wrong.
    """
    store = SqliteMatchStore(path)
    try:
        await store.open()
    finally:
        await store.close()


async def run(config_path: Path | None) -> int:
    config = load_config(config_path)
    logging.basicConfig(
        level=config.logging.level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        # Before logging in, so a bad path stops the bot without a trip to Discord.
        await open_database(config.database.path)
    except StoreError as error:
        log.error("%s", error)
        return 1
    from bot.client import HanamikojiBot, point_at_discord

    point_at_discord(config)
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
    except (OSError, aiohttp.ClientError) as error:
        log.error("cannot reach Discord at %s: %s", config.discord.api_base, error)
        return 1
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        log.error("Discord refused a privileged intent")
        return 1
    return 0


def check_database(path: str) -> int:
    """``--check``'s verdict on the database: one line, and the exit status."""
    existed = os.path.isfile(path) and os.path.getsize(path) > 0
    try:
        asyncio.run(open_database(path))
    except StoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"settings OK; database {path!r} {'opened' if existed else 'created'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    path = args.config
    if path is None and Path("config.toml").exists():
        path = Path("config.toml")
    try:
        config = load_config(path)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.check:
        return check_database(config.database.path)
    try:
        return asyncio.run(run(path))
    except ConfigError as error:  # pragma: no cover - checked above
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
