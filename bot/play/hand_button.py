"""The board's Hand button and the panel's Refresh: open (or refresh) the private panel."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import on_private_message
from bot.play.deps import PlayButton, button, defer
from engine.model import MatchInfo


class HandButton(PlayButton, template=template(Verb.HAND)):
    def __init__(
        self,
        match_id: int,
        version: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            button(match_id, version, Verb.HAND, label=label, style=style), match_id, version
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]))

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        private = on_private_message(interaction)
        await defer(interaction, private=private)
        await self.deps.panel.home(interaction, lang, info, edit=private, picture=True)
