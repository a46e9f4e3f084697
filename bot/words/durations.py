"""Durations in words: a turn timer, a challenge's life."""

from __future__ import annotations

from bot.words.i18n import text


def duration_text(lang: str, seconds: float) -> str:
    """``"1 day"``, ``"12 hours"``, ``"15 minutes"``."""
    for unit, size in (("day", 86400), ("hour", 3600)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return (
                text(lang, f"duration.{unit}")
                if count == 1
                else text(lang, f"duration.{unit}s", count=count)
            )
    minutes = max(1, int(seconds // 60))
    return (
        text(lang, "duration.minute")
        if minutes == 1
        else text(lang, "duration.minutes", count=minutes)
    )
