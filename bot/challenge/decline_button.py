"""Decline: the challenged member says no, or the challenger withdraws the challenge."""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.answer_button import Answer, AnswerButton
from bot.challenge.words import closed
from bot.custom_ids import Verb, template
from bot.words.i18n import text
from engine.model import MatchInfo, MatchStatus


class DeclineButton(AnswerButton, template=template(Verb.DECLINE)):
    verb = Verb.DECLINE
    style = discord.ButtonStyle.danger

    async def answer(self, info: MatchInfo, user_id: int) -> MatchInfo:
        if user_id == info.players[0]:
            return await self.deps.challenges.cancel(info.match_id, user_id)
        return await self.deps.challenges.decline(info.match_id, user_id)

    async def show(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        public, names = answer.public, answer.names
        if answer.after.status is MatchStatus.CANCELLED:
            what = text(public, "challenge.withdrawn", name=names[0])
        else:
            what = text(public, "challenge.declined", name=names[1])
        await self.close(interaction, closed(public, names, what))
