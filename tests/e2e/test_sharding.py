"""`python -m bot --shards … --shard-count …` against an emulator where Discord asks for two
shards: the first guild is on shard 0, "Second Tea House" on shard 1 (README, sharding)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.interactions import InteractionFailed
from tests.discord_emulator.server import DiscordEmulator, EmulatedGuild
from tests.discord_emulator.world import ChannelRecord
from tests.e2e.cluster import BotProcess, launch
from tests.e2e.conftest import e2e_config
from tests.e2e.players import HANG_GUARD_SECONDS, labels

pytestmark = pytest.mark.slow  # bot processes


@pytest.fixture
async def emulator(sharded_emulator: DiscordEmulator) -> AsyncIterator[DiscordEmulator]:  # noqa: F811
    """Every fixture of this package (its global-429 check too) gets the sharded emulator."""
    yield sharded_emulator


async def start_bot(emulator: DiscordEmulator, database: Path, *shard_args: str) -> BotProcess:
    """`python -m bot --config FILE *shard_args` on SQLite, returned once it is logged in."""
    e2e_config(emulator, database)
    return await launch(database.with_suffix(".toml"), *shard_args)


async def play_a_challenge(emulator: DiscordEmulator, channel: ChannelRecord) -> ChannelRecord:
    """ana challenges ben in `channel`, ben accepts: the match's thread, with its board."""
    ana, ben = emulator.user("ana"), emulator.user("ben")
    challenge = await ana.slash("hanamikoji challenge", opponent=ben, channel=channel)
    offer = await challenge.answer()
    assert offer is not None and ben.mention in offer.content
    accepted = await ben.click(offer, labels("en")["accept"])
    await accepted.first_response()
    hand = labels("en")["hand"]
    # The bot is another process: watch for the board as a player would.
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        while True:
            await emulator.idle(max_wait=HANG_GUARD_SECONDS)
            threads = [t for t in emulator.world.threads() if t.parent_id == channel.id]
            shown = [m for t in threads for m in ben.messages(t.id)]
            if any(b.label == hand for m in shown for b in m.buttons()):
                break
            await asyncio.sleep(0.1)
    (thread,) = threads
    assert thread.guild_id == channel.guild_id
    return thread


async def test_one_process_with_both_shards_plays_in_both_guilds(emulator, tmp_path):
    second: EmulatedGuild = emulator.other_guilds[0]
    bot = await start_bot(
        emulator, tmp_path / "bot.sqlite3", "--shards", "0-1", "--shard-count", "2"
    )
    try:
        sessions = emulator.gateway.live_sessions
        assert sorted(s.shard for s in sessions) == [(0, 2), (1, 2)]
        assert emulator.gateway.refused_identifies == 0, "its shards take turns to IDENTIFY"
        await play_a_challenge(emulator, emulator.channel)
        await play_a_challenge(emulator, second.channel)
    finally:
        await bot.stop()
    assert b"commands synced" in bot.output
    assert b"running all shards" in bot.output


async def test_a_process_with_shard_one_never_gets_the_guild_of_shard_zero(emulator, tmp_path):
    second: EmulatedGuild = emulator.other_guilds[0]
    database = tmp_path / "bot.sqlite3"
    # The process holding shard 0 syncs the commands; it ran once before, then stopped.
    syncing = await start_bot(emulator, database, "--shards", "0", "--shard-count", "2")
    await syncing.stop()
    assert b"commands synced" in syncing.output

    bot = await start_bot(emulator, database, "--shards", "1", "--shard-count", "2")
    try:
        (session,) = emulator.gateway.live_sessions
        assert session.shard == (1, 2)
        thread = await play_a_challenge(emulator, second.channel)
        assert thread.guild_id == second.id

        # In the first guild nobody answers: its events go to shard 0, which is not running.
        emulator.response_deadline = 0.5
        unanswered = await emulator.user("ana").slash("hanamikoji rules")
        with pytest.raises(InteractionFailed):
            await unanswered.first_response()
        assert [f.what for f in emulator.take_failures()] == [
            f"{unanswered.description}: no response within 0.5 s"
        ]
    finally:
        await bot.stop()
    assert b"commands not synced: this process runs shard 1" in bot.output
    assert b"running shard 1" in bot.output
    first = str(emulator.guild_id)
    (ready,) = session.dispatched("READY")
    assert [g["id"] for g in ready["guilds"]] == [str(second.id)]
    assert [g["id"] for g in session.dispatched("GUILD_CREATE")] == [str(second.id)]
    leaked = [f for f in session.sent if (f["d"] or {}).get("guild_id") == first]
    assert leaked == [], "the shard-1 process received events of the shard-0 guild"
    interactions = session.dispatched("INTERACTION_CREATE")
    assert interactions and all(i["guild_id"] == str(second.id) for i in interactions)
