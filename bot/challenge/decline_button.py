"""Decline: the challenged player says no, or the challenger withdraws the challenge."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.challenge.answer_button import AnswerButton
from bot.challenge.challenge_message import closed
from bot.custom_ids import Verb, template
from bot.words.i18n import text
from engine.model import MatchInfo


class DeclineButton(AnswerButton, template=template(Verb.DECLINE)):
    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(match_id, 0, Verb.DECLINE, label, discord.ButtonStyle.danger)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        public: str,
        info: MatchInfo,
        names: tuple[str, str],
    ) -> None:
        user_id = interaction.user.id
        if user_id == info.players[0]:
            await self.deps.commands.cancel(info.match_id, user_id)
            await self.close(
                interaction,
                closed(public, names, text(public, "challenge.withdrawn", name=names[0])),
            )
            return
        if await self.refuse_others(interaction, lang, info):
            return
        await self.deps.commands.decline(info.match_id, user_id)
        await self.close(
            interaction, closed(public, names, text(public, "challenge.declined", name=names[1]))
        )
