"""Where a match is shown — its thread, else its channel — and editing the bot's messages
there, through Discord's refusals."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_plumbing.retrier import Retrier
from engine.store.rows import MatchInfo

log = logging.getLogger(__name__)

THREAD_ARCHIVED = 50083
"""Discord's JSON error code for an edit in an archived thread."""


class Places:
    def __init__(self, client: discord.Client, retrier: Retrier) -> None:
        self._client = client
        self.retrier = retrier

    async def channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        """A channel or thread from the cache, else from Discord; None if it is gone."""
        if channel_id is None:
            return None
        channel = self._client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self._client.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def of_match(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        return await self.channel(info.placement.thread_id or info.channel_id)

    async def edit_message(
        self,
        place: discord.abc.Messageable,
        message_id: int,
        make_kwargs: Callable[[], dict[str, Any]],
    ) -> None:
        """Edit one of the bot's messages in place. Discord refuses edits in an archived
        thread (50083), so the thread is unarchived first; transient refusals are retried."""
        message = place.get_partial_message(message_id)  # type: ignore[attr-defined]

        async def edit() -> None:
            if isinstance(place, discord.Thread) and place.archived:
                await place.edit(archived=False)
            try:
                await message.edit(**make_kwargs())
            except discord.HTTPException as error:
                if error.code != THREAD_ARCHIVED or not isinstance(place, discord.Thread):
                    raise
                # Our cache had not heard of the archiving yet.
                await place.edit(archived=False)
                await message.edit(**make_kwargs())

        await self.retrier.until_accepted(f"message {message_id}: an edit", edit)
