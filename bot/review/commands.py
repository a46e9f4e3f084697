"""`/hanamikoji review [match] [share]`: a finished match of this server step by step, in
an ephemeral message only its caller sees; ``share`` sets whether spectators may see the
judgement and hidden cards of the caller's own matches (:mod:`engine.service.reviews.sight`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.install_context import outside_bot_servers
from bot.discord_plumbing.translator import localised
from bot.review.deps import ReviewDeps
from bot.review.review_message import Answer, show_review
from bot.words.i18n import language_of, text
from engine.model import MatchStatus

Command = app_commands.Command[Any, ..., None]


def review_commands(deps: ReviewDeps) -> list[Command]:
    """The command, bound to the review feature's parts."""

    @app_commands.command(name=localised("names.review"), description=localised("slash.review"))
    @app_commands.rename(match=localised("names.match"), share=localised("names.share"))
    @app_commands.describe(
        match=localised("slash.review_match"), share=localised("slash.review_share")
    )
    async def review(
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1] | None = None,
        share: bool | None = None,
    ) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)  # the review is private too (Answer.NEW)
        notice = ""
        if share is not None:
            settings = await deps.settings.user_settings(interaction.user.id)
            await deps.settings.set_user_settings(replace(settings, share_reviews=share))
            notice = text(lang, "review.share_on" if share else "review.share_off")
            if match is None:  # the setting alone: confirmed, no review opened
                await send_private(interaction, content=notice)
                return
        match_id = match if match is not None else await _default_match(deps, interaction)
        if match_id is None:
            line = text(lang, "review.no_match")
            await send_private(interaction, content=f"{notice}\n{line}" if notice else line)
            return
        await show_review(deps, interaction, match_id, 0, Answer.NEW, notice=notice)

    return [review]


async def _default_match(deps: ReviewDeps, interaction: discord.Interaction[Any]) -> int | None:
    """This thread's match once it is over, else the caller's latest finished match here."""
    guild_id = interaction.guild_id
    if guild_id is None or outside_bot_servers(interaction):
        return None  # no thread to read it from: the match is named
    here = await deps.placements.match_of_thread(interaction.channel_id or 0)
    if here is not None and here.status is MatchStatus.FINISHED and here.guild_id == guild_id:
        return here.match_id
    latest = await deps.queries.finished_matches(
        user_id=interaction.user.id, guild_id=guild_id, limit=1
    )
    return latest[0].match_id if latest else None
