"""The matches the service holds in memory, found by id, by player and by thread.

Every pending challenge and active match is here from creation (or start-up) until it
ends; the service's parts share this one table and change it only through its methods.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from engine.service.errors import TooManyActiveMatches
from engine.service.live_match import LiveMatch
from engine.store.rows import AI_USER_ID, MatchStatus, Placement


class OpenMatches:
    """Open matches by id, with indexes by player and by thread, and per-player limits
    (see :meth:`open_count` for what counts)."""

    def __init__(self, max_per_player: int) -> None:
        self.max_per_player = max_per_player
        self._matches: dict[int, LiveMatch] = {}
        self._by_user: defaultdict[int, set[int]] = defaultdict(set)
        self._by_thread: dict[int, int] = {}
        self._reserving: defaultdict[int, int] = defaultdict(int)
        """Matches being created, per player, counted against the limit until they exist."""

    def __len__(self) -> int:
        return len(self._matches)

    def __contains__(self, match_id: int) -> bool:
        return match_id in self._matches

    def __iter__(self) -> Iterator[LiveMatch]:
        return iter(list(self._matches.values()))

    def get(self, match_id: int) -> LiveMatch | None:
        return self._matches.get(match_id)

    def of_player(self, user_id: int) -> list[LiveMatch]:
        """The user's open matches, oldest first."""
        return [self._matches[i] for i in sorted(self._by_user.get(user_id, ()))]

    def in_thread(self, thread_id: int) -> LiveMatch | None:
        match_id = self._by_thread.get(thread_id)
        return None if match_id is None else self._matches[match_id]

    def add(self, live: LiveMatch) -> None:
        self._matches[live.match_id] = live
        for user_id in live.info.players:
            if user_id != AI_USER_ID:
                self._by_user[user_id].add(live.match_id)
        if live.info.placement.thread_id is not None:
            self._by_thread[live.info.placement.thread_id] = live.match_id

    def remove(self, live: LiveMatch) -> None:
        self._matches.pop(live.match_id, None)
        for user_id in live.info.players:
            matches = self._by_user.get(user_id)
            if matches is not None:
                matches.discard(live.match_id)
                if not matches:
                    del self._by_user[user_id]
        if live.info.placement.thread_id is not None:
            self._by_thread.pop(live.info.placement.thread_id, None)

    def place(self, live: LiveMatch, placement: Placement) -> None:
        """Give the match its new placement, indexed under its new thread."""
        old = live.info.placement.thread_id
        if old is not None:
            self._by_thread.pop(old, None)
        if placement.thread_id is not None:
            self._by_thread[placement.thread_id] = live.match_id
        live.info = replace(live.info, placement=placement)

    @contextmanager
    def reserve(self, *user_ids: int) -> Iterator[None]:
        """Count a match against its players' limit while it is being created.

        The limit check and the insert are separated by an await; without the reservation
        two simultaneous challenges could both slip under the limit. Raises
        :class:`TooManyActiveMatches`.
        """
        for user_id in user_ids:
            if self.open_count(user_id) >= self.max_per_player:
                raise TooManyActiveMatches(user_id, self.max_per_player)
        for user_id in user_ids:
            self._reserving[user_id] += 1
        try:
            yield
        finally:
            for user_id in user_ids:
                self._reserving[user_id] -= 1
                if not self._reserving[user_id]:
                    del self._reserving[user_id]

    def open_count(self, user_id: int) -> int:
        """The matches counted against the user's limit: those they play and the challenges
        they sent, plus those being created. A challenge they received counts once they
        accept it, so nobody can fill another member's matches with challenges."""
        held = sum(
            1
            for match_id in self._by_user.get(user_id, ())
            if not _received_challenge(self._matches[match_id], user_id)
        )
        return held + self._reserving.get(user_id, 0)


def _received_challenge(live: LiveMatch, user_id: int) -> bool:
    info = live.info
    return info.status is MatchStatus.PENDING and info.players[1] == user_id
