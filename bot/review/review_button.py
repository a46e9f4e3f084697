"""The Review button (``rv:<match>``, a `DynamicItem`) under a finished match's result and
on each `/hanamikoji history` entry: opens the match's review, privately, for whoever
pressed it, at its first page."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import is_id
from bot.discord_plumbing.match_item import refuse_unreadable
from bot.discord_plumbing.review_link import OPEN_TEMPLATE, open_id
from bot.features import feature_deps
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN_TEMPLATE):
    """Opens the review of match ``match_id``."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(custom_id=open_id(match_id)))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if is_id(self.match_id):
            return True
        await refuse_unreadable(interaction, self.custom_id)
        return False

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, ReviewDeps)
        await show_review(deps, interaction, self.match_id, 0, Answer.NEW)
