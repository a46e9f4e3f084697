"""The private panel's navigation, two verbs that lead to its first page:

- Hand (``hk:<match>:<version>:hand``): on the board (version 0, whatever the match's
  version) it opens the panel; on the panel it is Refresh, redrawn with the hand picture.
  On a board outside the bot's servers the press also brings the board up to date.
- Back (``hk:<match>:<version>:back``): from the card select, a confirmation or the resign
  question (where it reads Cancel) back to the panel's first page.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import FirstResponse, on_private_message
from bot.discord_plumbing.interaction_boards import on_interaction_board
from bot.play.deps import VerbButton, fresh_view
from bot.words.i18n import text
from engine.model import MatchInfo


class HandButton(VerbButton, template=template(Verb.HAND)):
    verb = Verb.HAND

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """On a board outside the bot's servers, the press is an update of the board (so
        its token may edit it: :mod:`bot.discord_plumbing.interaction_boards`), the panel a
        private followup beside it."""
        if on_interaction_board(interaction):
            return FirstResponse.UPDATE
        return super().first_response(interaction)

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        message = interaction.message
        if on_interaction_board(interaction) and message is not None:
            board = message.id == info.placement.board_message_id
            if board:
                self.deps.interaction_boards.remember(info.match_id, interaction, message.id)
            await self.deps.panel.home(
                interaction, lang, info, edit=False, picture=True, beside=True
            )
            if board:  # then the board, through this press, as the match is now
                self.deps.interaction_boards.show(info.match_id)
            return
        private = on_private_message(interaction)
        await self.deps.panel.home(interaction, lang, info, edit=private, picture=True)


class BackButton(VerbButton, template=template(Verb.BACK)):
    verb = Verb.BACK

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        view = await fresh_view(self, interaction, lang, info, to_decide=False)
        if view is not None:
            edit = on_private_message(interaction)
            await self.deps.panel.home(interaction, lang, info, edit=edit, view=view)


def hand_button(lang: str, match_id: int) -> HandButton:
    """Version 0: the board's Hand button opens the panel whatever the match's version."""
    label = f"{text(lang, 'board.hand_button')} 🂠"
    return HandButton(match_id, 0, label=label, style=discord.ButtonStyle.primary)


def refresh_button(lang: str, match_id: int, version: int) -> HandButton:
    """The panel's Refresh: the Hand verb, made for the version the panel shows."""
    return HandButton(match_id, version, label=text(lang, "panel.refresh"))


def back_button(lang: str, match_id: int, version: int) -> BackButton:
    return BackButton(match_id, version, label=text(lang, "panel.back"))
