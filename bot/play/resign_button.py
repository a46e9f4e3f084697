"""Resign: the question `/hanamikoji resign` asks — "Yes, resign", which ends the match, or
Cancel, which is the panel's Back (it turns the question into the player's panel)."""

from __future__ import annotations

from typing import Any

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import update_in_place
from bot.play.deps import VerbButton
from bot.play.navigation_buttons import BackButton
from bot.words.i18n import text
from engine.model import MatchInfo


class ResignButton(VerbButton, template=template(Verb.RESIGN)):
    verb = Verb.RESIGN
    style = discord.ButtonStyle.danger

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        await self.deps.commands.resign(info.match_id, interaction.user.id)
        await update_in_place(
            interaction, content=text(lang, "commands.resigned"), embed=None, view=None
        )


def resign_question(lang: str, match_id: int, version: int) -> discord.ui.View:
    """The buttons under "Do you really want to resign?": Yes, resign · Cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(match_id, version, label=text(lang, "commands.resign_button")))
    view.add_item(BackButton(match_id, version, label=text(lang, "commands.resign_cancel")))
    return view
