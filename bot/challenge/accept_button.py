"""Accept: the challenged member starts the match (its presenter then opens its thread; outside
the servers the bot is in, the challenge's message becomes the board)."""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.answer_button import Answer, AnswerButton
from bot.challenge.anywhere import board_here
from bot.challenge.words import closed
from bot.custom_ids import Verb, template
from bot.discord_plumbing.interaction_boards import shown_by_interactions
from bot.words.i18n import text
from engine.model import MatchInfo


class AcceptButton(AnswerButton, template=template(Verb.ACCEPT)):
    verb = Verb.ACCEPT
    style = discord.ButtonStyle.success

    async def answer(self, info: MatchInfo, user_id: int) -> MatchInfo:
        return await self.deps.challenges.accept(info.match_id, user_id)

    async def show(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        if shown_by_interactions(answer.after):
            # Outside the servers the bot is in, the challenge turns into the board.
            await board_here(self.deps, interaction, answer.after)
            return
        public, names = answer.public, answer.names
        what = text(public, "challenge.accepted", name=names[1])
        await self.close(interaction, closed(public, names, what, started=True))
