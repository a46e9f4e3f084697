"""A match's time control in words: "5 minutes a move", "clock 5+5", "2 days a move"."""

from __future__ import annotations

from bot.words.durations import duration_text
from bot.words.i18n import text
from engine.clocks import Pace, TimeControl


def pace_text(lang: str, control: TimeControl) -> str:
    """The time control as a player reads it: a timer per turn, a clock (minutes in each
    bank + seconds added a move), or turn-based days a move."""
    if control.pace is Pace.CLOCK:
        return text(
            lang,
            "time.clock",
            minutes=f"{control.seconds / 60:g}",
            increment=f"{control.increment:g}",
        )
    if control.pace is Pace.DAYS:
        days = control.day_count
        return text(lang, "time.one_day") if days == 1 else text(lang, "time.days", count=days)
    return text(lang, "time.per_turn", timer=duration_text(lang, control.seconds))
