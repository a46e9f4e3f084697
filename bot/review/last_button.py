"""The last page: how the match ended: a review's `rv:<match>:<step>:last` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class LastButton(StepButton, template=step_template(Turn.LAST)):
    turn: ClassVar[Turn] = Turn.LAST
