"""The private panel in DMs, for players who turned `/hanamikoji notify dm:on`.

The DM is extra: an away player is still mentioned in the thread. If Discord refuses the DM (closed
DMs, code 50007), the player is told once, ephemerally, the next time they use the bot, and
the bot stops knocking until they change their choice.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.discord_ui import message_kwargs
from bot.i18n import text
from bot.panel import home_page
from bot.pictures import render_hand_async
from engine.store.rows import AI_USER_ID, MatchInfo

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot
        self._wants_dm: dict[int, bool] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._closed_dms_untold: set[int] = set()
        self._closed_dms_told: set[int] = set()

    async def _wants(self, user_id: int) -> bool:
        # Cached: every turn asks, and the answer only changes through /notify.
        wants = self._wants_dm.get(user_id)
        if wants is None:
            wants = (await self.bot.service.settings.user_settings(user_id)).dm_notifications
            self._wants_dm[user_id] = wants
        return wants

    async def your_turn(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM if they asked for it."""
        if user_id == AI_USER_ID or user_id in self._closed_dms_told | self._closed_dms_untold:
            return
        if not await self._wants(user_id):
            return
        lang = self.bot.player_names.language(user_id)
        view = await self.bot.service.queries.view_for(info.match_id, user_id)
        names = await self.bot.player_names.pair(info.players, info.ai_level, lang)
        page = home_page(lang, view, info.match_id, names)
        page = replace(page, image=("hand.png", await render_hand_async(lang, view)))
        try:
            channel = self._dm_channels.get(user_id)
            if channel is None:
                channel = await self.bot.create_dm(discord.Object(user_id))
                self._dm_channels[user_id] = channel
            await channel.send(**message_kwargs(page))
        except discord.Forbidden:
            self._closed_dms_untold.add(user_id)
        except discord.HTTPException as error:
            log.warning("match %s: DM to %s failed: %s", info.match_id, user_id, error)

    def choice_changed(self, user_id: int, wants_dm: bool) -> None:
        """The player changed their DM choice: remember it and try DMs again."""
        self._wants_dm[user_id] = wants_dm
        self._closed_dms_told.discard(user_id)
        self._closed_dms_untold.discard(user_id)

    def take_dm_notice(self, lang: str, user_id: int) -> str:
        """The one-time notice for a player whose DMs were refused, else ``""``."""
        if user_id in self._closed_dms_untold:
            self._closed_dms_untold.discard(user_id)
            self._closed_dms_told.add(user_id)
            return text(lang, "panel.dms_closed")
        return ""
