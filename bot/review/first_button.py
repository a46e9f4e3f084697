"""The first page: the first deal: a review's `rv:<match>:<step>:first` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class FirstButton(StepButton, template=step_template(Turn.FIRST)):
    turn: ClassVar[Turn] = Turn.FIRST
