"""The bot as a separate process, started as production starts it, pointed at the emulator."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.discord_emulator.server import DiscordEmulator

ROOT = Path(__file__).resolve().parents[2]
SYNC_TIMEOUT = 60.0
STOP_TIMEOUT = 60.0


def write_config(
    emulator: DiscordEmulator, scratch: Path, matches: int, pace: int, metrics: bool = False
) -> Path:
    """The production TOML format (see config.example.toml and tests/e2e/conftest.py)."""
    path = scratch / "config.toml"
    path.write_text(
        "\n".join(
            [
                "[discord]",
                f'token = "{emulator.bot_token}"',
                f'api_base = "{emulator.api_base}"',
                f'gateway_url = "{emulator.gateway_url}"',
                f"dev_guild_id = {emulator.guild_id}",
                *([f"requests_per_second = {pace}"] if pace else []),
                "[database]",
                f'path = "{scratch / "bot_load.sqlite3"}"',
                "[matches]",
                "ai_move_delay_seconds = 0",
                f"max_active_matches = {max(5, matches)}",
                # Scripted members play match after match; the abuse limits would stop them.
                "max_new_matches_per_hour = 1000000",
                "challenge_cooldown_seconds = 0",
                # Any free loopback port; its address is read from the bot's log.
                *(["[metrics]", "port = 0"] if metrics else []),
            ]
        )
        + "\n"
    )
    return path


async def start_bot(
    config: Path, log_path: Path, profile_dir: Path | None
) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    # DISCORD_TOKEN wins over the file and would send the bot's login elsewhere.
    env.pop("DISCORD_TOKEN", None)
    # CPU time, not wall time: see bench/load/cpu_profiled_bot.py.
    entry = (
        ["bench.load.cpu_profiled_bot", str(profile_dir / "bot.prof")] if profile_dir else ["bot"]
    )
    with log_path.open("wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            *entry,
            "--config",
            str(config),
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
        )


class BotDidNotStart(RuntimeError):
    """The bot exited, or hung, before it was ready; the message ends with its own last line."""


async def wait_for_sync(
    emulator: DiscordEmulator, bot: asyncio.subprocess.Process, log_path: Path
) -> None:
    """Until the bot has synced /hanamikoji to the guild (the last step of its setup)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + SYNC_TIMEOUT
    guild = emulator.guild_id
    while not any(c.get("name") == "hanamikoji" for c in emulator.commands.listed(guild)):
        if bot.returncode is not None:
            raise BotDidNotStart(
                f"the bot exited with {bot.returncode} before syncing commands: "
                f"{last_line(log_path)}"
            )
        if loop.time() > give_up:
            raise BotDidNotStart(
                f"the bot did not sync its commands within {SYNC_TIMEOUT:g} s: "
                f"{last_line(log_path)}"
            )
        await asyncio.sleep(0.05)


def last_line(log_path: Path) -> str:
    """What the bot said last, which says why it stopped (its errors are one line)."""
    lines = log_path.read_text(errors="replace").strip().splitlines()
    return lines[-1] if lines else "(it printed nothing)"


async def stop_bot(bot: asyncio.subprocess.Process) -> int | None:
    """SIGTERM, as a service manager stops it; the bot finishes in-flight work and exits."""
    if bot.returncode is not None:
        return bot.returncode
    bot.send_signal(signal.SIGTERM)
    try:
        async with asyncio.timeout(STOP_TIMEOUT):
            return await bot.wait()
    except TimeoutError:
        bot.kill()
        await bot.wait()
        return None


def log_problems(log_path: Path) -> list[str]:
    lines = log_path.read_text(errors="replace").splitlines()
    return [
        line
        for line in lines
        if any(level in line for level in (" WARNING ", " ERROR ", " CRITICAL ", "Traceback"))
    ]
