"""The private panel in DMs, for players who turned `/hanamikoji notify dm:on`.

The thread mention always goes out; the DM is extra. If Discord refuses the DM (closed
DMs, code 50007), the player is told once, ephemerally, the next time they use the bot.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.discord_ui import message_kwargs
from bot.panel import home_page
from bot.pictures import render_hand_async
from engine.store.rows import AI_USER_ID, MatchInfo

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)

DMS_CLOSED = (
    "I tried to send your hand by DM but your DMs are closed, so I mention you in the "
    "match thread instead. Allow DMs from server members, or `/hanamikoji notify dm:off`."
)


class Notifier:
    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot
        self._closed_dms_untold: set[int] = set()
        self._closed_dms_told: set[int] = set()

    async def your_turn(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM if they asked for it."""
        if user_id == AI_USER_ID:
            return
        if user_id in self._closed_dms_told | self._closed_dms_untold:
            return  # refused before: don't knock on a closed door every turn
        settings = await self.bot.service.user_settings(user_id)
        if not settings.dm_notifications:
            return
        view = await self.bot.service.view_for(info.match_id, user_id)
        names = await self.bot.player_names.pair(info.players, info.ai_level)
        page = home_page(view, info.match_id, names)
        page = replace(page, image=("hand.png", await render_hand_async(view)))
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**message_kwargs(page))
        except discord.Forbidden:
            self._closed_dms_untold.add(user_id)
        except discord.HTTPException as error:
            log.warning("match %s: DM to %s failed: %s", info.match_id, user_id, error)

    def try_again(self, user_id: int) -> None:
        """The player changed their DM choice: try DMs again from now on."""
        self._closed_dms_told.discard(user_id)
        self._closed_dms_untold.discard(user_id)

    def take_dm_notice(self, user_id: int) -> str:
        """The one-time notice for a player whose DMs were refused, else ``""``."""
        if user_id in self._closed_dms_untold:
            self._closed_dms_untold.discard(user_id)
            self._closed_dms_told.add(user_id)
            return DMS_CLOSED
        return ""
