"""Permissions from roles and overwrites, as Discord's "Permissions" topic computes them, and
the REST calls each of the bot's invite permissions governs."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest

from tests.discord_emulator import CallbackType, DiscordEmulator, start_client
from tests.discord_emulator.errors import CANNOT_SEND_EMPTY_MESSAGE
from tests.discord_emulator.permissions import (
    ADMINISTRATOR,
    INVITE_PERMISSIONS,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    PERMISSION_BITS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    channel_permissions,
    effective_permissions,
)
from tests.discord_emulator.raw_api import Answer, RawApi

EMBED = {"title": "Round 1", "description": "the board"}


@pytest.fixture
async def api(emulator: DiscordEmulator) -> AsyncIterator[RawApi]:
    async with RawApi(emulator) as opened:
        yield opened


@dataclasses.dataclass(frozen=True)
class Governed:
    """The REST call an invite permission governs, and Discord's answer without it."""

    call: Callable[[RawApi, DiscordEmulator, int], Awaitable[Answer]]
    status: int
    code: int


async def _send(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    return await api.send(emulator.channel.id, "a line")


async def _send_in_thread(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    return await api.send(thread_id, "a line in the thread")


async def _start_thread(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    return await api.start_thread(emulator.channel.id)


async def _send_embed(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    return await api.post(f"/channels/{emulator.channel.id}/messages", {"embeds": [EMBED]})


async def _send_file(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    body = {"content": "the board", "attachments": [{"id": 0, "filename": "board.png"}]}
    return await api.post(
        f"/channels/{emulator.channel.id}/messages", body, files={"board.png": b"PNG"}
    )


async def _fetch_message(api: RawApi, emulator: DiscordEmulator, thread_id: int) -> Answer:
    # The thread was started from no message; read the first line in it.
    first = emulator.world.messages_in(thread_id)[0]
    return await api.get(f"/channels/{thread_id}/messages/{first.id}")


GOVERNED: dict[str, Governed] = {
    # "Missing Access" when the bot cannot even see the channel.
    "View Channels": Governed(_send, 403, MISSING_ACCESS),
    "Send Messages": Governed(_send, 403, MISSING_PERMISSIONS),
    "Send Messages in Threads": Governed(_send_in_thread, 403, MISSING_PERMISSIONS),
    "Create Public Threads": Governed(_start_thread, 403, MISSING_PERMISSIONS),
    # Embeds are dropped, not refused: a message of embeds alone is then empty.
    "Embed Links": Governed(_send_embed, 400, CANNOT_SEND_EMPTY_MESSAGE),
    "Attach Files": Governed(_send_file, 403, MISSING_PERMISSIONS),
    "Read Message History": Governed(_fetch_message, 403, MISSING_PERMISSIONS),
}


def test_every_invite_permission_has_the_call_it_governs():
    assert set(GOVERNED) == set(INVITE_PERMISSIONS)


async def thread_with_a_line(api: RawApi, emulator: DiscordEmulator) -> int:
    started = await api.start_thread(emulator.channel.id)
    assert started.status == 201, started
    thread_id = int(started.body["id"])
    assert (await api.send(thread_id, "first line")).status == 200
    return thread_id


# each invite permission -----------------------------------------------------------------


@pytest.mark.parametrize("name", INVITE_PERMISSIONS)
async def test_each_invite_permission_governs_its_call_and_not_interactions(
    emulator, api, bot, name
):
    governed = GOVERNED[name]
    thread_id = await thread_with_a_line(api, emulator)
    allowed = await governed.call(api, emulator, thread_id)
    assert allowed.status in (200, 201), allowed

    await emulator.deny_bot(name)
    refused = await governed.call(api, emulator, thread_id)
    assert (refused.status, refused.code) == (governed.status, governed.code)
    assert [f.code for f in emulator.take_failures()] == [governed.code]

    # Interaction responses need none of the bot's permissions.
    counter = await emulator.user("ana").slash("hanamikoji counter")
    assert await counter.first_response() is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    assert counter.message is not None and counter.message.content == "count is 0"


async def test_a_channel_overwrite_denies_a_permission_in_that_channel_only(emulator, api):
    other = await emulator.add_text_channel("tournament")
    await emulator.deny_bot("Send Messages", channel=emulator.channel)
    refused = await api.send(emulator.channel.id)
    assert (refused.status, refused.code) == (403, MISSING_PERMISSIONS)
    assert (await api.send(other.id)).status == 200
    assert [f.code for f in emulator.take_failures()] == [MISSING_PERMISSIONS]


async def test_a_thread_takes_its_parents_overwrites(emulator, api):
    thread_id = await thread_with_a_line(api, emulator)
    await emulator.deny_bot("Send Messages in Threads", channel=emulator.channel)
    refused = await api.send(thread_id, "next line")
    assert (refused.status, refused.code) == (403, MISSING_PERMISSIONS)
    assert (await api.send(emulator.channel.id)).status == 200  # Send Messages still holds
    assert [f.code for f in emulator.take_failures()] == [MISSING_PERMISSIONS]


async def test_an_embed_beside_text_is_dropped_without_embed_links(emulator, api):
    await emulator.deny_bot("Embed Links")
    sent = await api.send(emulator.channel.id, "the board", embeds=[EMBED])
    assert sent.status == 200 and sent.body["content"] == "the board"
    assert sent.body["embeds"] == []


async def test_without_read_message_history_the_history_is_empty(emulator, api):
    assert (await api.send(emulator.channel.id, "one")).status == 200
    await emulator.deny_bot("Read Message History")
    history = await api.get(f"/channels/{emulator.channel.id}/messages")
    assert (history.status, history.body) == (200, [])


# the computation ------------------------------------------------------------------------


async def test_overwrites_apply_everyone_then_roles_then_the_member(emulator, api):
    world, channel = emulator.world, emulator.channel
    bot_id, bot_role = world.bot.id, world.guild.bot_role_id

    def can_send() -> bool:
        return bool(effective_permissions(world, bot_id, channel) & SEND_MESSAGES)

    await emulator.set_overwrite(channel, world.guild.id, deny=SEND_MESSAGES)
    assert not can_send()  # @everyone's deny
    await emulator.set_overwrite(channel, bot_role, allow=SEND_MESSAGES)
    assert can_send()  # the role's allow beats @everyone's deny
    await emulator.set_overwrite(channel, bot_id, deny=SEND_MESSAGES)
    assert not can_send()  # the member's deny beats the role's allow
    refused = await api.send(channel.id)
    assert (refused.status, refused.code) == (403, MISSING_PERMISSIONS)
    await emulator.set_overwrite(channel, bot_id, allow=SEND_MESSAGES)
    await emulator.set_overwrite(channel, bot_role)
    assert can_send()  # the member's allow beats @everyone's deny
    assert (await api.send(channel.id)).status == 200
    assert [f.code for f in emulator.take_failures()] == [MISSING_PERMISSIONS]


async def test_administrator_bypasses_every_overwrite(emulator, api):
    world = emulator.world
    world.roles[world.guild.bot_role_id].permissions |= ADMINISTRATOR
    await emulator.set_overwrite(emulator.channel, world.bot.id, deny=SEND_MESSAGES)
    assert (await api.send(emulator.channel.id)).status == 200


async def test_the_owner_has_every_permission(emulator):
    world = emulator.world
    await emulator.set_overwrite(emulator.channel, world.guild.id, deny=SEND_MESSAGES)
    assert channel_permissions(world, world.owner.id, emulator.channel) & SEND_MESSAGES
    assert not channel_permissions(world, emulator.user("ana").id, emulator.channel) & (
        SEND_MESSAGES
    )


async def test_discord_py_permissions_for_me_match_the_emulator(emulator, api):
    running = await start_client(emulator, discord.Client(intents=discord.Intents.default()))
    client, world, channel = running.client, emulator.world, emulator.channel
    thread_id = await thread_with_a_line(api, emulator)
    await emulator.deny_bot("Embed Links")  # through the roles
    await emulator.deny_bot("Attach Files", channel=channel)  # through an overwrite
    await emulator.set_overwrite(channel, world.guild.id, deny=SEND_MESSAGES_IN_THREADS)
    await emulator.idle()
    known = sum(PERMISSION_BITS.values())
    for place_id in (channel.id, thread_id):
        place = client.get_channel(place_id)
        assert isinstance(place, discord.TextChannel | discord.Thread)
        seen_by_discord_py = place.permissions_for(place.guild.me).value & known
        computed = effective_permissions(world, world.bot.id, world.channels[place_id])
        assert seen_by_discord_py == computed & known, place
    thread = client.get_channel(thread_id)
    assert isinstance(thread, discord.Thread)
    mine = thread.permissions_for(thread.guild.me)
    assert not mine.embed_links and not mine.attach_files and not mine.send_messages_in_threads
    await running.stop()


async def test_app_permissions_in_the_interaction_match_the_emulator(emulator, bot):
    world, channel = emulator.world, emulator.channel
    await emulator.deny_bot("Embed Links", channel=channel)
    await (await emulator.user("ana").slash("hanamikoji rules")).first_response()
    received = bot.seen[-1]
    assert received.app_permissions.value == channel_permissions(world, world.bot.id, channel)
    assert not received.app_permissions.embed_links and received.app_permissions.send_messages
    ana = emulator.user("ana")
    assert received.permissions.value == channel_permissions(world, ana.id, channel)
