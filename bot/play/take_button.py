"""Take: the opponent's pick from a Gift (one card) or a Competition (one pair), one
button per distinct choice the engine allows (E, E, G gives two buttons).

Shown on the board and in the chooser's panel; only the chooser may take.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, decision_arg, template
from bot.discord_plumbing.app_emojis import button_emoji
from bot.discord_plumbing.first_response import FirstResponse, on_private_message
from bot.discord_plumbing.pages import reply_privately
from bot.play.deps import PlayButton, button
from bot.words.card_faces import LETTERS, CardFaces, card_key
from bot.words.decision_words import taken_words
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.rules import (
    Competition,
    CompetitionChoice,
    Gift,
    GiftChoice,
)
from engine.rules.legal import legal_choices
from engine.service.matches.errors import NotYourTurn, StaleVersion

Choice = GiftChoice | CompetitionChoice


class TakeButton(PlayButton, template=template(Verb.TAKE)):
    """``hk:<match>:<version>:take:-E`` (a Gift's card) or ``…:take:-AB`` (a pair)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        choice: Choice | None,
        *,
        label: str = "",
        unread: str = "",
    ) -> None:
        super().__init__(
            button(
                match_id,
                version,
                Verb.TAKE,
                unread if choice is None else str(choice),
                label=label,
                style=discord.ButtonStyle.primary,
            ),
            match_id,
            version,
        )
        self.choice = choice
        """None for an argument that is not a choice (a garbled id): the press is refused."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        choice = decision_arg(match["arg"])
        if not isinstance(choice, GiftChoice | CompetitionChoice):
            choice = None
        return cls(int(match["match"]), int(match["version"]), choice, unread=match["arg"])

    def readable(self) -> bool:
        return self.choice is not None and super().readable()

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """An update wherever it is pressed: on the private panel the answer is the panel
        redrawn (held back, so that it is the first response when ready in time); on the
        board a deferred update at once, filled in by the board's own edit showing the
        move (a refusal comes as a private followup)."""
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        private = on_private_message(interaction)
        # The service checks that the offer is still open and the presser's to settle.
        assert self.choice is not None, "readable() refused it"
        presses = self.deps.board_presses
        took = text(lang, "panel.took", cards=taken_words(lang, self.choice))
        if not private:
            # Left before the submit, so the presenter's edit that shows the move (which
            # may start before the submit returns here) finds it: the board is edited
            # through this press, outside the bot's global rate limit.
            presses.leave(
                info.match_id, pressed_on=self.version, interaction=interaction, note=took
            )
        try:
            result = await self.deps.commands.submit(
                info.match_id, interaction.user.id, self.choice, self.version
            )
        except StaleVersion:
            presses.withdraw(info.match_id, interaction)
            await reply_privately(interaction, text(lang, "refusal.offer_settled"))
            return
        except NotYourTurn:
            presses.withdraw(info.match_id, interaction)
            names = await self.names_by_id(lang)
            other_seat = 1 - (info.seat_of(interaction.user.id) or 0)
            other = names.get(info.players[other_seat], "?")
            await reply_privately(interaction, text(lang, "refusal.not_your_choice", name=other))
            return
        except BaseException:
            presses.withdraw(info.match_id, interaction)
            raise
        if private:
            await self.deps.panel.played(interaction, lang, info, result, edit=True, notice=took)
        # On the board, no private note: the board's edit shows what was taken (its recent
        # moves and picture), and the offer's question is answered in the thread. Only if
        # that edit cannot show it where it was pressed does the presenter send the note.


def take_buttons(
    lang: str,
    match_id: int,
    version: int,
    offer: Gift | Competition,
    faces: CardFaces = LETTERS,
) -> tuple[TakeButton, ...]:
    """One button per distinct choice the engine allows; a Gift's each with its card's
    emoji when there are emojis."""
    buttons = []
    for choice in legal_choices(offer).decisions:
        assert isinstance(choice, GiftChoice | CompetitionChoice)
        take = TakeButton(
            match_id,
            version,
            choice,
            label=text(lang, "panel.take", cards=taken_words(lang, choice)),
        )
        if isinstance(choice, GiftChoice):
            take.item.emoji = button_emoji(faces, card_key(choice.card))
        buttons.append(take)
    return tuple(buttons)
