"""The review's navigation buttons (``rv:<match>:<step>:<verb>``, one `DynamicItem` per verb):
first, previous, next, last, next mistake, and the jumps of the first page to the worst
decisions. Their base reads the id, refuses a garbled one, and turns the presser's review
to the step the id names, in the same ephemeral message; each verb only names its turn.
Where a button leads was worked out when its page was drawn (:mod:`bot.review.step_ids`).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import is_id
from bot.discord_plumbing.match_item import refuse_unreadable
from bot.features import feature_deps
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review
from bot.review.step_ids import Turn, is_step, step_id, step_template

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
        # Who may see what is the engine's answer to the review, asked again on every press.
        if is_id(self.match_id) and is_step(self.step):
            return True
        await refuse_unreadable(interaction, self.custom_id)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, ReviewDeps)
        await show_review(deps, interaction, self.match_id, self.step, Answer.EDIT)


class FirstButton(StepButton, template=step_template(Turn.FIRST)):
    """The first page: the first deal."""

    turn: ClassVar[Turn] = Turn.FIRST


class PreviousButton(StepButton, template=step_template(Turn.PREVIOUS)):
    """One step back."""

    turn: ClassVar[Turn] = Turn.PREVIOUS


class NextButton(StepButton, template=step_template(Turn.NEXT)):
    """One step on."""

    turn: ClassVar[Turn] = Turn.NEXT


class LastButton(StepButton, template=step_template(Turn.LAST)):
    """The last page: how the match ended."""

    turn: ClassVar[Turn] = Turn.LAST


class NextMistakeButton(StepButton, template=step_template(Turn.MISTAKE)):
    """The next flagged decision (the viewer's own when they played the match)."""

    turn: ClassVar[Turn] = Turn.MISTAKE


class JumpButton(StepButton, template=step_template(Turn.JUMP)):
    """Straight to one of the worst decisions the first page lists."""

    turn: ClassVar[Turn] = Turn.JUMP


NAVIGATION_BUTTONS: tuple[type[StepButton], ...] = (
    FirstButton,
    PreviousButton,
    NextButton,
    LastButton,
    NextMistakeButton,
    JumpButton,
)
"""One per :class:`Turn`, for the feature to register."""
