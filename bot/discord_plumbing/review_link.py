"""The Review button as sent, and its id: ``rv:<match>`` opens match ``match``'s review for
whoever presses it (under a finished match's result, and on each `/hanamikoji history`
entry).

Here rather than in `bot.review`, which handles the press: the match-end message
(`bot.play`) and the history (`bot.stats`) send the button, and the review draws its pages
with `bot.play`'s board, so a link inside the feature would close a review -> play ->
review cycle. The button sent is a plain one with the handler's id
(:class:`bot.review.review_button.ReviewButton`), so senders need none of the handlers.
"""

from __future__ import annotations

from typing import Any

import discord

PREFIX = "rv"
"""The review's ids; its step buttons are ``rv:<match>:<step>:<verb>``
(:mod:`bot.review.step_ids`)."""

OPEN_TEMPLATE = rf"{PREFIX}:(?P<match>[0-9]+)"


def open_id(match_id: int) -> str:
    return f"{PREFIX}:{match_id}"


def open_review_button(label: str, match_id: int) -> discord.ui.Button[Any]:
    """The Review button that opens match ``match_id``'s review for whoever presses it."""
    return discord.ui.Button(
        label=label, custom_id=open_id(match_id), style=discord.ButtonStyle.secondary
    )
