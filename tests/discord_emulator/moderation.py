"""What a server's moderators and admins do under the bot in tests: delete a message, a
thread or a channel, remove the bot from the server (and invite it back), each announced
to connected clients as Discord does.

From topics/gateway-events: "Message Delete" (`id`, `channel_id`, `guild_id`), "Thread
Delete" (a subset of the channel: `id`, `guild_id`, `parent_id`, `type`), "Channel Delete"
(the channel object; discord.py drops the channel's threads from its cache itself, as
Discord deletes them with it and sends no event per thread), and "Guild Delete" (`id`,
and `unavailable` only for an outage: "If the unavailable field is not set, the user was
removed from the guild"). Afterwards the bot's requests are refused as Discord refuses
them: 404 code 10003 Unknown Channel for a deleted channel or thread, 404 code 10008
Unknown Message for a deleted message, and 403 code 50001 Missing Access for anything of
a guild it was removed from (discord-api-docs issues 1716 and 2709).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.discord_emulator.gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS
from tests.discord_emulator.payloads import channel_payload, guild_create_payload
from tests.discord_emulator.transcript import Action

if TYPE_CHECKING:
    from tests.discord_emulator.gateway import Gateway
    from tests.discord_emulator.message_writes import MessageWriter
    from tests.discord_emulator.world import ChannelRecord, World


class Moderation:
    def __init__(self, world: World, gateway: Gateway, writer: MessageWriter) -> None:
        self._world = world
        self._gateway = gateway
        self._writer = writer

    async def delete_message(self, message_id: int) -> None:
        """A moderator deletes a message (the bot's board, say): MESSAGE_DELETE."""
        message = self._world.message(message_id)
        if message.ephemeral_to is not None:
            raise ValueError(f"message {message_id} is ephemeral: nobody else can delete it")
        await self._writer.publish_delete(message, Action.MESSAGE_DELETE)

    async def delete_channel(self, channel: ChannelRecord) -> None:
        """A moderator deletes a thread (THREAD_DELETE) or a text channel with its threads
        (CHANNEL_DELETE)."""
        if channel.guild_id is None:
            raise ValueError(f"channel {channel.id} is a DM: moderators delete guild channels")
        payload = channel_payload(self._world, channel)
        gone = self._world.delete_channel(channel)
        for each in gone:
            for message in self._world.messages_in(each.id):
                message.deleted = True  # gone with their channel, without events of their own
        if channel.is_thread:
            event = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": int(channel.type),
            }
            await self._gateway.dispatch("THREAD_DELETE", event, intent=INTENT_GUILDS)
        else:
            await self._gateway.dispatch("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)

    async def remove_bot(self, guild_id: int) -> None:
        """An admin kicks the bot: GUILD_DELETE without `unavailable` to the sessions that
        hold the guild; from then on the guild refuses the bot."""
        world = self._world
        if not world.bot_is_in(guild_id):
            raise ValueError(f"the bot is not in guild {guild_id}")
        world.left_guild_ids.add(guild_id)
        members = world.guilds[guild_id].member_ids
        members.remove(world.bot.id)
        for session in self._gateway.live_sessions:
            if session.wants(INTENT_GUILDS) and session.holds(guild_id):
                await self._gateway.dispatch_to(session, "GUILD_DELETE", {"id": str(guild_id)})

    async def invite_bot_back(self, guild_id: int) -> None:
        """The bot is invited again: a GUILD_CREATE as when it first joined."""
        world = self._world
        if world.bot_is_in(guild_id):
            raise ValueError(f"the bot is already in guild {guild_id}")
        world.left_guild_ids.discard(guild_id)
        world.guilds[guild_id].joined_at = world.clock.iso_now()
        world.guilds[guild_id].member_ids.insert(0, world.bot.id)
        for session in self._gateway.live_sessions:
            if session.wants(INTENT_GUILDS) and session.holds(guild_id):
                payload = guild_create_payload(
                    world,
                    include_members=session.wants(INTENT_GUILD_MEMBERS),
                    guild_id=guild_id,
                )
                await self._gateway.dispatch_to(session, "GUILD_CREATE", payload)
