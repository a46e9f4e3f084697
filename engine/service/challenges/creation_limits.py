"""Limits on starting matches, so one member cannot flood a server or pester another: so many
open matches and so many new matches an hour each, one waiting challenge to the same member
at a time, and a pause before challenging a member again once a challenge to them went
unanswered.

Every count is read from the store, so neither a restart nor a second process resets one,
and a member's check and the write it allows are done under the member's key
(:meth:`MatchStore.exclusive`), one at a time in every process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from engine.model import MatchInfo, MatchStatus
from engine.service.challenges.errors import (
    ChallengeCooldown,
    TooManyActiveMatches,
    TooManyNewMatches,
)
from engine.service.context import ServiceContext

HOUR = 3600.0
UNANSWERED = frozenset({MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED})
"""How a challenge ends without a match; the challenger then waits before the next one."""


class CreationLimits:
    """Checks a member may start (or accept) a match now; one at a time per member."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    @asynccontextmanager
    async def starting(self, user_id: int, *, held: bool = False) -> AsyncIterator[None]:
        """Hold while checking and creating (or accepting) a match of ``user_id``: the
        store counts only written matches, so two at once must not pass the same count.

        ``held``: the caller already holds a key for this start (a rematch's), and keys
        never nest."""
        if held:
            yield
            return
        async with self._ctx.store.exclusive(f"member:{user_id}"):
            yield

    async def check_open(self, user_id: int) -> None:
        """Raise :class:`TooManyActiveMatches` if ``user_id`` holds the most open matches:
        those they play and the challenges they sent. A challenge they received counts once
        they accept it, so nobody can fill another member's matches with challenges."""
        held = [
            m
            for m in await self._ctx.store.open_matches_of(user_id)
            if not (m.status is MatchStatus.PENDING and m.players[1] == user_id)
        ]
        limit = self._ctx.config.max_active_matches
        if len(held) >= limit:
            raise TooManyActiveMatches(user_id, limit)

    async def check(self, user_id: int, opponent_id: int | None, *, rematch: bool) -> None:
        """Raise :class:`TooManyActiveMatches`, :class:`TooManyNewMatches` or
        :class:`ChallengeCooldown` if ``user_id`` may not start a match now (a challenge to
        ``opponent_id``, or against the AI if None).

        A rematch counts towards the hour but skips the pause: both players asked for it.
        """
        await self.check_open(user_id)
        config, now = self._ctx.config, self._ctx.clock.now()
        pestering = opponent_id is not None and not rematch
        lookback = HOUR
        if pestering:
            # A challenge ends at most its expiry after it was made; the pause runs from then.
            pause = config.challenge_cooldown_seconds + config.challenge_expiry_seconds
            lookback = max(HOUR, pause)
        started = await self._ctx.store.matches_started_by(user_id, now - lookback)
        self._check_hour(user_id, [m.created_at for m in started if m.created_at > now - HOUR])
        if pestering:
            assert opponent_id is not None
            self._check_waiting(user_id, opponent_id, started)
            self._check_pause(user_id, opponent_id, started)

    def _check_hour(self, user_id: int, created: Sequence[float]) -> None:
        """``created``: when the member's matches of the last hour were made, oldest first."""
        limit = self._ctx.config.max_new_matches_per_hour
        if len(created) >= limit:
            # The next start is allowed once enough of these are more than an hour old.
            raise TooManyNewMatches(user_id, limit, created[len(created) - limit] + HOUR)

    @staticmethod
    def _check_waiting(challenger_id: int, opponent_id: int, started: Sequence[MatchInfo]) -> None:
        """``started`` reaches back past the oldest challenge that can still be waiting."""
        for info in started:
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
