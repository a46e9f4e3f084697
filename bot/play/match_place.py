"""Where a match's public messages go — its thread, else its channel — in which language,
with which player names, and posting there within the bot's permissions."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_plumbing.announcement_nonces import NONCE_TRUSTED_SECONDS, next_nonce, with_nonce
from bot.discord_plumbing.channel_permissions import can_send, fit_message
from bot.discord_plumbing.places import Places
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import MatchInfo, MatchStatus

log = logging.getLogger(__name__)


class MatchPlace:
    """The match's place in Discord and the messages the bot posts there."""

    def __init__(
        self,
        places: Places,
        names: PlayerNames,
        languages: ServerLanguages,
        lost: Callable[[int], None] = lambda match_id: None,
    ) -> None:
        """``lost`` is told of an open match whose place Discord says is deleted (its
        board's next edit repairs it, or ends the match with its channel)."""
        self.places = places
        self._lost = lost
        self._lost_told: set[int] = set()
        """The deleted places ``lost`` was told of: once each, however often asked."""
        self.retrier = places.retrier
        self._names = names
        self._languages = languages

    async def place(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        place = await self.places.of_match(info)
        where = info.placement.thread_id or info.channel_id
        lost = place is None and info.status is MatchStatus.ACTIVE and self.places.is_gone(where)
        if lost and where is not None and where not in self._lost_told:
            self._lost_told.add(where)
            self._lost(info.match_id)
        return place

    async def public_language(self, info: MatchInfo) -> str:
        """The language of the match's public messages (its server's)."""
        return await self._languages.public(info.guild_id)

    async def names(self, info: MatchInfo) -> tuple[str, str]:
        """The players' names as the match's public messages show them: in its server,
        markdown-safe (the one place the thread's lines get their names)."""
        lang = await self._languages.public(info.guild_id)
        return await self._names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)

    async def raw_names(self, info: MatchInfo) -> tuple[str, str]:
        """The players' names in the match's server, not escaped: for the pictures, their
        alt text and the thread's name, which Discord shows as plain text."""
        lang = await self._languages.public(info.guild_id)
        return await self._names.raw_pair(info.players, info.ai_level, lang, guild_id=info.guild_id)

    async def post(
        self, info: MatchInfo, content: str, mention: int | None = None, **kwargs: Any
    ) -> discord.Message | None:
        """Send a message to the match's place, retried while Discord says later, reduced to
        what the bot's permissions there allow; None where the bot may not post."""
        place = await self.place(info)
        if place is None:
            return None
        if not can_send(place):
            log.warning("match %s: no permission to post in %s", info.match_id, place)
            return None
        allowed = discord.AllowedMentions(users=[discord.Object(mention)] if mention else False)
        return await self.send(
            place,
            f"match {info.match_id}: a message",
            {"content": content, "allowed_mentions": allowed, **kwargs},
        )

    async def send(
        self,
        place: discord.abc.Messageable,
        what: str,
        kwargs: dict[str, Any],
        purpose: str | None = None,
    ) -> discord.Message:
        """Post ``kwargs`` (fitted to the bot's permissions) to ``place``, retried while
        Discord says later. Part of an announcement, the message has a nonce
        (:func:`next_nonce`, by ``purpose``): Discord posts it once however often it is
        sent, so it may be sent again after a 5xx too, while Discord still knows it."""
        nonce = next_nonce(purpose)
        message: discord.Message = await self.retrier.until_accepted(
            what,
            lambda: place.send(**fit_message(place, {**kwargs, **with_nonce(nonce)})),
            creates=True,
            deduplicated_for=None if nonce is None else NONCE_TRUSTED_SECONDS,
        )
        return message
