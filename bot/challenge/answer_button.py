"""What Accept and Decline share: anyone may press them, and each presser is answered —
the challenged player answers, the challenger may withdraw, anyone else is told whose
challenge it is."""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.challenge.deps import ChallengeButton
from bot.discord_plumbing.first_response import FirstResponse
from bot.discord_plumbing.match_item import ANY_MATCH_ITEM
from bot.discord_plumbing.pages import reply_privately
from bot.words.i18n import text
from bot.words.refusals import refusal_text
from engine.model import MatchInfo, MatchStatus
from engine.service.errors import ChallengeNotPending


class AnswerButton(ChallengeButton, template=ANY_MATCH_ITEM):
    """Accept or Decline (``hk:<match>:0:accept`` / ``…:decline``)."""

    players_only: ClassVar[bool] = False

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        if info.status is not MatchStatus.PENDING:
            answered = ChallengeNotPending(info.match_id, str(info.status))
            await reply_privately(interaction, refusal_text(lang, answered))
            return
        # The challenge message is public: it is edited in the server's language.
        public = await self.deps.languages.public(info.guild_id)
        names = await self.deps.names.pair(info.players, None, public, guild_id=info.guild_id)
        await self.answer(interaction, lang, public, info, names)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        lang: str,
        public: str,
        info: MatchInfo,
        names: tuple[str, str],
    ) -> None:
        raise NotImplementedError

    async def refuse_others(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> bool:
        """Tell anyone but the challenged player that the challenge is not theirs."""
        if interaction.user.id == info.players[1]:
            return False
        theirs = await self.deps.names.name(info.players[1], lang=lang, guild_id=info.guild_id)
        await reply_privately(interaction, text(lang, "challenge.for_someone_else", name=theirs))
        return True

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The answer edits the public challenge; a refusal comes as a private followup."""
        return FirstResponse.UPDATE

    async def close(self, interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
        await interaction.edit_original_response(content=None, embed=embed, view=None)
