"""A streak's buttons (`DynamicItem`s): a choice (``pzs:<key>:<choice>``) answers the puzzle
the presser's streak poses; Next in streak (``pzs:next``) and New streak (``pzs:new``) turn
the same private message into the streak's next puzzle. The service refuses an old choice
button (not the puzzle the run poses now) or a second press, privately."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import (
    STREAK_CHOICE_TEMPLATE,
    STREAK_STEP_TEMPLATE,
    streak_choice_id,
    streak_step_id,
)
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.puzzles.choice_button import PuzzleChoiceButton
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.streak_message import StreakMove, answer_streak, show_streak


class StreakChoiceButton(PuzzleChoiceButton, template=STREAK_CHOICE_TEMPLATE):
    """Answers the streak's puzzle ``key`` with ``choice``."""

    def choice_id(self, key: str, choice: str) -> str:
        return streak_choice_id(key, choice)

    async def answer(self, deps: PuzzlesDeps, interaction: discord.Interaction[Any]) -> None:
        await answer_streak(deps, interaction, self.key, self.choice)


class StreakStepButton(LinkButton, template=STREAK_STEP_TEMPLATE):
    """Next in streak (``next``) or New streak (``new``)."""

    def __init__(self, move: StreakMove) -> None:
        super().__init__(discord.ui.Button(custom_id=streak_step_id(_STEPS[move])))
        self.move: StreakMove = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls("new" if match["step"] == "new" else "go_on")

    def readable(self) -> bool:
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, PuzzlesDeps)
        await show_streak(deps, interaction, self.move, edit=True)


_STEPS: dict[StreakMove, str] = {"go_on": "next", "new": "new"}
"""Each move's word in the button's id."""
