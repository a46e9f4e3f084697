"""Join: take an open seat (on the seat message, or in `/hanamikoji seats`). The first
press starts the match; every later one is told the seat is taken."""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.answer_button import Answer, AnswerButton
from bot.challenge.words import taken
from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import on_private_message
from bot.words.i18n import text
from engine.model import MatchInfo


class JoinButton(AnswerButton, template=template(Verb.JOIN)):
    verb = Verb.JOIN
    style = discord.ButtonStyle.success

    async def answer(self, info: MatchInfo, user_id: int) -> MatchInfo:
        return await self.deps.seats.join(info.match_id, user_id)

    async def show(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        if not on_private_message(interaction):
            await self.close(interaction, taken(answer.public, answer.names))
            return
        # Pressed in `/hanamikoji seats`: the list says where to go, the seat says taken.
        where = f"<#{answer.after.channel_id}>"
        said = text(answer.lang, "seats.joined_from_list", host=answer.names[0], channel=where)
        await interaction.edit_original_response(content=said, embed=None, view=None)
        # Starting the match cleared the seat's message id: the one read before it.
        seat_message = answer.before.placement.board_message_id
        await self.deps.open_challenges.show_taken(answer.after, seat_message)
