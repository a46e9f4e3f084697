"""Cancel: the host withdraws their open seat; anyone else is told whose seat it is."""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.answer_button import Answer, AnswerButton
from bot.challenge.words import seat_closed
from bot.custom_ids import Verb, template
from bot.words.i18n import text
from engine.model import MatchInfo


class CancelButton(AnswerButton, template=template(Verb.CANCEL)):
    verb = Verb.CANCEL
    style = discord.ButtonStyle.secondary

    async def answer(self, info: MatchInfo, user_id: int) -> MatchInfo:
        return await self.deps.seats.cancel(info.match_id, user_id)

    async def not_yours(self, lang: str, info: MatchInfo) -> str:
        host = await self.deps.names.name(info.players[0], lang=lang, guild_id=info.guild_id)
        return text(lang, "seats.cancel_not_host", host=host)

    async def show(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        embed = seat_closed(answer.public, answer.names[0], "seats.cancelled")
        await self.close(interaction, embed)
