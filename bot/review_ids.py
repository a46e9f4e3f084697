"""The custom_ids of the review's buttons, and the buttons as sent (apart from `bot.review`,
so the match-end message and `/hanamikoji history` can carry a Review button without
importing the feature, which itself draws the board of `bot.play`).

``rv:<match>`` opens match ``match``'s review (the Review button under a finished match and
on each `/hanamikoji history` entry); ``rv:<match>:<step>:<verb>`` turns a review to page
``step`` (first, previous, next, last, next mistake, and the jumps of the first page to the
viewer's worst decisions). The step a button leads to is worked
out when the page is drawn, for its viewer, and written into the id, so a press needs no
memory of the message: it works after a restart. The verb keeps the ids of one page apart
(first and previous both lead to step 0 on page 1).

A press carries only the match and a step: who may see what is decided again on every
press (:mod:`engine.service.sight`). The `DynamicItem` of each verb reads these ids
(:mod:`bot.review.step_button`); the buttons sent are plain ones with the same ids, so the
page builder needs none of the handlers.
"""

from __future__ import annotations

import enum
from typing import Any

import discord

from bot.custom_ids import MAX_CUSTOM_ID

PREFIX = "rv"


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


OPEN_TEMPLATE = rf"{PREFIX}:(?P<match>[0-9]+)"


def step_template(turn: Turn) -> str:
    return rf"{PREFIX}:(?P<match>[0-9]+):(?P<step>[0-9]+):{turn.value}"


def open_id(match_id: int) -> str:
    return f"{PREFIX}:{match_id}"


def step_id(match_id: int, step: int, turn: Turn) -> str:
    custom_id = f"{PREFIX}:{match_id}:{step}:{turn.value}"
    assert len(custom_id) <= MAX_CUSTOM_ID, custom_id
    return custom_id


def open_review_button(label: str, match_id: int) -> discord.ui.Button[Any]:
    """The Review button that opens match ``match_id``'s review for whoever presses it."""
    return discord.ui.Button(
        label=label, custom_id=open_id(match_id), style=discord.ButtonStyle.secondary
    )
