"""`/hanamikoji games` and `vacation`: a member's matches under way here, whose turn and
how long is left; and their vacation (start one, end it early, or see their days left).
Every answer is private: it is the member's own errand."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.clocks.deps import ClocksDeps
from bot.clocks.words import games_text, vacation_refusal, vacation_text
from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.translator import localised
from bot.words.i18n import language_of, text
from engine.clocks import BadVacation
from engine.model import MatchInfo

Command = app_commands.Command[Any, ..., None]

MOST_VACATION_DAYS = 366
"""The most a server may allow a year, so the most one vacation can ask."""


def clock_commands(deps: ClocksDeps) -> list[Command]:
    """The commands, bound to the clocks feature's parts."""

    @app_commands.command(
        name=localised("clocks.names.games"), description=localised("clocks.slash.games")
    )
    async def games(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        guild_id = interaction.guild_id
        assert guild_id is not None, "/hanamikoji is guild-only"
        await think_privately(interaction)
        user_id = interaction.user.id
        found = await deps.queries.games_of(guild_id, user_id)
        opponents = {info.match_id: await _opponent(deps, info, user_id, lang) for info in found}
        embed = discord.Embed(
            title=text(lang, "clocks.games_title"),
            description=games_text(lang, user_id, found, opponents),
            colour=EMBED_COLOUR,
        )
        await send_private(interaction, embed=embed)

    @app_commands.command(
        name=localised("clocks.names.vacation"), description=localised("clocks.slash.vacation")
    )
    @app_commands.rename(days=localised("clocks.names.days"), end=localised("clocks.names.end"))
    @app_commands.describe(
        days=localised("clocks.slash.vacation_days"), end=localised("clocks.slash.vacation_end")
    )
    async def vacation(
        interaction: discord.Interaction[Any],
        days: app_commands.Range[int, 1, MOST_VACATION_DAYS] | None = None,
        end: bool = False,
    ) -> None:
        lang = language_of(interaction.locale)
        guild_id = interaction.guild_id
        assert guild_id is not None, "/hanamikoji is guild-only"
        await think_privately(interaction)
        user_id = interaction.user.id
        # NoVacation (nothing to end) is the group's to word, as every refusal.
        if end:
            said = vacation_text(
                lang, await deps.vacations.end(guild_id, user_id), "clocks.vacation_ended"
            )
        elif days is not None:
            try:
                status = await deps.vacations.take(guild_id, user_id, days)
            except BadVacation:
                # Why, in the member's words, from their vacation as it stands now.
                status = await deps.vacations.status(guild_id, user_id)
                said = vacation_refusal(lang, status, days)
            else:
                said = vacation_text(lang, status, "clocks.vacation_started")
        else:
            said = vacation_text(lang, await deps.vacations.status(guild_id, user_id))
        await send_private(interaction, said)

    return [games, vacation]


async def _opponent(deps: ClocksDeps, info: MatchInfo, user_id: int, lang: str) -> str:
    """The other player's name (the AI's with its level)."""
    names = await deps.names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
    return names[1] if info.players[0] == user_id else names[0]
