"""The custom_ids of a review's step buttons: ``rv:<match>:<step>:<verb>`` turns a review to
page ``step`` (first, previous, next, last, next mistake, and the jumps of the first page
to the viewer's worst decisions).

The step a button leads to is worked out when the page is drawn, for its viewer, and
written into the id, so a press needs no memory of the message: it works after a restart.
The verb keeps the ids of one page apart (first and previous both lead to step 0 on page
1). A press carries only the match and a step: what its presser may see is the engine's
answer, asked again on every press (:mod:`engine.service.reviews.sight`). The handlers read these
ids (:mod:`bot.review.navigation_buttons`); the page builder sends plain buttons with the
same ids, so it needs none of the handlers.
"""

from __future__ import annotations

import enum

from bot.custom_ids import MAX_CUSTOM_ID
from bot.discord_plumbing.review_link import PREFIX


class Turn(enum.StrEnum):
    """Where a step button leads."""

    FIRST = "first"
    PREVIOUS = "prev"
    NEXT = "next"
    LAST = "last"
    MISTAKE = "mistake"
    """The next flagged decision (the viewer's own when they played the match)."""
    JUMP = "jump"
    """Straight to one of the worst decisions the first page lists."""


MAX_STEP = 1_000
"""More steps than any match has (three rounds of at most twelve decisions): a larger step
in an id was not written by the bot."""


def is_step(number: int) -> bool:
    """A step a review's id could name: 0 (the first deal) to :data:`MAX_STEP`."""
    return 0 <= number <= MAX_STEP


def step_template(turn: Turn) -> str:
    return rf"{PREFIX}:(?P<match>[0-9]+):(?P<step>[0-9]+):{turn.value}"


def step_id(match_id: int, step: int, turn: Turn) -> str:
    custom_id = f"{PREFIX}:{match_id}:{step}:{turn.value}"
    assert len(custom_id) <= MAX_CUSTOM_ID, custom_id
    return custom_id
