"""Direct messages for players who turned `/hanamikoji notify dm:on`.

The DM is extra: an away player is still mentioned in the thread. Each player has at most
one live panel per match in their DMs: when the turn moves on, the old one is edited down
to a line saying so (buttons and picture gone), so no stale "Your turn" button is left
behind. If Discord refuses the DM (closed DMs, code 50007), the player is told once,
ephemerally, the next time they use the bot, and the bot stops knocking until they change
their choice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.words.i18n import text
from engine.service import MatchSettings
from engine.store.rows import AI_USER_ID

log = logging.getLogger(__name__)


class DirectMessages:
    def __init__(
        self,
        settings: MatchSettings,
        open_dm: Callable[[discord.abc.Snowflake], Awaitable[discord.DMChannel]],
    ) -> None:
        self._settings = settings
        self._open_dm = open_dm
        self._wants_dm: dict[int, bool] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._closed_untold: set[int] = set()
        self._closed_told: set[int] = set()
        self._panels: dict[tuple[int, int], discord.Message] = {}
        """The live DM panel of each (user, match)."""

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

    def has_panel(self, user_id: int, match_id: int) -> bool:
        return (user_id, match_id) in self._panels

    async def retire(self, user_id: int, match_id: int, line: str) -> None:
        """Edit the player's live DM panel of the match down to ``line``, buttons and
        picture gone; nothing when there is none."""
        message = self._panels.pop((user_id, match_id), None)
        if message is None:
            return
        try:
            await message.edit(content=line, embed=None, view=None, attachments=[])
        except discord.HTTPException as error:
            log.warning("match %s: could not retire %s's DM panel: %s", match_id, user_id, error)

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
