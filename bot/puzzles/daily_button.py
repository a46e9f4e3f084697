"""A daily puzzle's choice button (``pzd:<day>:<key>:<choice>``, a `DynamicItem`) on its
public message: answers the puzzle for the presser, privately, and lists the solvers on the
message. A button of a day whose puzzle was another, or of no day of this server, is
refused privately; a second answer is refused by the service's word."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import (
    DAILY_CHOICE_TEMPLATE,
    MAX_DAY,
    daily_choice_id,
    decision_arg,
    is_puzzle_key,
)
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.puzzles.daily import answer_daily
from bot.puzzles.daily_deps import DailyPuzzleDeps


class DailyChoiceButton(LinkButton, template=DAILY_CHOICE_TEMPLATE):
    """Answers the server's puzzle of ``day`` (``key``) with ``choice``."""

    def __init__(self, day: int, key: str, choice: str, *, readable: bool = True) -> None:
        super().__init__(discord.ui.Button(custom_id=daily_choice_id(day, key, choice)))
        self.day = day
        self.key = key
        self.choice = choice
        self._readable = readable

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        day = int(match["day"])
        readable = 0 <= day <= MAX_DAY
        readable = readable and is_puzzle_key(
            match["kind"], int(match["source"]), int(match["step"])
        )
        readable = readable and decision_arg(match["choice"]) is not None
        return cls(day, match["key"], match["choice"], readable=readable)

    def readable(self) -> bool:
        return self._readable

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, DailyPuzzleDeps)
        await answer_daily(deps, interaction, self.day, self.key, self.choice)
