"""The Rematch button under a finished match: both players press it, then a new match
starts in the same channel (against the AI, one press is enough)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, text
from engine.store.rows import MatchInfo, MatchStatus

if TYPE_CHECKING:
    from bot.client import HanamikojiBot


class Rematches:
    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot
        self._pressed: dict[int, set[int]] = {}
        self._started: set[int] = set()

    async def press(self, interaction: discord.Interaction[Any], info: MatchInfo) -> None:
        user_id = interaction.user.id
        lang = language_of(interaction.locale)
        if info.status is not MatchStatus.FINISHED:
            await self.bot.clicks.reply(interaction, text(lang, "refusal.not_over"))
            return
        if info.match_id in self._started:
            await self.bot.clicks.reply(interaction, text(lang, "refusal.rematch_started"))
            return
        service = self.bot.service
        if info.is_ai_match:
            self._started.add(info.match_id)
            await interaction.response.defer()
            assert info.ai_level is not None
            await service.commands.start_ai_match(
                user_id,
                info.ai_level,
                info.guild_id,
                info.channel_id,
                info.variant,
                info.turn_seconds,
            )
            await interaction.edit_original_response(view=None)  # the new match has its thread
            return
        pressed = self._pressed.setdefault(info.match_id, set())
        pressed.add(user_id)
        if len(pressed) < 2:
            other = info.players[1] if user_id == info.players[0] else info.players[0]
            public = await self.bot.public_language(info.guild_id)
            name = await self.bot.player_names.name(other, lang=public)
            await interaction.response.send_message(
                text(public, "rematch.waiting", mention=f"<@{user_id}>", name=name),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        self._started.add(info.match_id)
        self._pressed.pop(info.match_id, None)
        await interaction.response.defer()
        # The new match swaps who challenged, so seat 0 alternates between rematches.
        challenge = await service.commands.challenge(
            info.players[1],
            info.players[0],
            info.guild_id,
            info.channel_id,
            info.variant,
            info.turn_seconds,
        )
        await service.commands.accept(challenge.match_id, info.players[0])
        await interaction.edit_original_response(view=None)  # the new match has its thread
