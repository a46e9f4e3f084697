"""Moderators and admins changing the server under the bot: deleted messages, threads and
channels, the bot removed from a server and invited back, each announced as Discord does
and refused afterwards as Discord refuses it; and the log that counts what the bot still
asks of what it lost."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from tests.discord_emulator import DiscordEmulator, start_client
from tests.discord_emulator.errors import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, ImpossibleUserAction
from tests.discord_emulator.permissions import MISSING_ACCESS
from tests.discord_emulator.raw_api import RawApi


@pytest.fixture
async def api(emulator: DiscordEmulator) -> AsyncIterator[RawApi]:
    async with RawApi(emulator) as opened:
        yield opened


class Watcher(discord.Client):
    """A client that notes the events a bot would handle."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.heard: list[tuple[str, int]] = []

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.heard.append(("message_delete", payload.message_id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.heard.append(("thread_delete", payload.thread_id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.heard.append(("channel_delete", channel.id))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.heard.append(("guild_remove", guild.id))

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.heard.append(("guild_unavailable", guild.id))


@pytest.fixture
async def watcher(emulator: DiscordEmulator) -> AsyncIterator[Watcher]:
    running = await start_client(emulator, Watcher())
    assert isinstance(running.client, Watcher)
    yield running.client
    await running.stop()


async def a_thread_with_a_line(api: RawApi, emulator: DiscordEmulator) -> tuple[int, int]:
    thread = await api.start_thread(emulator.channel.id)
    line = await api.send(int(thread.body["id"]), "the board")
    return int(thread.body["id"]), int(line.body["id"])


async def test_a_deleted_message_is_announced_and_its_edits_are_unknown(emulator, api, watcher):
    sent = await api.send(emulator.channel.id, "the board")
    message_id = int(sent.body["id"])

    await emulator.delete_message(message_id)
    await emulator.idle()

    assert ("message_delete", message_id) in watcher.heard
    edit = await api.patch(
        f"/channels/{emulator.channel.id}/messages/{message_id}", {"content": "x"}
    )
    assert (edit.status, edit.code) == (404, UNKNOWN_MESSAGE)
    assert [f.code for f in emulator.take_failures()] == [UNKNOWN_MESSAGE]
    assert not emulator.user("ana").messages(emulator.channel.id)


async def test_a_deleted_thread_is_announced_and_then_unknown(emulator, api, watcher):
    thread_id, line_id = await a_thread_with_a_line(api, emulator)
    await emulator.idle()
    assert watcher.get_channel(thread_id) is not None

    await emulator.delete_channel(thread_id)
    await emulator.idle()

    assert ("thread_delete", thread_id) in watcher.heard
    assert watcher.get_channel(thread_id) is None
    posted = await api.send(thread_id, "the match goes on")
    edited = await api.patch(f"/channels/{thread_id}/messages/{line_id}", {"content": "x"})
    assert (posted.status, posted.code) == (404, UNKNOWN_CHANNEL)
    assert (edited.status, edited.code) == (404, UNKNOWN_CHANNEL)
    assert (await api.send(emulator.channel.id, "the parent stays")).status == 200
    emulator.take_failures()


async def test_a_deleted_channel_takes_its_threads_with_it(emulator, api, watcher):
    thread_id, _ = await a_thread_with_a_line(api, emulator)
    await emulator.idle()

    await emulator.delete_channel(emulator.channel)
    await emulator.idle()

    # One CHANNEL_DELETE; discord.py drops the channel's threads itself.
    assert ("channel_delete", emulator.channel.id) in watcher.heard
    assert watcher.get_channel(thread_id) is None
    for place in (emulator.channel.id, thread_id):
        refused = await api.send(place, "anyone?")
        assert (refused.status, refused.code) == (404, UNKNOWN_CHANNEL)
    emulator.take_failures()


async def test_a_bot_removed_from_a_guild_is_told_and_refused_there_until_invited_back(
    emulator, api, watcher
):
    thread_id, _ = await a_thread_with_a_line(api, emulator)
    await emulator.idle()

    await emulator.remove_bot()
    await emulator.idle()

    assert ("guild_remove", emulator.guild_id) in watcher.heard
    assert ("guild_unavailable", emulator.guild_id) not in watcher.heard
    assert watcher.get_guild(emulator.guild_id) is None
    for answer in (
        await api.send(emulator.channel.id, "still here?"),
        await api.send(thread_id, "still here?"),
        await api.get(f"/channels/{emulator.channel.id}"),
        await api.get(f"/guilds/{emulator.guild_id}"),
    ):
        assert (answer.status, answer.code) == (403, MISSING_ACCESS)
    with pytest.raises(ImpossibleUserAction):
        await emulator.user("ana").slash("hanamikoji rules")
    emulator.take_failures()

    await emulator.invite_bot_back()
    await emulator.idle()
    assert watcher.get_guild(emulator.guild_id) is not None
    assert (await api.send(emulator.channel.id, "back")).status == 200


async def test_a_reconnecting_bot_is_not_given_a_guild_that_removed_it(emulator, watcher):
    await emulator.remove_bot()
    # A new session (IDENTIFY) lists only the guilds the bot is in.
    fresh = await start_client(emulator, Watcher())
    assert list(fresh.client.guilds) == []
    await fresh.stop()


async def test_the_request_log_counts_requests_per_channel_and_guild_in_virtual_time(emulator, api):
    thread_id, _ = await a_thread_with_a_line(api, emulator)
    start = emulator.clock.now()
    await emulator.delete_channel(thread_id)
    emulator.advance(60)
    await api.send(thread_id, "one")
    emulator.advance(60)
    await api.send(thread_id, "two")
    await api.send(emulator.channel.id, "elsewhere")
    emulator.take_failures()

    log = emulator.request_log
    after = log.to_channel(thread_id, since=start + 1)
    assert [r.status for r in after] == [404, 404]
    assert all(r.guild_id == emulator.guild_id for r in after)
    assert len(log.to_guild(emulator.guild_id, since=start + 1)) == 3
    assert log.per_minute(after, since=start, until=start + 120) == 0.5
    assert log.per_minute(after, since=start, until=start + 60) == 0.0
