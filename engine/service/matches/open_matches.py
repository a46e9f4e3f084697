"""The open matches this process holds in memory, found by id.

With one process (SQLite) every pending challenge and active match is here from creation
(or start-up) until it ends, and memory is the authority. When several processes share
the database (``MatchStore.shared``), this is a cache: a match is loaded when first
needed and brought up to date from the database before each use
(:meth:`ServiceContext.refresh`). Questions across matches (a player's matches, the
match of a thread) are asked of the store, which always knows them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.model import Placement
from engine.service.matches.live_match import LiveMatch


class OpenMatches:
    """Open matches by id; the service's parts change it only through these methods."""

    def __init__(self) -> None:
        self._matches: dict[int, LiveMatch] = {}

    def __len__(self) -> int:
        return len(self._matches)

    def __contains__(self, match_id: int) -> bool:
        return match_id in self._matches

    def __iter__(self) -> Iterator[LiveMatch]:
        return iter(list(self._matches.values()))

    def get(self, match_id: int) -> LiveMatch | None:
        return self._matches.get(match_id)

    def add(self, live: LiveMatch) -> LiveMatch:
        """Hold ``live``; if a concurrent load of the same match got here first, that one
        is kept and returned (one object per match, so one lock per match)."""
        return self._matches.setdefault(live.match_id, live)

    def remove(self, live: LiveMatch) -> None:
        if self._matches.get(live.match_id) is live:
            del self._matches[live.match_id]

    def let_go_of_idle(self, unused_since: float) -> int:
        """Drop the matches nobody here used since ``unused_since`` (``time.monotonic``)
        and nothing here is doing anything with; how many. Only for a cache over a shared
        database: there a match another process ended would otherwise stay forever."""
        idle = [
            live
            for live in self._matches.values()
            if live.used_at < unused_since and not live.lock.locked() and live.ai_task is None
        ]
        for live in idle:
            del self._matches[live.match_id]
        return len(idle)

    @staticmethod
    def place(live: LiveMatch, placement: Placement) -> None:
        live.info = replace(live.info, placement=placement)
