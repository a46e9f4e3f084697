"""Rematch, under a finished match: both players press it, then a new match starts in the
same channel (against the AI, one press is enough). The service keeps the presses, so a
restart between them loses nothing."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.challenge.deps import ChallengeButton
from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import FirstResponse
from bot.words.i18n import text
from engine.model import MatchInfo


class RematchButton(ChallengeButton, template=template(Verb.REMATCH)):
    """``hk:<match>:<version>:rematch``; only the finished match's players may press it."""

    def __init__(self, match_id: int, version: int, *, label: str = "") -> None:
        super().__init__(match_id, version, Verb.REMATCH, label, discord.ButtonStyle.success)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The answer edits the message the button is under, or adds a public line."""
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        user_id = interaction.user.id
        # The language first: once the press is stored, no read may refuse it.
        public = await self.deps.languages.public(info.guild_id)
        # Acknowledged already (a deferred update): the last press stores it and starts a
        # match (several commits).
        rematch = await self.deps.challenges.rematch(info.match_id, user_id)
        if rematch.started is not None:
            # The new match has its own thread: the button has done its job.
            await interaction.edit_original_response(view=None)
            return
        other = rematch.waiting_for
        name = (
            await self.deps.names.name(other, lang=public, guild_id=info.guild_id)
            if other is not None
            else "?"
        )
        await interaction.followup.send(
            text(public, "rematch.waiting", mention=f"<@{user_id}>", name=name),
            allowed_mentions=discord.AllowedMentions.none(),
        )
