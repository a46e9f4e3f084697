"""Show board (``hk:<match>:0:show``): on a board outside any server the bot is in (a DM, a
group DM, a server only the user-installed app reaches), which the bot can edit only
through a press on it, brings the board up to date in place — after 15 quiet minutes, or
whatever happened meanwhile (the AI's moves, a timer). Anyone who sees the board may press
it: it shows only what the board shows."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import FirstResponse
from bot.play.deps import PlayButton, button
from bot.words.i18n import text
from engine.model import MatchInfo


class ShowBoardButton(PlayButton, template=template(Verb.SHOW)):
    """``hk:<match>:0:show``: version 0, it works whatever the match's version."""

    players_only = False
    answers_itself = False

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(button(match_id, 0, Verb.SHOW, label=label), match_id, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The board pressed is edited in place through this press."""
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        message = interaction.message
        if message is None or message.id != info.placement.board_message_id:
            return  # not the match's board (an old copy): acknowledged, nothing to show
        self.deps.interaction_boards.remember(info.match_id, interaction, message.id, show=True)


def show_board_button(lang: str, match_id: int) -> ShowBoardButton:
    return ShowBoardButton(match_id, label=f"{text(lang, 'board.show_button')} 🔄")
