"""The choices several slash commands offer alike: a match's variant, its turn timer and the
AI's level. Each feature's command lists the ones it takes; none owns them."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.discord_plumbing.translator import localised


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
