"""`/hanamikoji season start` and `/hanamikoji season end`, for members with Manage Server.

The permission is checked here rather than with ``app_commands.checks``: the group's
refusal for a missing permission speaks of settings, and this one should say seasons.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.translator import localised
from bot.seasons.deps import SeasonDeps
from bot.seasons.words import ended_text, ends_text
from bot.words.i18n import language_of, text
from engine.service import NoSeasonRunning, SeasonAlreadyRunning


def season_group(deps: SeasonDeps) -> app_commands.Group:
    """`/hanamikoji season`, bound to the service's seasons."""
    seasons = deps.seasons
    group = app_commands.Group(
        name=localised("names.season"), description=localised("slash.season")
    )

    @group.command(name=localised("names.start"), description=localised("slash.season_start"))
    async def start(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        guild_id = await _allowed(interaction, lang)
        if guild_id is None:
            return
        await think_privately(interaction)
        try:
            season = await seasons.start(guild_id)
        except SeasonAlreadyRunning as running:
            await send_private(
                interaction, content=text(lang, "seasons.already_running", number=running.number)
            )
            return
        ends = ends_text(lang, season)
        await send_private(
            interaction, content=text(lang, "seasons.started", number=season.number, ends=ends)
        )

    @group.command(name=localised("names.end"), description=localised("slash.season_end"))
    async def end(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        guild_id = await _allowed(interaction, lang)
        if guild_id is None:
            return
        await think_privately(interaction)
        try:
            ended = await seasons.end(guild_id)
        except NoSeasonRunning:
            await send_private(interaction, content=text(lang, "seasons.none_running"))
            return
        await send_private(interaction, content=ended_text(lang, ended))

    return group


async def _allowed(interaction: discord.Interaction[Any], lang: str) -> int | None:
    """The server's id if the member may manage its seasons; otherwise refuse and None."""
    if interaction.guild_id is None:
        await interaction.response.send_message(text(lang, "seasons.not_in_server"), ephemeral=True)
        return None
    if not interaction.permissions.manage_guild:
        await interaction.response.send_message(text(lang, "seasons.forbidden"), ephemeral=True)
        return None
    return interaction.guild_id
