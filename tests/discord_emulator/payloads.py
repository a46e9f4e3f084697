"""The JSON shapes Discord sends for users, members, channels, messages and the guild."""

from __future__ import annotations

from typing import Any

from tests.discord_emulator.permissions import base_permissions
from tests.discord_emulator.world import (
    AppEmojiRecord,
    AttachmentRecord,
    ChannelRecord,
    ChannelType,
    MessageRecord,
    RoleRecord,
    UserRecord,
    World,
)


def user_payload(user: UserRecord) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.username,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
    }


def bot_self_payload(user: UserRecord) -> dict[str, Any]:
    """`GET /users/@me` and READY's user: the public fields plus the account's own."""
    return {**user_payload(user), "verified": True, "mfa_enabled": False, "locale": "en-US"}


def member_payload(
    world: World,
    user: UserRecord,
    *,
    with_user: bool = True,
    permissions: int | None = None,
    guild_id: int | None = None,
) -> dict[str, Any]:
    """A guild member (of the primary guild unless another is given); `permissions` are the
    member's in an interaction's channel, else the guild-wide ones."""
    guild = world.guild_of(guild_id)
    if permissions is None:
        permissions = base_permissions(world, user.id, guild.id)
    payload: dict[str, Any] = {
        "roles": [str(role_id) for role_id in world.member_role_ids(user.id, guild.id)],
        "nick": user.nick,
        "avatar": None,
        "joined_at": guild.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "permissions": str(permissions),
    }
    if with_user:
        payload["user"] = user_payload(user)
    return payload


def role_payload(world: World, role: RoleRecord) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }
    if role.managed:
        payload["tags"] = {"bot_id": str(world.bot.id)}
    return payload


def role_payloads(world: World, guild_id: int | None = None) -> list[dict[str, Any]]:
    return [role_payload(world, role) for role in world.guild_roles(guild_id)]


def channel_payload(world: World, channel: ChannelRecord) -> dict[str, Any]:
    if channel.is_private_channel:
        # A DM between users or a group DM: its humans as recipients, never the bot (the
        # docs give interactions only a "partial channel"; discord.js issues 11429, 11443).
        payload: dict[str, Any] = {
            "id": str(channel.id),
            "type": int(channel.type),
            "last_message_id": _maybe_str(channel.last_message_id),
            "recipients": [user_payload(world.users[uid]) for uid in channel.recipient_ids],
            "flags": 0,
        }
        if channel.type is ChannelType.GROUP_DM:
            payload.update(owner_id=str(channel.owner_id), name=channel.name, icon=None)
        return payload
    if channel.type is ChannelType.DM:
        recipient = world.users[channel.recipient_id or 0]
        return {
            "id": str(channel.id),
            "type": int(channel.type),
            "last_message_id": _maybe_str(channel.last_message_id),
            "recipients": [user_payload(recipient)],
            "flags": 0,
        }
    payload = {
        "id": str(channel.id),
        "type": int(channel.type),
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "parent_id": _maybe_str(channel.parent_id),
        "last_message_id": _maybe_str(channel.last_message_id),
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if channel.is_thread:
        payload.update(
            owner_id=str(channel.owner_id),
            message_count=channel.message_count,
            total_message_sent=channel.message_count,
            member_count=len(channel.thread_member_ids),
            thread_metadata={
                "archived": channel.archived,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": channel.archive_timestamp or channel.created_at,
                "locked": channel.locked,
                "invitable": channel.invitable,
                "create_timestamp": channel.created_at,
            },
        )
    else:
        overwrites = [o.payload() for o in channel.permission_overwrites.values()]
        payload.update(position=0, topic=None, nsfw=False, permission_overwrites=overwrites)
    return payload


def attachment_payload(
    base_url: str, channel_id: int, attachment: AttachmentRecord
) -> dict[str, Any]:
    url = f"{base_url}/attachments/{channel_id}/{attachment.id}/{attachment.filename}"
    payload: dict[str, Any] = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": len(attachment.data),
        "url": url,
        "proxy_url": url,
        "content_type": attachment.content_type,
    }
    if attachment.description is not None:
        payload["description"] = attachment.description
    return payload


def message_payload(world: World, message: MessageRecord, *, base_url: str) -> dict[str, Any]:
    author = world.users[message.author_id]
    payload: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "type": message.type,
        "content": message.content,
        "author": user_payload(author),
        "attachments": [
            attachment_payload(base_url, message.channel_id, a) for a in message.attachments
        ],
        "embeds": [{"type": "rich", **embed} for embed in message.embeds],
        "components": message.components,
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": message.created_at,
        "edited_timestamp": message.edited_at,
        "flags": message.flags,
    }
    if message.guild_id is not None:
        payload["guild_id"] = str(message.guild_id)
        if not author.bot or author.id == world.bot.id:
            payload["member"] = member_payload(world, author, with_user=False)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
        payload["application_id"] = str(message.webhook_id)
    if message.message_reference is not None:
        payload["message_reference"] = message.message_reference
    if message.interaction_metadata is not None:
        payload["interaction_metadata"] = message.interaction_metadata
    if message.thread_id is not None and message.thread_id in world.channels:
        payload["thread"] = channel_payload(world, world.channels[message.thread_id])
    return payload


def guild_create_payload(
    world: World, *, include_members: bool, guild_id: int | None = None
) -> dict[str, Any]:
    """A full GUILD_CREATE (of the primary guild unless another is given); members only with
    the members intent, as Discord does."""
    guild = world.guild_of(guild_id)
    member_users = [world.users[uid] for uid in guild.member_ids]
    if not include_members:
        member_users = [world.bot]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id or world.bot.id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "features": [],
        "roles": role_payloads(world, guild.id),
        "emojis": [],
        "stickers": [],
        "joined_at": guild.joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(guild.member_ids),
        "members": [member_payload(world, user, guild_id=guild.id) for user in member_users],
        "channels": [channel_payload(world, c) for c in world.guild_channels(guild.id)],
        # Only active threads: archived ones are not synced up front (topics/threads).
        "threads": [channel_payload(world, t) for t in world.active_threads(guild.id)],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "premium_progress_bar_enabled": False,
    }


def app_emoji_payload(world: World, emoji: AppEmojiRecord) -> dict[str, Any]:
    """An application emoji: never role-locked, managed or unavailable, always needing
    colons, and with the uploader as `user` ("Application-Owned Emoji", resources/emoji)."""
    return {
        "id": str(emoji.id),
        "name": emoji.name,
        "roles": [],
        "user": user_payload(world.users[emoji.user_id]),
        "require_colons": True,
        "managed": False,
        "animated": emoji.animated,
        "available": True,
    }


def application_payload(
    world: World, *, integration_types_config: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`GET /oauth2/applications/@me`: the fields discord.py's AppInfo requires, and the
    installation contexts the application supports (`integration_types_config`)."""
    owner = world.users.get(world.guild.owner_id) or world.bot
    return {
        "id": str(world.bot.id),
        "name": world.bot.username,
        "description": "Hanamikoji, emulated",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(owner),
        "verify_key": "0" * 64,
        "flags": 0,
        "team": None,
        "summary": "",
        "rpc_origins": [],
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": sum(1 for g in world.guilds if world.bot_is_in(g)),
        "integration_types_config": integration_types_config or {},
    }


def _maybe_str(value: int | None) -> str | None:
    return None if value is None else str(value)
