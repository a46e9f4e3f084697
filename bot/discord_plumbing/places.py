"""Where a match is shown — its thread, else its channel — and editing the bot's messages
there, through Discord's refusals."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_plumbing.retrier import Retrier
from bot.request_pacing import RequestPacer
from engine.model import MatchInfo

log = logging.getLogger(__name__)

THREAD_ARCHIVED = 50083
"""Discord's JSON error code for an edit in an archived thread."""
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
"""Discord's codes for a channel or message that is gone, and a server the bot left."""
GONE_MAX = 10_000


FETCHED_SECONDS = 300.0
"""How long a channel fetched from Discord is reused: one on a shard another bot process
holds is never in this process's cache, and each of its matches' messages would otherwise
cost a request first."""
FETCHED_MAX = 1000


class Places:
    def __init__(
        self, client: discord.Client, retrier: Retrier, pacer: RequestPacer | None = None
    ) -> None:
        self._client = client
        self.retrier = retrier
        self.pacer = pacer
        """The bot's pace under Discord's global limit, where a waiting edit is withdrawn
        when a newer one will replace it (None: nothing to withdraw)."""
        self._fetched: dict[int, tuple[float, discord.abc.Messageable]] = {}
        self._gone: dict[int, None] = {}
        """Channels and threads deleted under the bot (Discord said so, by an event or a
        404): never asked for again, so a lost place costs no request."""

    def tell(self, event: str, /, *args: object) -> None:
        """Dispatch ``on_<event>(*args)`` to whoever listens on the client (the metrics)."""
        self._client.dispatch(event, *args)

    def forget(self, channel_id: int) -> None:
        """The channel or thread was deleted: it is gone for good (ids are never reused)."""
        self._fetched.pop(channel_id, None)
        if len(self._gone) >= GONE_MAX:
            del self._gone[next(iter(self._gone))]
        self._gone[channel_id] = None

    def cached(self, channel_id: int) -> bool:
        """Whether discord.py holds this channel (a channel deleted with its threads is
        dropped before their THREAD_DELETEs are dispatched)."""
        return self._client.get_channel(channel_id) is not None

    def is_gone(self, channel_id: int | None) -> bool:
        """Whether Discord said this channel or thread was deleted."""
        return channel_id is not None and channel_id in self._gone

    @property
    def bot_user_id(self) -> int | None:
        """The bot's own user id (None before it logged in)."""
        user = self._client.user
        return None if user is None else user.id

    async def channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        """A channel or thread from the cache, else from Discord; None if it is gone."""
        if channel_id is None or channel_id in self._gone:
            return None
        channel = self._client.get_channel(channel_id)
        if channel is None:
            return await self._fetch(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _fetch(self, channel_id: int) -> discord.abc.Messageable | None:
        now = time.monotonic()
        fetched = self._fetched.get(channel_id)
        if fetched is not None and now - fetched[0] < FETCHED_SECONDS:
            return fetched[1]
        try:
            channel = await self._client.fetch_channel(channel_id)
        except discord.HTTPException as error:
            self._fetched.pop(channel_id, None)
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
                log.warning("channel %s was deleted", channel_id)
                self.forget(channel_id)
            else:
                log.warning("channel %s cannot be fetched: %s", channel_id, error)
            return None
        if not isinstance(channel, discord.abc.Messageable):
            return None
        if len(self._fetched) >= FETCHED_MAX:
            del self._fetched[next(iter(self._fetched))]  # the oldest fetched
        self._fetched[channel_id] = (now, channel)
        return channel

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
