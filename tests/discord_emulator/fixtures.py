"""Pytest fixtures; another test package uses them by putting

    from tests.discord_emulator.fixtures import emulator  # noqa: F401

(and `sharded_emulator` likewise).

in its conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord_emulator.clients import discord_py_pointed_at
from tests.discord_emulator.server import DiscordEmulator


@pytest.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    """A running emulator (a guild, #general, members ana, ben and cara) with discord.py
    pointed at it.

    The test fails at teardown if the bot did anything Discord would refuse, unless the
    test consumed those failures with `emulator.take_failures()` or set
    `emulator.tolerate_failures = True`.
    """
    async with DiscordEmulator() as running:
        with discord_py_pointed_at(running):
            yield running
        fail_on_unexpected_failures(running)


@pytest.fixture
async def sharded_emulator() -> AsyncIterator[DiscordEmulator]:
    """Like `emulator`, but Discord asks for 2 shards: the first guild is on shard 0, a
    second one ("Second Tea House", `other_guilds[0]`, with its own #general and the same
    ana, ben and cara) on shard 1."""
    async with DiscordEmulator(shard_count=2) as running:
        await running.add_guild("Second Tea House", shard_id=1)
        with discord_py_pointed_at(running):
            yield running
        fail_on_unexpected_failures(running)


def fail_on_unexpected_failures(emulator: DiscordEmulator) -> None:
    """Fail the current test if failures were recorded that nobody took or tolerated."""
    if emulator.failures and not emulator.tolerate_failures:
        listed = "\n".join(f"  - {f}" for f in emulator.failures)
        pytest.fail(f"the bot did things Discord would refuse:\n{listed}", pytrace=False)
