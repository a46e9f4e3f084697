"""``/hanamikoji status``: the headline figures as a short private table, for the
application's owner and the configured admins only.

It is synced to the development server alone (``[discord] dev_guild_id``), where the
operator works, and refuses anyone else who reaches it; the figures are this process's
(:mod:`bot.operations.headline`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.first_response import send_private
from bot.discord_plumbing.translator import localised
from bot.operations.headline import Headline, headline
from bot.operations.metrics import BotMetrics
from bot.words.i18n import language_of, text

log = logging.getLogger(__name__)

Command = app_commands.Command[Any, ..., None]
MayLook = Callable[[discord.abc.User], Awaitable[bool]]


def _seconds(lang: str, value: float | None) -> str:
    if value is None:
        return text(lang, "operations.no_data")
    if value == float("inf"):
        return text(lang, "operations.over_buckets")
    return f"{value * 1000:,.0f} ms"


def status_table(lang: str, figures: Headline) -> str:
    """The figures, one per line, in a code block so the columns line up."""
    if figures.disk_full:
        database = text(lang, "operations.database_disk_full")
    elif figures.database_down:
        database = text(lang, "operations.database_down")
    else:
        database = text(lang, "operations.database_up")
    rows = [
        (
            "operations.shards",
            text(
                lang,
                "operations.shards_value",
                connected=str(figures.shards_connected),
                shards=str(figures.shards),
                latency=_seconds(lang, figures.latency_seconds),
            ),
        ),
        (
            "operations.matches",
            text(
                lang,
                "operations.matches_value",
                playing=str(figures.matches_playing),
                challenges=str(figures.challenges_open),
            ),
        ),
        (
            "operations.decisions",
            text(
                lang,
                "operations.decisions_value",
                applied=str(figures.decisions_applied),
                refused=str(figures.decisions_refused),
            ),
        ),
        ("operations.first_response", _seconds(lang, figures.first_response_p99)),
        ("operations.board_lag", _seconds(lang, figures.board_lag_p99)),
        (
            "operations.discord",
            text(
                lang,
                "operations.discord_value",
                requests=str(figures.discord_requests),
                limited=str(figures.rate_limited),
            ),
        ),
        (
            "operations.outbox",
            text(
                lang,
                "operations.outbox_value",
                waiting=str(figures.announcements_waiting),
                oldest=f"{figures.oldest_announcement_seconds:,.0f}",
            ),
        ),
        ("operations.database", database),
        (
            "operations.ai",
            text(
                lang,
                "operations.ai_value",
                jobs=str(figures.ai_jobs_waiting),
                reviews=str(figures.reviews_running),
            ),
        ),
    ]
    labels = [text(lang, key) for key, _ in rows]
    width = max(map(len, labels))
    lines = [f"{label:<{width}}  {value}" for label, (_, value) in zip(labels, rows, strict=True)]
    return text(lang, "operations.title") + "\n```\n" + "\n".join(lines) + "\n```"


def status_command(metrics: BotMetrics, may_look: MayLook) -> Command:
    """The command, bound to this bot's metrics and its rule of who may look."""

    @app_commands.command(
        name=localised("operations.name"), description=localised("operations.description")
    )
    async def status(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        if not await may_look(interaction.user):
            log.info("/hanamikoji status refused to user %s", interaction.user.id)
            await send_private(interaction, text(lang, "operations.refused"))
            return
        await send_private(interaction, status_table(lang, headline(metrics.registry)))

    return status
