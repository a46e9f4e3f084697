"""The review's navigation buttons (``rv:<match>:<step>:<turn>``, one `DynamicItem` per turn):
first, previous, next, last, next mistake, and the jumps of the first page to the worst
decisions. Their base reads the id, refuses a garbled one, and turns the presser's review
to the step the id names, in the same ephemeral message; each verb only names its turn.
Where a button leads was worked out when its page was drawn (:mod:`bot.review.step_row`);
what its presser may see is the engine's answer, asked again on every press
(:mod:`engine.service.reviews.sight`).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import ANY_STEP, Turn, is_id, is_step, step_id, step_template
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review


class StepButton(LinkButton, template=ANY_STEP):
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

    def readable(self) -> bool:
        return is_id(self.match_id) and is_step(self.step)

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
