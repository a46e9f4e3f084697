"""Turn-based play when a player's days run out. Nothing is decided for them while they
may be asleep: first a grace (:data:`~engine.clocks.OVERDUE_GRACE_SECONDS`, shown on the
board), then their opponent chooses: **claim the win** (the late player forfeits: an
abandoned match for their reliability), **let the AI play** that one turn, or **keep
waiting** (a fresh turn's days). The late player may still move until the opponent chose.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from engine.rules.outcome import MatchOutcome
from engine.rules.state import GameState
from engine.rules.views import view
from engine.service.context import ServiceContext
from engine.service.events import TurnClockChanged
from engine.service.matches.errors import (
    ClaimNotOffered,
    MatchNotActive,
    NotYourMatch,
    StaleVersion,
)
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.progress import MatchProgress, SubmitResult
from engine.service.matches.turn_clocks import TurnClocks
from engine.service.matches.turns import MatchTurns
from engine.store.errors import MatchConflict


class OverdueChoices:
    """What the waiting player may do once a turn-based match's claim is offered."""

    def __init__(self, context: ServiceContext, progress: MatchProgress, turns: MatchTurns) -> None:
        self._ctx = context
        self._progress = progress
        self._turns = turns
        self._clocks = TurnClocks(context)

    async def claim_win(self, match_id: int, user_id: int, version: int) -> MatchOutcome:
        """The late player forfeits (on time: an abandoned match for their reliability)."""
        async with self._choosing(match_id, user_id, version) as (live, state, late):
            after = state.clone()
            after.forfeit(late)
            await self._progress.finish(live, after)
            self._turns.arm(live)
            assert after.outcome is not None
            return after.outcome

    async def let_ai_play(self, match_id: int, user_id: int, version: int) -> SubmitResult:
        """The AI plays the late player's turn (recorded as automatic); their next turn has
        its full days again."""
        async with self._choosing(match_id, user_id, version) as (live, state, late):
            agent = self._turns.expiry_agent()
            decision = await self._turns.decide(agent, view(state, late), live.ai_rng)
            result = await self._progress.apply(live, late, decision, automatic=True)
            self._turns.arm(live)
            return result

    async def keep_waiting(self, match_id: int, user_id: int, version: int) -> float:
        """The late player gets a fresh turn's days (and a reminder before they run out);
        the new deadline."""
        async with self._choosing(match_id, user_id, version) as (live, _, late):
            info = live.info
            now = self._ctx.clock.now()
            control = info.time_control
            # A late player gone on vacation meanwhile gets their days after it.
            paused_until = await self._clocks.vacation_until(
                info.guild_id, info.players[late], now, control.pace
            )
            deadline = control.next_deadline(now, control.seconds, paused_until)
            event = TurnClockChanged(match_id, info.players[late], deadline, paused_until, version)
            with self._ctx.unsure_unless_answered(live, ()):
                await self._ctx.store.set_turn_clock(
                    match_id,
                    version,
                    turn_deadline=deadline,
                    overdue_since=None,
                    paused_until=paused_until,
                    reminded_version=None,
                )
            live.deadline = deadline
            live.reminded_version = None
            live.info = replace(info, overdue_since=None, paused_until=paused_until)
            self._turns.arm(live)
            self._ctx.bus.publish(event)
            return deadline

    @asynccontextmanager
    async def _choosing(
        self, match_id: int, user_id: int, version: int
    ) -> AsyncIterator[tuple[LiveMatch, GameState, int]]:
        """The match, its state and the late seat, its lock held, once ``user_id`` may
        choose for the turn at ``version`` now."""
        async with self._ctx.operation():
            live = await self._open(match_id, user_id)
            async with live.lock:
                late = await self._check(live, user_id, version)
                assert live.state is not None
                try:
                    yield live, live.state, late
                except MatchConflict:
                    # Another process moved the match on first (the late player moved).
                    await self._ctx.refresh(live)
                    raise StaleVersion(match_id, version, live.version) from None

    async def _open(self, match_id: int, user_id: int) -> LiveMatch:
        live = await self._ctx.open_match(match_id)
        if live.info.seat_of(user_id) is None:
            raise NotYourMatch(match_id, user_id)
        return live

    async def _check(self, live: LiveMatch, user_id: int, version: int) -> int:
        """The late seat, once the caller may choose for it now (the lock held)."""
        await self._ctx.refresh(live)
        state: GameState | None = live.state
        if state is None or state.is_over or live.match_id not in self._ctx.matches:
            raise MatchNotActive(live.match_id, str(live.info.status))
        if state.version != version:
            raise StaleVersion(live.match_id, version, state.version)
        late = state.current_player
        assert late is not None
        if live.info.seat_of(user_id) != 1 - late:
            raise NotYourMatch(live.match_id, user_id, "only the waiting player may choose")
        if not live.snapshot().claim_offered:
            raise ClaimNotOffered(live.match_id, user_id)
        return late
