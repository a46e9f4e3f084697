"""What the bot needs in a channel to host a match, and how a message adapts to less.

The invite link asks for View Channels, Send Messages, Send Messages in Threads, Create
Public Threads, Embed Links, Attach Files and Read Message History, but a server can take
any of them away, for the whole server or one channel. Without the first two the bot
cannot show a match at all, so it refuses to start one there and says which permission
is missing; without the others it plays on with less: no thread (the match is played in
the channel), no picture (the text board), no embeds (plain text).
"""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.words.i18n import shortened, text

TO_HOST = ("view_channel", "send_messages")
"""Without these the board and the match's messages cannot be posted in the channel."""
FOR_A_THREAD = ("create_public_threads", "send_messages_in_threads")


def missing(permissions: discord.Permissions, needed: tuple[str, ...]) -> list[str]:
    """The names (discord.py's, e.g. ``send_messages``) of `needed` not in `permissions`."""
    return [name for name in needed if not getattr(permissions, name)]


def permission_list(lang: str, names: list[str]) -> str:
    """ "**Send Messages**, **Attach Files**" in the user's language, as Discord names them."""
    return ", ".join(f"**{text(lang, f'permissions.{name}')}**" for name in names)


def cannot_host_text(lang: str, permissions: discord.Permissions) -> str | None:
    """Why a match cannot start in the channel of these permissions, or None if it can."""
    lacking = missing(permissions, TO_HOST)
    if not lacking:
        return None
    return text(lang, "permissions.cannot_host", permissions=permission_list(lang, lacking))


def bot_permissions_in(place: object) -> discord.Permissions | None:
    """The bot's permissions in a guild channel or thread (from discord.py's cache of roles
    and overwrites), or None where Discord has no permissions (DMs) or where they are not
    known here: a server on a shard another bot process holds has no roles in this
    process's cache (Discord then refuses what is not allowed, and the refusal is handled
    like any other)."""
    if isinstance(place, discord.abc.GuildChannel | discord.Thread):
        # Typed as always there, but None for a server without its members cached.
        me = cast("discord.Member | None", place.guild.me)
        if me is None:
            return None
        return place.permissions_for(me)
    return None


def can_send(place: object) -> bool:
    """Whether the bot may post in this channel or thread (always in a DM)."""
    permissions = bot_permissions_in(place)
    if permissions is None:
        return True
    if isinstance(place, discord.Thread):
        return permissions.view_channel and permissions.send_messages_in_threads
    return permissions.view_channel and permissions.send_messages


def may_attach(place: object) -> bool:
    """Whether a page's picture may go with it in ``place``: without Attach Files Discord
    refuses the file, and a Components V2 page then leaves its media gallery out (it needs
    no Embed Links, having no embed)."""
    permissions = bot_permissions_in(place)
    return permissions is None or permissions.attach_files


def fit_message(place: object, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The message `kwargs` reduced to what the bot may post in `place`: without Attach Files
    the picture is left out; without Embed Links the embed becomes plain text (Discord
    drops a bot's embeds there)."""
    if isinstance(kwargs.get("view"), discord.ui.LayoutView):
        return kwargs  # a page is fitted before it is laid out: see may_attach
    permissions = bot_permissions_in(place)
    if permissions is None:
        return kwargs
    fitted = dict(kwargs)
    if not permissions.attach_files:
        fitted.pop("file", None)
        if "attachments" in fitted:
            fitted["attachments"] = []
        embed = fitted.get("embed")
        if isinstance(embed, discord.Embed) and embed.image:
            embed = embed.copy()
            embed.set_image(url=None)
            fitted["embed"] = embed
    if not permissions.embed_links:
        embed = fitted.pop("embed", None)
        if isinstance(embed, discord.Embed):
            fitted["content"] = _embed_as_text(fitted.get("content"), embed)
        if "embed" in kwargs and "attachments" in kwargs:
            fitted["embed"] = None  # an edit must also clear the embed the message had
    return fitted


def _embed_as_text(content: str | None, embed: discord.Embed) -> str:
    parts = [content] if content else []
    if embed.title:
        parts.append(f"**{embed.title}**")
    if embed.description:
        parts.append(embed.description)
    joined = "\n".join(parts)
    # A message holds 2,000 characters; an embed description 4,096.
    return shortened(joined, 2000)
