from collections.abc import AsyncIterator

import pytest

from tests.discord_emulator.clients import start_client
from tests.discord_emulator.fixtures import emulator, sharded_emulator  # noqa: F401
from tests.discord_emulator.sample_bot import SampleBot
from tests.discord_emulator.server import DiscordEmulator


@pytest.fixture
async def bot(emulator: DiscordEmulator) -> AsyncIterator[SampleBot]:  # noqa: F811
    """The emulator's sample bot, logged in (tests of the emulator itself use it)."""
    running = await start_client(emulator, SampleBot(guild_id=emulator.guild_id))
    assert isinstance(running.client, SampleBot)
    yield running.client
    await running.stop()
