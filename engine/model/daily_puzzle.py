"""A server's daily puzzle: which puzzle was posted on which day, where and when."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """The puzzle of one server's day (UTC), posted once in its puzzle channel.

    >>> DailyPuzzle(1, 20_000, "builtin/0/5", 77, posted_at=1_728_000_000.0).day
    20000
    """

    guild_id: int
    day: int
    """Days since 1970-01-01 (UTC): the day's midnight is ``day * 86400``."""
    key: str
    channel_id: int
    posted_at: float
    """When it was recorded (clock seconds): the solvers listed are those since."""
