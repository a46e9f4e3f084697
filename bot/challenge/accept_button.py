"""Accept: the challenged player starts the match (its presenter then opens its thread)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.challenge.answer_button import AnswerButton
from bot.challenge.challenge_message import closed
from bot.custom_ids import Verb, template
from bot.words.i18n import text
from engine.model import MatchInfo


class AcceptButton(AnswerButton, template=template(Verb.ACCEPT)):
    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(match_id, 0, Verb.ACCEPT, label, discord.ButtonStyle.success)

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
        if await self.refuse_others(interaction, lang, info):
            return
        # Accepting starts the match: acknowledged already (a deferred update), the work now.
        await self.deps.commands.accept(info.match_id, interaction.user.id)
        what = text(public, "challenge.accepted", name=names[1])
        embed = closed(public, names, what, started=True)
        await interaction.edit_original_response(content=None, embed=embed, view=None)
