"""One step back: a review's `rv:<match>:<step>:prev` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class PreviousButton(StepButton, template=step_template(Turn.PREVIOUS)):
    turn: ClassVar[Turn] = Turn.PREVIOUS
