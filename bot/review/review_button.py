"""The Review button (``rv:<match>``, a `DynamicItem`) under a finished match's result and
on each `/hanamikoji history` entry: opens the match's review, privately, for whoever
pressed it, at its first page. Those who send it send a plain button with its id
(:func:`bot.discord_plumbing.result_buttons.open_review_button`)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import REVIEW_TEMPLATE, is_id, review_id
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review


class ReviewButton(LinkButton, template=REVIEW_TEMPLATE):
    """Opens the review of match ``match_id``."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(custom_id=review_id(match_id)))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def readable(self) -> bool:
        return is_id(self.match_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        deps = feature_deps(interaction.client, ReviewDeps)
        await show_review(deps, interaction, self.match_id, 0, Answer.NEW)
