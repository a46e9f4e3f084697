"""Direct messages for players who turned `/hanamikoji notify dm:True`.

The DM is extra: an away player is still mentioned in the thread. Each player has at most
one live panel per match in their DMs: when the turn moves on, the old one is edited down
to a line saying so (buttons and picture gone), so no stale "Your turn" button is left
behind. Sending and retiring a player's panel of a match are done one at a time, in
order (:meth:`DirectMessages.in_order`), so a retirement never overtakes the send it
follows. A panel this process did not send (another bot process did, or this one before
a restart) is found in the DM channel's last messages by its buttons' match; alone, a
process looks there once per player and match after it starts.

If Discord refuses the DM (closed DMs, code 50007), the player is told once,
ephemerally, the next time they use the bot, and the bot stops knocking until they change
their choice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.custom_ids import match_prefix
from bot.discord_plumbing.pages import custom_ids, message_kwargs, text_page
from bot.words.i18n import text
from engine.model import AI_USER_ID
from engine.service import MatchSettings

log = logging.getLogger(__name__)

RECENT_DMS = 10
"""How far back in a DM channel a panel sent elsewhere is looked for: a player's live
panels are their latest messages from the bot, one per match."""


class DirectMessages:
    def __init__(
        self,
        settings: MatchSettings,
        open_dm: Callable[[discord.abc.Snowflake], Awaitable[discord.DMChannel]],
        *,
        other_processes: bool = False,
    ) -> None:
        self._settings = settings
        self._open_dm = open_dm
        self._other_processes = other_processes
        """Other bot processes send panels too (a shared database): one this process does
        not know may be live in the player's DMs at any time."""
        self._handled: set[tuple[int, int]] = set()
        """(user, match) whose panels this process has sent or retired since it started:
        alone, it knows there is no other live one."""
        self._wants_dm: dict[int, bool] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._closed_untold: set[int] = set()
        self._closed_told: set[int] = set()
        self._panels: dict[tuple[int, int], discord.Message] = {}
        """The live DM panel of each (user, match) this process sent."""
        self._order: dict[tuple[int, int], tuple[asyncio.Lock, int]] = {}
        """Per (user, match) being sent or retired: the lock and how many wait on it."""

    @asynccontextmanager
    async def in_order(self, user_id: int, match_id: int) -> AsyncIterator[None]:
        """Hold while sending or retiring the player's panel of the match; the lock is
        dropped once nobody waits (else every panel ever sent would keep one)."""
        key = (user_id, match_id)
        lock, waiting = self._order.get(key, (asyncio.Lock(), 0))
        self._order[key] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._order[key]
            if waiting == 1:
                del self._order[key]
            else:
                self._order[key] = (lock, waiting - 1)

    async def wanted_by(self, user_id: int) -> bool:
        """Whether to DM this player: they asked for it, and their DMs are not closed."""
        if user_id == AI_USER_ID or user_id in self._closed_told | self._closed_untold:
            return False
        # Cached: every turn asks, and the answer only changes through /notify.
        wants = self._wants_dm.get(user_id)
        if wants is None:
            wants = (await self._settings.user_settings(user_id)).dm_notifications
            self._wants_dm[user_id] = wants
        return wants

    async def send(
        self, user_id: int, what: str, kwargs: dict[str, Any], *, match_id: int | None = None
    ) -> None:
        """Send a DM; a refusal is remembered (closed DMs) or logged. With ``match_id`` it is
        that match's live panel, retired by :meth:`retire` when the turn moves on."""
        try:
            channel = self._dm_channels.get(user_id)
            if channel is None:
                channel = await self._open_dm(discord.Object(user_id))
                self._dm_channels[user_id] = channel
            message = await channel.send(**kwargs)
        except discord.Forbidden:
            self._closed_untold.add(user_id)
            return
        except discord.HTTPException as error:
            log.warning("%s: DM to %s failed: %s", what, user_id, error)
            return
        if match_id is not None:
            self._panels[(user_id, match_id)] = message
            self._handled.add((user_id, match_id))

    async def retire(self, user_id: int, match_id: int, line: str) -> None:
        """Edit the player's live DM panel of the match down to ``line``, buttons and
        picture gone; nothing when there is none."""
        key = (user_id, match_id)
        message = self._panels.pop(key, None)
        unknown = self._other_processes or key not in self._handled
        self._handled.add(key)
        try:
            if message is not None:
                panels = [message]
            elif unknown and await self.wanted_by(user_id):
                panels = await self._sent_elsewhere(user_id, match_id)
            else:
                return
            for panel in panels:
                await panel.edit(**message_kwargs(text_page(line), editing=True))
        except discord.HTTPException as error:
            log.warning("match %s: could not retire %s's DM panel: %s", match_id, user_id, error)

    def forget(self, user_id: int, match_id: int) -> None:
        """The match is over and its panels retired: nothing to keep about them."""
        self._handled.discard((user_id, match_id))
        self._panels.pop((user_id, match_id), None)

    async def _sent_elsewhere(self, user_id: int, match_id: int) -> list[discord.Message]:
        """The bot's messages among the player's last DMs that still have buttons of the
        match: panels another bot process sent, or this one before a restart."""
        channel = self._dm_channels.get(user_id)
        if channel is None:
            channel = await self._open_dm(discord.Object(user_id))
            self._dm_channels[user_id] = channel
        prefix = match_prefix(match_id)
        found = []
        async for message in channel.history(limit=RECENT_DMS):
            if message.author.id != channel.me.id:
                continue
            if any(c.startswith(prefix) for c in custom_ids(message.components)):
                found.append(message)
        return found

    def choice_changed(self, user_id: int, wants_dm: bool) -> None:
        """The player changed their DM choice: remember it and try DMs again."""
        self._wants_dm[user_id] = wants_dm
        self._closed_told.discard(user_id)
        self._closed_untold.discard(user_id)

    def take_closed_notice(self, lang: str, user_id: int) -> str:
        """The one-time notice for a player whose DMs were refused, else ``""``."""
        if user_id in self._closed_untold:
            self._closed_untold.discard(user_id)
            self._closed_told.add(user_id)
            return text(lang, "panel.dms_closed")
        return ""
