"""Limits on starting matches, so one member cannot flood a server or pester another: so many
new matches an hour each, one waiting challenge to the same member at a time, and a pause
before challenging a member again once a challenge to them went unanswered.

The hourly count and the pause are read from the store, so a restart resets neither.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from engine.service.context import ServiceContext
from engine.service.errors import ChallengeCooldown, TooManyNewMatches
from engine.store.rows import MatchInfo, MatchStatus

HOUR = 3600.0
UNANSWERED = frozenset({MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED})
"""How a challenge ends without a match; the challenger then waits before the next one."""


class CreationLimits:
    """Checks a member may start a match now; one start at a time per member."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        """Per member starting a match: the lock and how many starts wait on it."""

    @asynccontextmanager
    async def starting(self, user_id: int) -> AsyncIterator[None]:
        """Hold while checking and creating a match of ``user_id``: the store counts only
        created matches, so two starts at once must not both pass the same count."""
        lock, waiting = self._locks.get(user_id, (asyncio.Lock(), 0))
        self._locks[user_id] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._locks[user_id]
            if waiting == 1:
                del self._locks[user_id]
            else:
                self._locks[user_id] = (lock, waiting - 1)

    async def check(self, user_id: int, opponent_id: int | None, *, rematch: bool) -> None:
        """Raise :class:`TooManyNewMatches` or :class:`ChallengeCooldown` if ``user_id`` may
        not start a match now (a challenge to ``opponent_id``, or against the AI if None).

        A rematch counts towards the hour but skips the pause: both players asked for it.
        """
        config, now = self._ctx.config, self._ctx.clock.now()
        pestering = opponent_id is not None and not rematch
        if pestering:
            assert opponent_id is not None
            self._check_waiting(user_id, opponent_id)
        lookback = HOUR
        if pestering:
            # A challenge ends at most its expiry after it was made; the pause runs from then.
            pause = config.challenge_cooldown_seconds + config.challenge_expiry_seconds
            lookback = max(HOUR, pause)
        started = await self._ctx.store.matches_started_by(user_id, now - lookback)
        self._check_hour(user_id, [m.created_at for m in started if m.created_at > now - HOUR])
        if pestering:
            assert opponent_id is not None
            self._check_pause(user_id, opponent_id, started)

    def _check_hour(self, user_id: int, created: Sequence[float]) -> None:
        """``created``: when the member's matches of the last hour were made, oldest first."""
        limit = self._ctx.config.max_new_matches_per_hour
        if len(created) >= limit:
            # The next start is allowed once enough of these are more than an hour old.
            raise TooManyNewMatches(user_id, limit, created[len(created) - limit] + HOUR)

    def _check_waiting(self, challenger_id: int, opponent_id: int) -> None:
        for live in self._ctx.matches.of_player(challenger_id):
            info = live.info
            if info.status is MatchStatus.PENDING and info.players == (challenger_id, opponent_id):
                raise ChallengeCooldown(challenger_id, opponent_id, None)

    def _check_pause(
        self, challenger_id: int, opponent_id: int, started: Sequence[MatchInfo]
    ) -> None:
        pause = self._ctx.config.challenge_cooldown_seconds
        ends = [
            m.ended_at
            for m in started
            if m.players[1] == opponent_id and m.status in UNANSWERED and m.ended_at is not None
        ]
        if ends and pause > 0:
            retry_at = max(ends) + pause
            if self._ctx.clock.now() < retry_at:
                raise ChallengeCooldown(challenger_id, opponent_id, retry_at)
