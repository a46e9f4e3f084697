"""Who is watching a match: the rule for when a player is mentioned.

A player who pressed something in a match during the last two minutes is watching its
board, which already says whose turn it is, so a mention would only add noise; one who
has not is away, and a new message mentions them. Two minutes is several times the usual
think time of a player in a match and short enough that someone who wandered off is
called back at their next turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable

AWAY_AFTER_SECONDS = 120.0
_FORGET_AT = 10_000  # entries kept before old ones are dropped


class Presence:
    """When each player last acted in each match, to tell who is watching it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        """Seconds, monotonic; tests set their own."""
        self._seen: dict[tuple[int, int], float] = {}

    def seen(self, match_id: int, user_id: int) -> None:
        """The user acted in this match just now (a click, a command, accepting it)."""
        now = self.clock()
        if len(self._seen) >= _FORGET_AT:
            self._seen = {k: t for k, t in self._seen.items() if now - t < AWAY_AFTER_SECONDS}
        self._seen[(match_id, user_id)] = now

    def is_away(self, match_id: int, user_id: int) -> bool:
        """Not seen acting in this match for two minutes (or since the bot started)."""
        seen = self._seen.get((match_id, user_id))
        return seen is None or self.clock() - seen >= AWAY_AFTER_SECONDS
