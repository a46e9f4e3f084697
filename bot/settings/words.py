"""The settings feature's words: a server's settings, one per line, each as a new match will
take it (the service fills in what the server never chose). Plain strings from engine
values, in a given language (no discord.py here)."""

from __future__ import annotations

from bot.words.durations import duration_text
from bot.words.i18n import text
from bot.words.paces import pace_text
from engine.clocks import BadTimeControl, TimeControl
from engine.model import ExpiryPolicy, GuildSettings, SeasonLength
from engine.service import MatchSettings


def settings_lines(
    service: MatchSettings, lang: str, settings: GuildSettings, override: str | None
) -> list[str]:
    """The server's settings, one per line, each as a new match will take it."""
    policy = service.expiry_policy(settings)
    policy_key = "commands.policy_ai" if policy is ExpiryPolicy.AI else "commands.policy_forfeit"
    yes_no = {True: text(lang, "commands.on"), False: text(lang, "commands.off")}
    role = settings.tournament_role_id
    tournaments = [] if role is None else [text(lang, "tournaments.lines.role", role=f"<@&{role}>")]
    return [
        text(
            lang,
            "commands.settings_timer",
            timer=duration_text(lang, service.turn_seconds(None, settings)),
        ),
        text(lang, "time.settings_time", value=_default_time(lang, settings)),
        text(
            lang,
            "time.settings_vacation",
            days=service.vacation_allowance(settings).days_per_year,
        ),
        text(lang, "commands.settings_expiry", policy=text(lang, policy_key)),
        text(
            lang,
            "commands.settings_threads",
            value=yes_no[service.thread_per_match(settings)],
        ),
        text(
            lang,
            "commands.settings_three_rounds",
            value=yes_no[service.three_rounds(settings)],
        ),
        text(
            lang,
            "commands.settings_language",
            value=text(override, "language_name")
            if override
            else text(lang, "commands.server_language"),
        ),
        text(
            lang,
            "seats.settings_lobby",
            value=f"<#{settings.lobby_channel_id}>"
            if settings.lobby_channel_id
            else text(lang, "seats.settings_no_lobby"),
        ),
        text(
            lang,
            "seasons.settings_length",
            value=text(lang, f"seasons.length_{settings.season_length or SeasonLength.OFF}"),
        ),
        text(
            lang,
            "seasons.settings_channel",
            channel=f"<#{settings.season_channel_id}>"
            if settings.season_channel_id is not None
            else text(lang, "seasons.no_channel"),
        ),
        *tournaments,
        text(
            lang,
            "daily_puzzle.settings_line",
            channel=f"<#{settings.puzzle_channel_id}>"
            if settings.puzzle_channel_id is not None
            else text(lang, "daily_puzzle.settings_off"),
        ),
    ]


def _default_time(lang: str, settings: GuildSettings) -> str:
    """The server's default time control in words: a timer per turn unless it chose one."""
    if settings.time_control is None:
        return text(lang, "time.settings_per_turn")
    try:
        return pace_text(lang, TimeControl.parse(settings.time_control))
    except BadTimeControl:
        return settings.time_control  # the service checked it when it was set
