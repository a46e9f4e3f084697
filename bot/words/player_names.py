"""Display names and languages of players, learned from their interactions (the bot has no
privileged members intent, so it never downloads the member list).

A name is per server: a member's nickname in one server never shows in another. It comes
in two forms. :meth:`PlayerNames.name` and :meth:`~PlayerNames.pair` give the
markdown-safe form, for any text Discord renders (messages, embeds); the raw forms
(:meth:`~PlayerNames.raw_name`, :meth:`~PlayerNames.raw_pair`) are for what Discord shows
as plain text or what the bot draws itself: pictures, alt text, thread names.
"""

from __future__ import annotations

import enum
import logging
import re

import aiohttp
import discord

from bot.words.i18n import DEFAULT_LANGUAGE, language_of, text
from engine.model import AI_USER_ID, OPEN_SEAT

log = logging.getLogger(__name__)

_BREAKS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
_INLINE = re.compile(r"[\\*_~|`\[\]<:]")
"""The characters Discord's markdown gives a meaning anywhere in a line (emphasis,
spoilers, code, masked links, ``<@…>`` and ``<t:…>`` markup): each is escaped with a
backslash, which Discord hides. The colon breaks autolinks (``https://``)."""
_LINE_START = re.compile(r"^([0-9]*)([#>+\-.])")
"""A header, quote, list or subtext starts a line: escaped where the name begins."""


def one_line(name: str) -> str:
    """The name with line breaks and control characters turned into spaces."""
    return _BREAKS.sub(" ", name).strip() or "?"


def markdown_safe(name: str) -> str:
    """The name as Discord text shows it verbatim: no link, header, code, spoiler or
    mention can come out of it, and no ping shows (a zero-width space follows the @)."""
    shown = _INLINE.sub(r"\\\g<0>", one_line(name))
    return discord.utils.escape_mentions(_LINE_START.sub(r"\g<1>\\\g<2>", shown))


def mention(user_id: int) -> str:
    """``<@id>``: the member as each reader's Discord names them. Inside an embed it pings
    nobody and needs no name look-up; in a message, the message's allowed mentions say
    whom it pings."""
    return f"<@{user_id}>"


def needed_no_escaping(shown: str) -> bool:
    """Whether a markdown-safe name reads the same as the name itself, so it may also go
    where a backslash would show, such as a code block (it has no backtick to close one)."""
    return "\\" not in shown and "\u200b" not in shown


NOT_A_MEMBER_CODES = frozenset({10007, 10013})
"""Discord's error codes for a user who is no member of the server: Unknown Member, and
Unknown User (the account is gone)."""


class _Lookup(enum.Enum):
    """Why a member look-up found no member."""

    NOT_A_MEMBER = "not a member"
    """Discord said so (Unknown Member): the user's own name may stand for this server."""
    FAILED = "failed"
    """The server is not cached yet, or Discord did not answer: try again next time."""


NameKey = tuple[int | None, int]
"""(server id or None, user id): None holds the user's own name, outside any server."""


class PlayerNames:
    """Remembers the names the bot has seen, per server; asks Discord once for the ones it
    has not (a member of the server, else the user)."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._names: dict[NameKey, str] = {}
        self._languages: dict[int, str] = {}

    def remember(self, user: discord.abc.User, locale: object = None) -> None:
        """The names an interaction shows: a member's in their server, and the user's own."""
        guild = getattr(user, "guild", None)  # a Member's server; a User has none
        if guild is not None:
            self._names[(guild.id, user.id)] = one_line(user.display_name)
        self._names[(None, user.id)] = one_line(user.global_name or user.name)
        if locale is not None:
            self._languages[user.id] = language_of(locale)

    def language(self, user_id: int) -> str:
        """The language of the user's last interaction (for DMs, which have no server)."""
        return self._languages.get(user_id, DEFAULT_LANGUAGE)

    async def raw_name(
        self,
        user_id: int,
        ai_level: str | None = None,
        lang: str = DEFAULT_LANGUAGE,
        *,
        guild_id: int | None = None,
    ) -> str:
        """The name as the server ``guild_id`` shows the user (one line, not escaped)."""
        if user_id == AI_USER_ID:
            level = text(lang, f"levels.{ai_level}") if ai_level else "?"
            return text(lang, "challenge.ai_name", level=level)
        if user_id == OPEN_SEAT:
            return text(lang, "seats.open_seat_name")
        known = self._names.get((guild_id, user_id))
        if known is not None:
            return known
        if guild_id is not None:
            member = await self._member(guild_id, user_id)
            if isinstance(member, str):
                self._names[(guild_id, user_id)] = one_line(member)
                return self._names[(guild_id, user_id)]
            if not isinstance(member, _Lookup):
                self.remember(member)
                return self._names[(guild_id, user_id)]
            shown = await self.raw_name(user_id, lang=lang)
            # Only a definite "not a member" may stand for good; after a failed look-up
            # the next call asks again, so a nickname is not lost to a passing outage.
            if member is _Lookup.NOT_A_MEMBER and (None, user_id) in self._names:
                self._names[(guild_id, user_id)] = shown
            return shown
        try:
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("could not look up the name of user %s: %s", user_id, error)
            return f"#{user_id % 10_000:04d}"
        self.remember(user)
        return self._names[(None, user_id)]

    async def _member(self, guild_id: int, user_id: int) -> discord.Member | str | _Lookup:
        """The member from the cache, else from Discord (``GET /guilds/{id}/members/{user}``
        needs no privileged intent); or why there is none. For a server this process does
        not hold (another process's shard, or not ready yet) only the name comes back."""
        guild = self._client.get_guild(guild_id)
        try:
            if guild is None:
                data = await self._client.http.get_member(guild_id, user_id)
                user = data["user"]
                return data.get("nick") or user.get("global_name") or user["username"]
            member = guild.get_member(user_id)
            if member is not None:
                return member
            return await guild.fetch_member(user_id)
        except discord.NotFound as error:
            if error.code in NOT_A_MEMBER_CODES:
                log.info("no member %s in server %s", user_id, guild_id)
                return _Lookup.NOT_A_MEMBER
            log.warning("could not look up member %s in server %s: %s", user_id, guild_id, error)
            return _Lookup.FAILED
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("could not look up member %s in server %s: %s", user_id, guild_id, error)
            return _Lookup.FAILED

    async def raw_pair(
        self,
        players: tuple[int, int],
        ai_level: str | None = None,
        lang: str = DEFAULT_LANGUAGE,
        *,
        guild_id: int | None = None,
    ) -> tuple[str, str]:
        """Both players' raw names, for pictures, alt text and thread names."""
        return (
            await self.raw_name(players[0], ai_level, lang, guild_id=guild_id),
            await self.raw_name(players[1], ai_level, lang, guild_id=guild_id),
        )

    async def name(
        self,
        user_id: int,
        ai_level: str | None = None,
        lang: str = DEFAULT_LANGUAGE,
        *,
        guild_id: int | None = None,
    ) -> str:
        """The name, markdown-safe, for text Discord renders."""
        return markdown_safe(await self.raw_name(user_id, ai_level, lang, guild_id=guild_id))

    async def pair(
        self,
        players: tuple[int, int],
        ai_level: str | None = None,
        lang: str = DEFAULT_LANGUAGE,
        *,
        guild_id: int | None = None,
    ) -> tuple[str, str]:
        """Both players' names, markdown-safe, for text Discord renders."""
        first, second = await self.raw_pair(players, ai_level, lang, guild_id=guild_id)
        return markdown_safe(first), markdown_safe(second)
