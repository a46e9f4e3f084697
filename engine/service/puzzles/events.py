"""What happens with puzzles, for the Discord layer to show: a server's daily puzzle."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DailyPuzzlePosted:
    """A server's puzzle of the day, to be posted publicly in ``channel_id``; committed with
    the day's record, so it is shown once."""

    guild_id: int
    day: int
    """Days since 1970-01-01 (UTC)."""
    key: str
    channel_id: int
