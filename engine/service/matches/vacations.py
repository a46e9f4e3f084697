"""Vacations: a member pauses their turn-based matches for some days (up to what their
server allows a year). The running turns waiting on them move later by the vacation's
length; a turn that comes to them while away starts when they are back
(:mod:`.turn_clocks`); ending early moves them back by what was not taken."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace

from engine.clocks import Pace, Vacation
from engine.model import MatchStatus
from engine.service.context import ServiceContext
from engine.service.events import TurnClockChanged
from engine.service.matches.errors import MatchNotActive, MatchNotFound
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.turns import MatchTurns
from engine.service.settings import MatchSettings
from engine.store.errors import DatabaseUnavailable, MatchConflict, StorageFull

log = logging.getLogger(__name__)

Shift = Callable[[LiveMatch, float], tuple[float, float | None]]
"""A running turn's new deadline and pause, from the match and its deadline now."""


class NoVacation(ValueError):
    """Ending a vacation when none is under way."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(f"user {user_id} is not on vacation")


@dataclass(frozen=True, slots=True)
class VacationStatus:
    current: Vacation | None
    """The vacation under way, if any."""
    days_left: float
    """Days still free this year."""
    days_per_year: int
    paused: int = 0
    """How many turns the last change moved (paused, or resumed)."""


class MatchVacations:
    def __init__(self, context: ServiceContext, settings: MatchSettings, turns: MatchTurns) -> None:
        self._ctx = context
        self._settings = settings
        self._turns = turns

    async def status(self, guild_id: int, user_id: int) -> VacationStatus:
        now = self._ctx.clock.now()
        allowance = self._settings.vacation_allowance(await self._settings.guild_settings(guild_id))
        taken = await self._ctx.store.vacations(guild_id, user_id)
        current = next((v for v in taken if v.is_on(now)), None)
        return VacationStatus(current, allowance.days_left(taken, now), allowance.days_per_year)

    async def take(self, guild_id: int, user_id: int, days: int) -> VacationStatus:
        """Start a vacation of ``days`` now; raises :class:`~engine.clocks.BadVacation` if
        the allowance is spent or one is already under way."""
        async with self._ctx.operation(), self._member(guild_id, user_id):
            now = self._ctx.clock.now()
            guild = await self._settings.guild_settings(guild_id)
            allowance = self._settings.vacation_allowance(guild)
            taken = await self._ctx.store.vacations(guild_id, user_id)
            vacation = allowance.take(taken, days, now)
            await self._ctx.store.save_vacation(guild_id, user_id, vacation)
            length = vacation.ends_at - now

            def pause(live: LiveMatch, deadline: float) -> tuple[float, float | None]:
                paused = live.info.paused_until
                if paused is not None and paused >= vacation.ends_at:
                    return deadline, paused  # a turn begun since: it already waits
                return deadline + length, vacation.ends_at

            paused = await self._shift(guild_id, user_id, pause)
            left = allowance.days_left([*taken, vacation], now)
            return VacationStatus(vacation, left, allowance.days_per_year, paused)

    async def end(self, guild_id: int, user_id: int) -> VacationStatus:
        """End the vacation under way now: its days not taken are free again, and the
        turns it paused move back by as much. Raises :class:`NoVacation`."""
        async with self._ctx.operation(), self._member(guild_id, user_id):
            now = self._ctx.clock.now()
            status = await self.status(guild_id, user_id)
            if status.current is None:
                raise NoVacation(user_id)
            ended = replace(status.current, ends_at=now)
            await self._ctx.store.save_vacation(guild_id, user_id, ended)

            def resume(live: LiveMatch, deadline: float) -> tuple[float, float | None]:
                until = live.info.paused_until
                unused = 0.0 if until is None else max(0.0, until - now)
                return deadline - unused, None

            resumed = await self._shift(guild_id, user_id, resume)
            left = status.days_left + status.current.days - ended.days
            return VacationStatus(None, left, status.days_per_year, resumed)

    def _member(self, guild_id: int, user_id: int) -> AbstractAsyncContextManager[None]:
        """One vacation change of a member at a time, in every process (two quick
        `/hanamikoji vacation` would both pass the allowance)."""
        return self._ctx.store.exclusive(f"vacation:{guild_id}:{user_id}")

    async def _shift(self, guild_id: int, user_id: int, shift: Shift) -> int:
        """Move the deadline of every turn-based turn of this server waiting on the member."""
        moved = 0
        for info in await self._ctx.store.open_matches_of(user_id):
            waiting_on_them = (
                info.guild_id == guild_id
                and info.status is MatchStatus.ACTIVE
                and info.pace is Pace.DAYS
                and info.to_move == user_id
            )
            if not waiting_on_them:
                continue
            try:
                moved += await self._shift_one(info.match_id, user_id, shift)
            except (MatchNotFound, MatchNotActive, MatchConflict):
                continue  # ended or moved on meanwhile: nothing of this turn to move
            except (DatabaseUnavailable, StorageFull) as error:
                # The others are still moved; this one keeps its deadline (said once).
                log.warning(
                    "match %d: its turn was not moved for a vacation: %s", info.match_id, error
                )
        return moved

    async def _shift_one(self, match_id: int, user_id: int, shift: Shift) -> int:
        live = await self._ctx.open_match(match_id)
        async with live.lock:
            await self._ctx.refresh(live)
            state = live.state
            if state is None or state.is_over or live.deadline is None:
                return 0  # over, or its claim already offered: the opponent chooses
            seat = state.current_player
            if seat is None or live.info.players[seat] != user_id:
                return 0
            deadline, paused_until = shift(live, live.deadline)
            if (deadline, paused_until) == (live.deadline, live.info.paused_until):
                return 0
            with self._ctx.unsure_unless_answered(live, ()):
                await self._ctx.store.set_turn_clock(
                    match_id,
                    state.version,
                    turn_deadline=deadline,
                    overdue_since=live.info.overdue_since,
                    paused_until=paused_until,
                    # A reminder again before the new deadline.
                    reminded_version=None,
                )
            live.deadline = deadline
            live.reminded_version = None
            live.info = replace(live.info, paused_until=paused_until)
            self._turns.arm(live)
            self._ctx.bus.publish(
                TurnClockChanged(match_id, user_id, deadline, paused_until, state.version)
            )
            return 1
