"""Resign: the question `/hanamikoji resign` asks — "Yes, resign", which ends the match, or
Cancel, which is the panel's Back (it turns the question into the player's panel)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.play.deps import PlayButton, button
from bot.play.navigation_buttons import BackButton
from bot.words.i18n import text
from engine.model import MatchInfo


class ResignButton(PlayButton, template=template(Verb.RESIGN)):
    def __init__(self, match_id: int, version: int, *, label: str = "") -> None:
        super().__init__(
            button(match_id, version, Verb.RESIGN, label=label, style=discord.ButtonStyle.danger),
            match_id,
            version,
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]))

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        await self.deps.commands.resign(info.match_id, interaction.user.id)
        await interaction.edit_original_response(
            content=text(lang, "commands.resigned"), embed=None, view=None
        )


def resign_question(lang: str, match_id: int, version: int) -> discord.ui.View:
    """The buttons under "Do you really want to resign?": Yes, resign · Cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(match_id, version, label=text(lang, "commands.resign_button")))
    view.add_item(BackButton(match_id, version, label=text(lang, "commands.resign_cancel")))
    return view
