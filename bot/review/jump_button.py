"""Straight to one of the worst decisions the first page lists: a review's
`rv:<match>:<step>:jump` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class JumpButton(StepButton, template=step_template(Turn.JUMP)):
    turn: ClassVar[Turn] = Turn.JUMP
