"""The choices several slash commands offer alike: a match's variant, its turn timer, its
time control and the AI's level. Each feature's command lists the ones it takes; none owns them."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.discord_plumbing.translator import localised
from engine.clocks import CLOCK_PRESETS, DAYS_CHOICES, TimeControl


def _choice(key: str, value: Any) -> app_commands.Choice[Any]:
    return app_commands.Choice(name=localised(f"slash.{key}"), value=value)


TIMER_CHOICES = [
    _choice("choice_5_minutes", 300),
    _choice("choice_15_minutes", 900),
    _choice("choice_1_hour", 3600),
    _choice("choice_12_hours", 12 * 3600),
    _choice("choice_24_hours", 24 * 3600),
    _choice("choice_3_days", 3 * 24 * 3600),
]
"""A turn timer, in seconds."""
VARIANT_CHOICES = [
    _choice("choice_standard", "standard"),
    _choice("choice_three_rounds", "three-rounds"),
]
"""A :class:`~engine.rules.Variant`'s value."""
LEVEL_CHOICES = [
    _choice("choice_easy", "easy"),
    _choice("choice_normal", "normal"),
    _choice("choice_hard", "hard"),
]
"""An AI level; `/hanamikoji ai` offers the configured ones."""


# Time controls (issue 40): a choice's value is a TimeControl code, except the first.
SERVER_DEFAULT_TIME = "default"
"""The `time` choice that asks for nothing: the server's default time control (a timer per
turn, of the `turn_timer` chosen or the server's, unless the server chose another pace)."""
PER_TURN_TIME = "turn"
"""`/hanamikoji settings`: back to a timer per turn as the server's default."""


def _time_choice(key: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=localised(f"time.slash.{key}"), value=value)


_PACE_CHOICES = [
    *(
        _time_choice(
            f"choice_clock_{minutes}_{increment}", TimeControl.clock(minutes, increment).code
        )
        for minutes, increment in CLOCK_PRESETS
    ),
    *(_time_choice(f"choice_days_{days}", TimeControl.days(days).code) for days in DAYS_CHOICES),
]
TIME_CHOICES = [_time_choice("choice_default", SERVER_DEFAULT_TIME), *_PACE_CHOICES]
"""A match's time control: the server's default, a chess clock, or days a move."""
SETTINGS_TIME_CHOICES = [_time_choice("choice_turn", PER_TURN_TIME), *_PACE_CHOICES]
"""A server's default time control: a timer per turn (``turn_timer``), a clock, or days."""


def chosen_time(choice: app_commands.Choice[str] | None) -> TimeControl | None:
    """The time control a `time` choice asks for; None for the server's default (or a
    timer per turn). A code that does not parse raises :class:`~engine.clocks.BadTimeControl`."""
    if choice is None or choice.value in (SERVER_DEFAULT_TIME, PER_TURN_TIME):
        return None
    return TimeControl.parse(choice.value)
