"""The buttons a feature sends for another feature to answer: Rematch and Review under a
finished match's result (sent by `bot.play`), and Review on each `/hanamikoji history`
entry (sent by `bot.stats`).

Each is a plain button with the id its handler's `DynamicItem` reads (Rematch:
``hk:<match>:<version>:rematch``, answered by `bot.challenge`; Review: ``rv:<match>``,
answered by `bot.review`), so a sender needs none of the handlers: no feature imports
another.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.custom_ids import Verb, game_id, review_id


def open_review_button(label: str, match_id: int) -> discord.ui.Button[Any]:
    """The Review button that opens match ``match_id``'s review for whoever presses it."""
    return discord.ui.Button(
        label=label, custom_id=review_id(match_id), style=discord.ButtonStyle.secondary
    )


def rematch_button(label: str, match_id: int, version: int) -> discord.ui.Button[Any]:
    """The Rematch button under finished match ``match_id`` (at ``version``, its last)."""
    return discord.ui.Button(
        label=label,
        custom_id=game_id(match_id, version, Verb.REMATCH),
        style=discord.ButtonStyle.success,
    )
