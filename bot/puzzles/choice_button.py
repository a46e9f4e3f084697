"""A puzzle's choice button (``pz:<key>:<choice>``, a `DynamicItem`): answers the puzzle
with that choice at once, the page edited into the verdict. The id names the puzzle and
the choice in notation, never whether it solves the puzzle; a second answer, a forged
choice or a puzzle gone is refused privately by the service's word."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import PUZZLE_CHOICE_TEMPLATE, decision_arg, is_puzzle_key, puzzle_choice_id
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_message import answer_puzzle


class PuzzleChoiceButton(LinkButton, template=PUZZLE_CHOICE_TEMPLATE):
    """Answers puzzle ``key`` with ``choice`` (a streak's choice, the same but for its id
    and its answer: :class:`bot.puzzles.streak_buttons.StreakChoiceButton`)."""

    def __init__(self, key: str, choice: str, *, readable: bool = True) -> None:
        super().__init__(discord.ui.Button(custom_id=self.choice_id(key, choice)))
        self.key = key
        self.choice = choice
        self._readable = readable

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        readable = is_puzzle_key(match["kind"], int(match["source"]), int(match["step"]))
        readable = readable and decision_arg(match["choice"]) is not None
        return cls(match["key"], match["choice"], readable=readable)

    def readable(self) -> bool:
        return self._readable

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.answer(feature_deps(interaction.client, PuzzlesDeps), interaction)

    def choice_id(self, key: str, choice: str) -> str:
        return puzzle_choice_id(key, choice)

    async def answer(self, deps: PuzzlesDeps, interaction: discord.Interaction[Any]) -> None:
        await answer_puzzle(deps, interaction, self.key, self.choice)
