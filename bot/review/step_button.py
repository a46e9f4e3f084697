"""The base of the review's step buttons (``rv:<match>:<step>:<verb>``, one `DynamicItem`
per verb): it reads the id, refuses a garbled one, and turns the presser's review to the
step the id names, in the same ephemeral message."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import is_id
from bot.discord_plumbing.match_item import refuse_unreadable
from bot.features import feature_deps
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review
from bot.review.step_ids import Turn, is_step, step_id

ANY_STEP = r"rv:(?P<match>[0-9]+):(?P<step>[0-9]+):[a-z]+"
"""The base's template; it is never registered, each verb has its own."""


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANY_STEP):
    """Turns the review of match ``match_id`` to page ``step``."""

    turn: ClassVar[Turn]

    def __init__(self, match_id: int, step: int) -> None:
        super().__init__(discord.ui.Button(custom_id=step_id(match_id, step, self.turn)))
        self.match_id = match_id
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["step"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # Who may see what is the review's own check, made again on every press.
        if is_id(self.match_id) and is_step(self.step):
            return True
        await refuse_unreadable(interaction, self.custom_id)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, ReviewDeps)
        await show_review(deps, interaction, self.match_id, self.step, Answer.EDIT)
