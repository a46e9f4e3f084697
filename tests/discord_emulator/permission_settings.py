"""What a server's admins change in tests: role permissions and channel overwrites, each
announced to connected clients as Discord does (GUILD_ROLE_UPDATE, CHANNEL_UPDATE)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.discord_emulator.gateway import INTENT_GUILDS
from tests.discord_emulator.payloads import channel_payload, role_payload
from tests.discord_emulator.permissions import Overwrite, OverwriteType, bits_of

if TYPE_CHECKING:
    from tests.discord_emulator.gateway import Gateway
    from tests.discord_emulator.world import ChannelRecord, RoleRecord, World


class PermissionSettings:
    def __init__(self, world: World, gateway: Gateway) -> None:
        self._world = world
        self._gateway = gateway

    async def deny_bot(self, permission: int | str, channel: ChannelRecord | None = None) -> None:
        """Take `permission` (bits or a name) from the bot: in `channel` with an overwrite for
        the bot, or everywhere by taking it from @everyone and the bot's role (human members
        keep it through their "players" role)."""
        bits = bits_of(permission)
        if channel is not None:
            found = channel.permission_overwrites.get(self._world.bot.id)
            allow, deny = (found.allow, found.deny) if found else (0, 0)
            bot_id = self._world.bot.id
            await self.set_overwrite(channel, bot_id, allow=allow & ~bits, deny=deny | bits)
            return
        for role_id in (self._world.guild.id, *self._world.member_role_ids(self._world.bot.id)):
            role = self._world.roles[role_id]
            if role.permissions & bits:
                await self.set_role_permissions(role, role.permissions & ~bits)

    async def deny_member(
        self, user_id: int, permission: int | str, channel: ChannelRecord
    ) -> None:
        """Take `permission` from one member in `channel` (and its threads) with a member
        overwrite, keeping what the overwrite already allowed or denied otherwise."""
        bits = bits_of(permission)
        found = channel.permission_overwrites.get(user_id)
        allow, deny = (found.allow, found.deny) if found else (0, 0)
        await self.set_overwrite(channel, user_id, allow=allow & ~bits, deny=deny | bits)

    async def set_role_permissions(self, role: RoleRecord, permissions: int) -> None:
        role.permissions = permissions
        guild_id = self._world.guild_of_role(role.id).id
        event = {"guild_id": str(guild_id), "role": role_payload(self._world, role)}
        await self._gateway.dispatch("GUILD_ROLE_UPDATE", event, intent=INTENT_GUILDS)

    async def set_overwrite(
        self, channel: ChannelRecord, target_id: int, *, allow: int = 0, deny: int = 0
    ) -> Overwrite:
        """Set the overwrite of a role (@everyone's id is the guild's) or a member on a guild
        channel; a thread has none of its own and takes its parent's."""
        if channel.is_thread or channel.guild_id is None:
            raise ValueError(f"channel {channel.id} cannot hold overwrites; use a guild channel")
        if target_id in self._world.roles:
            kind = OverwriteType.ROLE
        elif self._world.is_member(target_id, channel.guild_id):
            kind = OverwriteType.MEMBER
        else:
            raise ValueError(f"{target_id} is neither a role nor a member")
        overwrite = Overwrite(target_id, kind, allow=allow, deny=deny)
        channel.permission_overwrites[target_id] = overwrite
        # A guild without the bot tells it nothing (Gateway.dispatch drops the event).
        await self._gateway.dispatch(
            "CHANNEL_UPDATE", channel_payload(self._world, channel), intent=INTENT_GUILDS
        )
        return overwrite
