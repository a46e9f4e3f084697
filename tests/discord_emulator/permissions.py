"""Discord's permission bits, and a member's permissions in a channel as Discord computes them.

The computation is the pseudo-code of "Permission Overwrites" (topics/permissions): the
guild owner has everything; otherwise @everyone's permissions OR the member's roles', with
Administrator short-circuiting to everything; then the channel's overwrites, @everyone's
first, then all the member's roles' together, then the member's own. Threads have no
overwrites of their own and take their parent's ("Inherited Permissions (Threads)").
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from typing import TYPE_CHECKING

from tests.discord_emulator.errors import DiscordError

if TYPE_CHECKING:
    from tests.discord_emulator.world import ChannelRecord, World

_log = logging.getLogger(__name__)

# Bitwise permission flags (topics/permissions), the ones the emulator reads or grants.
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
# "Allows user-installed apps to send public responses. When disabled, users will still be
# allowed to use their apps but the responses will be ephemeral. This only applies to apps
# not also installed to the server." (topics/permissions); on for servers by default
# (Change Log, June 27 2024).
USE_EXTERNAL_APPS = 1 << 50
# Every documented bit, 0 to 52 (there is no bit 47).
ALL = ((1 << 53) - 1) & ~(1 << 47)
PERMISSION_BITS: dict[str, int] = {
    "ADMINISTRATOR": ADMINISTRATOR,
    "MANAGE_CHANNELS": MANAGE_CHANNELS,
    "MANAGE_GUILD": MANAGE_GUILD,
    "ADD_REACTIONS": ADD_REACTIONS,
    "VIEW_CHANNEL": VIEW_CHANNEL,
    "SEND_MESSAGES": SEND_MESSAGES,
    "SEND_TTS_MESSAGES": SEND_TTS_MESSAGES,
    "MANAGE_MESSAGES": MANAGE_MESSAGES,
    "EMBED_LINKS": EMBED_LINKS,
    "ATTACH_FILES": ATTACH_FILES,
    "READ_MESSAGE_HISTORY": READ_MESSAGE_HISTORY,
    "MENTION_EVERYONE": MENTION_EVERYONE,
    "USE_EXTERNAL_EMOJIS": USE_EXTERNAL_EMOJIS,
    "MANAGE_ROLES": MANAGE_ROLES,
    "USE_APPLICATION_COMMANDS": USE_APPLICATION_COMMANDS,
    "MANAGE_THREADS": MANAGE_THREADS,
    "CREATE_PUBLIC_THREADS": CREATE_PUBLIC_THREADS,
    "CREATE_PRIVATE_THREADS": CREATE_PRIVATE_THREADS,
    "SEND_MESSAGES_IN_THREADS": SEND_MESSAGES_IN_THREADS,
    "USE_EXTERNAL_APPS": USE_EXTERNAL_APPS,
}

# What the bot's invite link asks for, by the names Discord's client shows.
INVITE_PERMISSIONS: dict[str, int] = {
    "View Channels": VIEW_CHANNEL,
    "Send Messages": SEND_MESSAGES,
    "Send Messages in Threads": SEND_MESSAGES_IN_THREADS,
    "Create Public Threads": CREATE_PUBLIC_THREADS,
    "Embed Links": EMBED_LINKS,
    "Attach Files": ATTACH_FILES,
    "Read Message History": READ_MESSAGE_HISTORY,
}
INVITE_PERMISSION_BITS = sum(INVITE_PERMISSIONS.values())

# Permissions of @everyone: what an ordinary member of a game server has.
EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
    | USE_EXTERNAL_APPS
)
# The bot's role: its invite link's permissions, plus what it needs to tidy its messages
# and run its threads.
BOT_PERMISSIONS = INVITE_PERMISSION_BITS | MANAGE_MESSAGES | MANAGE_THREADS

# Denying Send Messages implicitly denies these ("Implicit Permissions"); in a thread,
# Send Messages in Threads plays that part, as discord.py's `Thread.permissions_for` has it.
_NEED_SENDING = SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013


class OverwriteType(enum.IntEnum):
    ROLE = 0
    MEMBER = 1


@dataclasses.dataclass
class Overwrite:
    """A channel's permission overwrite for one role or one member (resources/channel)."""

    id: int
    type: OverwriteType
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, object]:
        return {
            "id": str(self.id),
            "type": int(self.type),
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def bits_of(permission: int | str) -> int:
    """Permission bits from bits, an invite-link name ("Embed Links") or Discord's flag name
    in any case ("EMBED_LINKS", "embed_links")."""
    if isinstance(permission, int):
        return permission
    found = INVITE_PERMISSIONS.get(permission) or PERMISSION_BITS.get(permission.upper())
    if found is None:
        raise ValueError(f"no permission named {permission!r}")
    return found


def names_of(bits: int) -> list[str]:
    """Discord's flag names of the bits the emulator knows, for messages and logs."""
    return [name for name, value in PERMISSION_BITS.items() if bits & value]


# the computation ------------------------------------------------------------------------


def base_permissions(world: World, user_id: int, guild_id: int | None = None) -> int:
    """`compute_base_permissions`: the guild owner has all; else @everyone OR the member's
    roles, and Administrator means all (in the primary guild unless another is given)."""
    guild = world.guild_of(guild_id)
    if user_id == guild.owner_id:
        return ALL
    permissions = world.roles[guild.id].permissions
    for role_id in world.member_role_ids(user_id, guild.id):
        permissions |= world.roles[role_id].permissions
    # What a test granted with `EmulatedUser.grant`, as one more role would.
    permissions |= world.users[user_id].granted_permissions
    if permissions & ADMINISTRATOR:
        return ALL
    return permissions


def channel_permissions(world: World, user_id: int, channel: ChannelRecord) -> int:
    """`compute_permissions`: base permissions, then the channel's overwrites; a thread's are
    its parent's. This is what `app_permissions` carries (no implicit permissions)."""
    if channel.is_thread and channel.parent_id is not None:
        channel = world.channels[channel.parent_id]
    guild_id = world.guild_of(channel.guild_id).id
    base = base_permissions(world, user_id, guild_id)
    if base & ADMINISTRATOR:
        return ALL
    overwrites = channel.permission_overwrites
    permissions = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        permissions = (permissions & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in world.member_role_ids(user_id, guild_id):
        role_overwrite = overwrites.get(role_id)
        if role_overwrite is not None:
            allow |= role_overwrite.allow
            deny |= role_overwrite.deny
    permissions = (permissions & ~deny) | allow
    member = overwrites.get(user_id)
    if member is not None and member.type is OverwriteType.MEMBER:
        permissions = (permissions & ~member.deny) | member.allow
    return permissions


def effective_permissions(world: World, user_id: int, channel: ChannelRecord) -> int:
    """The channel permissions with the implicit ones applied ("Implicit Permissions"): nothing
    without View Channel, and no embeds, files, TTS or @everyone without the right to send.
    A private thread is seen only by its members and those with Manage Threads."""
    permissions = channel_permissions(world, user_id, channel)
    if permissions & ALL == ALL:
        return ALL
    sending = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
    if not permissions & sending:
        permissions &= ~_NEED_SENDING
    if not permissions & VIEW_CHANNEL or not _sees_thread(permissions, user_id, channel):
        return 0
    return permissions


def _sees_thread(permissions: int, user_id: int, channel: ChannelRecord) -> bool:
    if not channel.is_private_thread:
        return True
    return user_id in channel.thread_member_ids or bool(permissions & MANAGE_THREADS)


# refusing the bot -----------------------------------------------------------------------


def missing_access() -> DiscordError:
    return DiscordError(403, MISSING_ACCESS, "Missing Access")


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def bot_permissions_in(world: World, channel: ChannelRecord) -> int:
    """The bot's effective permissions in a channel; in its DM, everything it may do there;
    nothing in a DM between users or a group DM."""
    if channel.is_private_channel:
        return 0
    if channel.guild_id is None:
        return ALL
    return effective_permissions(world, world.bot.id, channel)


def require_bot(world: World, channel: ChannelRecord, needed: int = 0) -> int:
    """The bot's permissions in `channel`, or Discord's refusal: 403 code 50001 if it cannot
    see the channel at all, 403 code 50013 if it lacks any of `needed`."""
    if not world.bot_is_in(channel):
        # A guild without the bot (never joined, or removed it), a DM between users or a
        # group DM: every resource is 403 Missing Access (discord-api-docs issues 1716 and
        # 2709: access is checked before permissions; discord.js issue 11429 for a DM).
        _log.info("the bot is not in channel %s or its guild", channel.id)
        raise missing_access()
    permissions = bot_permissions_in(world, channel)
    if not permissions & VIEW_CHANNEL:
        _log.info("the bot cannot see channel %s", channel.id)
        raise missing_access()
    lacking = needed & ~permissions
    if lacking:
        _log.info("the bot lacks %s in channel %s", names_of(lacking), channel.id)
        raise missing_permissions()
    return permissions


def sending_permission(channel: ChannelRecord) -> int:
    """Send Messages in a channel, Send Messages in Threads in a thread ("Threads")."""
    return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
