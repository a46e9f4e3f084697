"""The Next puzzle button (``pz:next``, a `DynamicItem`) under an answered puzzle: the same
private message turns into the presser's next puzzle."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import PUZZLE_NEXT_TEMPLATE, puzzle_next_id
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_message import show_next_puzzle


class NextPuzzleButton(LinkButton, template=PUZZLE_NEXT_TEMPLATE):
    """Poses the presser's next puzzle in place of the answered one."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(custom_id=puzzle_next_id()))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls()

    def readable(self) -> bool:
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, PuzzlesDeps)
        await show_next_puzzle(deps, interaction, edit=True)
