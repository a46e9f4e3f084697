"""What the three buttons of an overdue turn-based match share (``hk:<match>:<version>:
claim``, ``…:letai``, ``…:wait``, on the board once the late player's grace is over): who
may press (the waiting player; the service says so), and the refusals in words.

Each verb is its own module (:mod:`bot.play.claim_button`, :mod:`bot.play.ai_turn_button`,
:mod:`bot.play.wait_button`); the service publishes what the choice did, and the match's
presenter edits the board. The presser gets a private line either way.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.custom_ids import ANY_MATCH_ITEM
from bot.discord_plumbing.first_response import FirstResponse, send_private
from bot.play.deps import VerbButton
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service.matches.errors import ClaimNotOffered, NotYourMatch, StaleVersion
from engine.service.matches.overdue import OverdueChoices


def refusal_words(
    lang: str, error: ClaimNotOffered | NotYourMatch | StaleVersion, late: str, waiting: str
) -> str:
    """Why the choice was refused, naming the late (``late``) and waiting player."""
    if isinstance(error, NotYourMatch):
        return text(lang, "play_overdue.only_waiting", waiting=waiting)
    if isinstance(error, ClaimNotOffered):
        return text(lang, "play_overdue.not_offered", late=late)
    return text(lang, "play_overdue.moved_on", late=late)


class OverdueButton(VerbButton, template=ANY_MATCH_ITEM):
    """A choice of the waiting player; its answer is a new private line."""

    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        return FirstResponse.THINK

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        overdue = self.deps.overdue
        assert overdue is not None, "the play feature is set up with the service's overdue"
        names = await self.names_by_id(lang)
        mover = info.seat_to_move
        # The presser is a player (the base's check); with nobody to move, the presser is
        # taken for the waiting one (the service refuses it anyway).
        waiting_seat = 1 - mover if mover is not None else info.seat_of(interaction.user.id) or 0
        late = names.get(info.players[1 - waiting_seat], "?")
        waiting = names.get(info.players[waiting_seat], "?")
        try:
            done = await self.choose(overdue, info, interaction.user.id)
        except (ClaimNotOffered, NotYourMatch, StaleVersion) as error:
            await send_private(interaction, refusal_words(lang, error, late, waiting))
            return
        await send_private(interaction, self.done_words(lang, late, done))

    async def choose(self, overdue: OverdueChoices, info: MatchInfo, user_id: int) -> float:
        """Make the choice; what :meth:`done_words` needs of its answer (a deadline)."""
        raise NotImplementedError

    def done_words(self, lang: str, late: str, done: float) -> str:
        raise NotImplementedError
