"""The record export button under `/hanamikoji history` (``rec:<match>``, a `DynamicItem`):
sends a finished match's record as a one-line JSON file.

The record holds both hands at every step, so the engine gives it only to whoever may see
the hidden cards (:mod:`engine.service.reviews.sight`): a player of the match always, anyone else
only when both players share their finished matches. Anyone may press a button under
another member's history, so the engine is asked on every press.
"""

from __future__ import annotations

import io
import re
from typing import Any, Self

import discord

from bot.custom_ids import RECORD_TEMPLATE, is_id, record_id
from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.link_button import LinkButton
from bot.discord_plumbing.match_item import refusals_answered
from bot.features import feature_deps
from bot.stats.deps import StatsDeps
from bot.words.i18n import language_of, text
from engine.model import MatchStatus
from engine.service import HiddenFromViewer, MatchNotFinished, MatchNotFound


def record_filename(match_id: int) -> str:
    return f"hanamikoji-match-{match_id}.json"


class RecordExportButton(LinkButton, template=RECORD_TEMPLATE):
    """Sends the record of match ``match`` once it has ended."""

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=record_id(match_id)))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def readable(self) -> bool:
        return is_id(self.match_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with refusals_answered(interaction, f"record of match {self.match_id}"):
            deps = feature_deps(interaction.client, StatsDeps)
            await send_record(deps, interaction, self.match_id)


async def send_record(
    deps: StatsDeps, interaction: discord.Interaction[Any], match_id: int
) -> None:
    """Send the finished match's record as a one-line JSON file to a player of the match,
    or to anyone once both players share it; else say why not."""
    lang = language_of(interaction.locale)
    await think_privately(interaction)
    try:
        record = await deps.queries.match_record(
            match_id, interaction.guild_id, interaction.user.id
        )
    except HiddenFromViewer:
        notice = text(lang, "stats.export_not_shared", match=match_id)
        await send_private(interaction, content=notice)
        return
    except MatchNotFinished as error:
        abandoned = error.status == MatchStatus.ABANDONED
        key = "server_changes.no_record" if abandoned else "stats.export_not_finished"
        notice = text(lang, key, match=match_id)
        await send_private(interaction, content=notice)
        return
    except MatchNotFound:
        notice = text(lang, "stats.export_not_found", match=match_id)
        await send_private(interaction, content=notice)
        return
    # One line ending in a newline: `python -m engine replay FILE` reads JSON Lines.
    data = (record + "\n").encode("utf-8")
    await send_private(
        interaction,
        content=text(lang, "stats.export_ready", match=match_id),
        file=discord.File(io.BytesIO(data), filename=record_filename(match_id)),
    )
