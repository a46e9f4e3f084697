"""One step on: a review's `rv:<match>:<step>:next` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class NextButton(StepButton, template=step_template(Turn.NEXT)):
    turn: ClassVar[Turn] = Turn.NEXT
