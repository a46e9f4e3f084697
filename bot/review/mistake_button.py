"""The next flagged decision (the viewer's own when they played the match): a review's
`rv:<match>:<step>:mistake` button."""

from __future__ import annotations

from typing import ClassVar

from bot.review.step_button import StepButton
from bot.review.step_ids import Turn, step_template


class NextMistakeButton(StepButton, template=step_template(Turn.MISTAKE)):
    turn: ClassVar[Turn] = Turn.MISTAKE
