"""What the answers on a challenge's message share: Accept / Decline under a challenge to a
member, Join / Cancel under an open seat (a challenge to anyone). Anyone may press them;
the service says who may do what, and each presser is answered: the message shows the
answer, or the presser alone is told why not."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot.challenge.deps import ChallengeButton
from bot.custom_ids import ANY_MATCH_ITEM, Verb
from bot.discord_plumbing.first_response import FirstResponse
from bot.discord_plumbing.pages import reply_privately
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service import NotYourMatch


@dataclass(frozen=True, slots=True)
class Answer:
    """A press the service took, for its verb to show."""

    lang: str
    """The presser's language (what only they read)."""
    public: str
    """The server's language (the message everyone reads)."""
    before: MatchInfo
    """The challenge as read before the answer."""
    after: MatchInfo
    names: tuple[str, str]
    """The players' names after the answer, in the server's language."""


class AnswerButton(ChallengeButton, template=ANY_MATCH_ITEM):
    """``hk:<match>:0:<verb>``: each verb says what it asks of the service
    (:meth:`answer`) and what the message then shows (:meth:`show`)."""

    players_only: ClassVar[bool] = False
    verb: ClassVar[Verb]
    style: ClassVar[discord.ButtonStyle]

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(match_id, 0, self.verb, label, self.style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The answer edits the message pressed (the challenge, or the list of seats); a
        refusal comes as a private followup."""
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        # The language first: once the answer is stored, no read may refuse it.
        public = await self.deps.languages.public(info.guild_id)
        try:
            # Acknowledged already (a deferred update): the answer's commits now.
            answered = await self.answer(info, interaction.user.id)
        except NotYourMatch:
            await reply_privately(interaction, await self.not_yours(lang, info))
            return
        names = await self.deps.names.pair(
            answered.players, None, public, guild_id=answered.guild_id
        )
        await self.show(interaction, Answer(lang, public, info, answered, names))

    async def answer(self, info: MatchInfo, user_id: int) -> MatchInfo:
        """Ask the service; the challenge as it is after the answer."""
        raise NotImplementedError

    async def not_yours(self, lang: str, info: MatchInfo) -> str:
        """What a member may not answer is told: the challenge is someone else's."""
        theirs = await self.deps.names.name(info.players[1], lang=lang, guild_id=info.guild_id)
        return text(lang, "challenge.for_someone_else", name=theirs)

    async def show(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        """Show the answer where it was pressed."""
        raise NotImplementedError

    async def close(self, interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
        """The message pressed shows ``embed``, its last state, without buttons."""
        self.deps.open_challenges.forget(self.match_id)
        await interaction.edit_original_response(content=None, embed=embed, view=None)
