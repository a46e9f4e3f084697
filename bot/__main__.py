"""Run the Hanamikoji Discord bot: ``python -m bot [--config config.toml]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

import aiohttp
import discord

from bot.config import ConfigError, load_config

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
    parser.add_argument("--check", action="store_true", help="check the settings and exit")
    return parser


async def run(config_path: Path | None) -> int:
    from bot.client import HanamikojiBot, point_at_discord

    config = load_config(config_path)
    logging.basicConfig(
        level=config.logging.level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    point_at_discord(config)
    bot = HanamikojiBot(config)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        # Graceful: in-flight decisions finish and commit, then the database closes.
        loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(config.discord.token)
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
        print(f"settings OK; database {config.database.path!r}")
        return 0
    try:
        return asyncio.run(run(path))
    except ConfigError as error:  # pragma: no cover - checked above
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
