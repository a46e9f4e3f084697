"""Back: from the card select or a confirmation to the panel's first page."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import on_private_message
from bot.play.deps import PlayButton, button, fresh_view
from bot.words.i18n import text
from engine.model import MatchInfo


class BackButton(PlayButton, template=template(Verb.BACK)):
    def __init__(self, match_id: int, version: int, *, label: str = "") -> None:
        super().__init__(button(match_id, version, Verb.BACK, label=label), match_id, version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]))

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        view = await fresh_view(self, interaction, lang, info, to_decide=False)
        if view is not None:
            edit = on_private_message(interaction)
            await self.deps.panel.home(interaction, lang, info, edit=edit, view=view)


def back_button(lang: str, match_id: int, version: int) -> BackButton:
    return BackButton(match_id, version, label=text(lang, "panel.back"))
