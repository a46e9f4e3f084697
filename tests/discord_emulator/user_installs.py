"""Installation contexts: where the app is a user install, and what that changes.

The rules, from discord-api-docs (cited by file and section):

- interactions/receiving-and-responding, "Interaction Context Types": GUILD (0), BOT_DM
  (1, "DMs with the app's bot user"), PRIVATE_CHANNEL (2, "Group DMs and DMs other than
  the app's bot user").
- same page, footnote *** of "Interaction Structure": `app_permissions` "includes
  `ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE` permissions for (G)DMs with other users,
  and additionally includes `USE_EXTERNAL_EMOJIS` for DMs with the app's bot user". In a
  server without the bot the value is undocumented; discord-api-docs issue 7251 observed the
  invoking member's permissions in the channel.
- same page, "Create Followup Message": "Apps are limited to 5 followup messages per
  interaction if it was initiated from a user-installed app and isn't installed in the
  server (meaning the authorizing integration owners object only contains
  `USER_INSTALL`)"; error 40094 (topics/opcodes-and-status-codes).
- topics/permissions, USE_EXTERNAL_APPS; resources/application, "User Context": a user
  install "won't be able to respond ... with a non-ephemeral message" where the user may not
  send messages. Discord makes such responses ephemeral without an error (Change Log, June
  27 2024; discord-api-docs issue 6961).
- resources/application, "Installation Context": "apps installed only to a user can't take
  actions in a server"; the channel endpoints answer 403 code 50001 where the bot is not
  (discord.js issue 11429 for a DM between users; discord-api-docs issues 1716 and 2709 for
  a server without the bot).
- resources/application, "Application Object" (`integration_types_config`) and
  "Application Integration Type Configuration Object".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from tests.discord_emulator.application_commands import (
    BOT_DM_CONTEXT,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    PRIVATE_CHANNEL_CONTEXT,
    USER_INSTALL,
)
from tests.discord_emulator.errors import missing_access
from tests.discord_emulator.permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    INVITE_PERMISSION_BITS,
    MENTION_EVERYONE,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
    channel_permissions,
    effective_permissions,
    sending_permission,
)

if TYPE_CHECKING:
    from tests.discord_emulator.world import ChannelRecord, World

PRIVATE_CHANNEL_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE  # 180224
BOT_DM_APP_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | USE_EXTERNAL_EMOJIS  # 442368
MAX_FOLLOWUPS_FOR_A_USER_INSTALL = 5

# The routes an interaction token authorises (their templates as the server registers them).
INTERACTION_CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"
INTERACTION_WEBHOOK_ROUTES = frozenset(
    {
        "/webhooks/{application_id}/{token}",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
    }
)
INTERACTION_ROUTES = INTERACTION_WEBHOOK_ROUTES | {INTERACTION_CALLBACK_ROUTE}

_CHANNEL_PATH = re.compile(r"^/channels/(\d+)(?:/|$)")


def context_of(channel: ChannelRecord) -> int:
    """The interaction context of a channel: GUILD, BOT_DM or PRIVATE_CHANNEL."""
    if channel.is_private_channel:
        return PRIVATE_CHANNEL_CONTEXT
    return BOT_DM_CONTEXT if channel.guild_id is None else GUILD_CONTEXT


def owners_where_the_bot_is(world: World, channel: ChannelRecord) -> dict[str, str]:
    """The owners of an interaction on a message the bot posted itself (through a channel
    endpoint, so where it is): its guild install, "0" being the guild id in a server and
    "0" in its DMs."""
    if not world.bot_is_in(channel):
        return {}
    value = "0" if channel.guild_id is None else str(channel.guild_id)
    return {str(GUILD_INSTALL): value}


def only_user_install(owners: Mapping[str, str]) -> bool:
    """The owners hold USER_INSTALL alone: the app acts only as the user's install."""
    return str(USER_INSTALL) in owners and str(GUILD_INSTALL) not in owners


def app_permissions(world: World, channel: ChannelRecord, user_id: int) -> int:
    """`app_permissions` of an interaction in this channel by this user."""
    if channel.is_private_channel:
        return PRIVATE_CHANNEL_APP_PERMISSIONS
    if channel.guild_id is None:
        return BOT_DM_APP_PERMISSIONS
    # Computed in the channel, overwrites included, implicit ones not.
    if world.bot_is_in(channel):
        return channel_permissions(world, world.bot.id, channel)
    return channel_permissions(world, user_id, channel)  # discord-api-docs issue 7251


def forces_ephemeral(world: World, channel: ChannelRecord, user_id: int) -> bool:
    """Whether the app's new messages for this user's interaction here become ephemeral:
    in a server the app is not installed to (no bot), when the member lacks Use External
    Apps or the right to send messages in the channel."""
    if channel.guild_id is None or world.bot_is_in(channel):
        return False
    permissions = effective_permissions(world, user_id, channel)
    needed = USE_EXTERNAL_APPS | sending_permission(channel)
    return permissions & needed != needed


def integration_types_config(installs: Collection[int]) -> dict[str, Any]:
    """`integration_types_config` of the application: one key per installation context it
    supports, with the default install link's scopes and permissions (the user install
    "only support[s] the `applications.commands` scope", tutorials/developing-a-user-
    installable-app)."""
    config: dict[str, Any] = {}
    if GUILD_INSTALL in installs:
        config[str(GUILD_INSTALL)] = {
            "oauth2_install_params": {
                "scopes": ["applications.commands", "bot"],
                "permissions": str(INVITE_PERMISSION_BITS),
            }
        }
    if USER_INSTALL in installs:
        config[str(USER_INSTALL)] = {
            "oauth2_install_params": {"scopes": ["applications.commands"], "permissions": "0"}
        }
    return config


def channel_of_path(world: World, path: str) -> ChannelRecord | None:
    """The existing channel a `/channels/{id}...` path is about, if any."""
    found = _CHANNEL_PATH.match(path)
    return world.channels.get(int(found[1])) if found else None


def refuse_where_the_bot_is_not(world: World, path: str) -> None:
    """Any channel endpoint (messages, history, threads, typing, pins, reactions ...) on a
    channel the bot is not in is 403 code 50001, whatever the route: access is checked
    first. The interaction's own routes (`/interactions`, `/webhooks`) are how a user
    install answers there."""
    channel = channel_of_path(world, path)
    if channel is not None and not world.bot_is_in(channel):
        raise missing_access()
