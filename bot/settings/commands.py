"""`/hanamikoji rules`, `notify` and `settings`: the rules in a minute, the DM choice, and
a server's defaults (Manage Server only)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.command_choices import (
    PER_TURN_TIME,
    SETTINGS_TIME_CHOICES,
    TIMER_CHOICES,
    chosen_time,
)
from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.translator import localised
from bot.settings.deps import SettingsDeps
from bot.settings.words import settings_lines
from bot.words.i18n import language_of, languages, text
from bot.words.server_language import chosen_language
from engine.model import ExpiryPolicy, GuildSettings, SeasonLength

Command = app_commands.Command[Any, ..., None]

POLICY_CHOICES = [
    app_commands.Choice(name=localised("slash.choice_policy_ai"), value="ai"),
    app_commands.Choice(name=localised("slash.choice_policy_forfeit"), value="forfeit"),
]
SEASON_CHOICES = [
    app_commands.Choice(name=localised(f"slash.choice_season_{length}"), value=str(length))
    for length in SeasonLength
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=localised("slash.choice_language_auto"), value="auto"),
    *(app_commands.Choice(name=text(code, "language_name"), value=code) for code in languages()),
]


def settings_commands(deps: SettingsDeps) -> list[Command]:
    """The commands, bound to the settings feature's parts."""

    @app_commands.command(name=localised("names.rules"), description=localised("slash.rules"))
    async def rules(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        embed = discord.Embed(
            title=text(lang, "commands.rules_title"),
            description=text(lang, "rules.text"),
            colour=EMBED_COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=localised("names.notify"), description=localised("slash.notify"))
    @app_commands.rename(dm=localised("names.dm"))
    @app_commands.describe(dm=localised("slash.notify_dm"))
    async def notify(interaction: discord.Interaction[Any], dm: bool) -> None:
        await think_privately(interaction)
        settings = await deps.settings.user_settings(interaction.user.id)
        await deps.settings.set_user_settings(replace(settings, dm_notifications=dm))
        deps.direct_messages.choice_changed(interaction.user.id, dm)
        message = text(
            language_of(interaction.locale), "commands.dm_on" if dm else "commands.dm_off"
        )
        await send_private(interaction, content=message)

    @app_commands.command(name=localised("names.settings"), description=localised("slash.settings"))
    @app_commands.rename(
        turn_timer=localised("names.turn_timer"),
        expiry=localised("names.expiry"),
        threads=localised("names.threads"),
        three_rounds=localised("names.three_rounds"),
        language=localised("names.language"),
        lobby_channel=localised("seats.name_lobby_channel"),
        lobby_off=localised("seats.name_lobby_off"),
        season_length=localised("names.season_length"),
        season_channel=localised("names.season_channel"),
        tournament_role=localised("tournaments.names.role"),
        time=localised("time.names.time"),
        vacation_days=localised("time.names.vacation_days"),
        puzzle_channel=localised("daily_puzzle.names.channel"),
        puzzle_off=localised("daily_puzzle.names.off"),
    )
    @app_commands.describe(
        turn_timer=localised("slash.settings_turn_timer"),
        expiry=localised("slash.settings_expiry"),
        threads=localised("slash.settings_threads"),
        three_rounds=localised("slash.settings_three_rounds"),
        language=localised("slash.settings_language"),
        lobby_channel=localised("seats.slash_lobby_channel"),
        lobby_off=localised("seats.slash_lobby_off"),
        season_length=localised("slash.settings_season_length"),
        season_channel=localised("slash.settings_season_channel"),
        tournament_role=localised("tournaments.slash.role"),
        time=localised("time.slash.settings_time"),
        vacation_days=localised("time.slash.settings_vacation_days"),
        puzzle_channel=localised("daily_puzzle.slash.channel"),
        puzzle_off=localised("daily_puzzle.slash.off"),
    )
    @app_commands.choices(
        time=SETTINGS_TIME_CHOICES,
        turn_timer=TIMER_CHOICES,
        expiry=POLICY_CHOICES,
        language=LANGUAGE_CHOICES,
        season_length=SEASON_CHOICES,
    )
    # Refused in the user's language by the group's error handler. (default_permissions
    # would hide the command from others, but Discord takes it on top-level commands only.)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Choice[int] | None = None,
        expiry: app_commands.Choice[str] | None = None,
        threads: bool | None = None,
        three_rounds: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        lobby_channel: discord.TextChannel | None = None,
        lobby_off: bool = False,
        season_length: app_commands.Choice[str] | None = None,
        season_channel: discord.TextChannel | None = None,
        tournament_role: discord.Role | None = None,
        time: app_commands.Choice[str] | None = None,
        vacation_days: app_commands.Range[int, 0, 366] | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        puzzle_off: bool = False,
    ) -> None:
        lang = language_of(interaction.locale)
        assert interaction.guild_id is not None
        await think_privately(interaction)
        current = await deps.settings.guild_settings(interaction.guild_id)
        changed = replace(
            current,
            turn_seconds=float(turn_timer.value) if turn_timer else current.turn_seconds,
            expiry_policy=ExpiryPolicy(expiry.value) if expiry else current.expiry_policy,
            thread_per_match=current.thread_per_match if threads is None else threads,
            three_rounds_default=current.three_rounds_default
            if three_rounds is None
            else three_rounds,
            language=current.language if language is None else chosen_language(language.value),
            lobby_channel_id=None
            if lobby_off
            else (lobby_channel.id if lobby_channel else current.lobby_channel_id),
            season_length=current.season_length
            if season_length is None
            else SeasonLength(season_length.value),
            season_channel_id=current.season_channel_id
            if season_channel is None
            else season_channel.id,
            tournament_role_id=current.tournament_role_id
            if tournament_role is None
            # @everyone clears it: only Manage Server then.
            else None
            if tournament_role.is_default()
            else tournament_role.id,
            time_control=_time_control(current, time, turn_timer is not None),
            vacation_days=current.vacation_days if vacation_days is None else vacation_days,
            puzzle_channel_id=None
            if puzzle_off
            else (puzzle_channel.id if puzzle_channel else current.puzzle_channel_id),
        )
        if changed != current:
            # One write for every change: a database that stops answering cannot leave
            # some saved while the user is told that nothing was changed.
            changed = await deps.settings.set_guild_settings(changed)
        if changed.season_length != current.season_length:
            # The running season now ends at the new length's boundary (or a length starts
            # one); the engine decides which.
            await deps.seasons.follow_length(interaction.guild_id)
        if changed.puzzle_channel_id != current.puzzle_channel_id:
            # The daily puzzle comes at the next midnight (UTC), or no more.
            await deps.daily_puzzles.follow_channel(interaction.guild_id)
        override = changed.language
        updated = changed != current or language is not None
        title = text(lang, "commands.settings_updated" if updated else "commands.settings_title")
        description = "\n".join(settings_lines(deps.settings, lang, changed, override))
        embed = discord.Embed(title=title, description=description, colour=EMBED_COLOUR)
        await send_private(interaction, embed=embed)

    return [rules, notify, settings]


def _time_control(
    current: GuildSettings, time: app_commands.Choice[str] | None, timer_chosen: bool
) -> str | None:
    """The server's default time control's code after the command: the one chosen; None
    (a timer per turn) for "Turn timer", or when only a turn timer is chosen (the admin
    who sets a turn timer wants a timer per turn); else as it was."""
    if time is None:
        return None if timer_chosen else current.time_control
    if time.value == PER_TURN_TIME:
        return None
    control = chosen_time(time)
    return None if control is None else control.code
