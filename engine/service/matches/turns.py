"""Turns: the deadline of each match, its reminder, what happens when time runs out, and
the AI playing its seat.

Every alarm rings through the service's one :class:`~engine.service.scheduling.AlarmClock`.
With one process, one memory alarm per match, re-armed after every change from the
deadlines the matches table keeps. With a shared database the deadlines are claimed from
the database (:mod:`engine.service.scheduling.match_deadlines`, for
:meth:`MatchTurns.fire_due`), and the process that makes the AI's turn come plays it after
claiming it, so that another process takes over only if this one dies.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal

from engine.ai.agent import Agent, RandomAgent
from engine.clocks import Pace
from engine.model import ExpiryPolicy, MatchStatus
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView, view
from engine.service.context import ServiceContext
from engine.service.events import Reminder
from engine.service.matches.errors import MatchNotActive, MatchNotFound
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.overdue_grace import days_ran_out
from engine.service.matches.progress import MatchProgress
from engine.service.scheduling.alarm_clock import CLAIM_SECONDS
from engine.service.scheduling.match_deadlines import MatchDeadlines
from engine.service.scheduling.pauses import pause
from engine.store.errors import DatabaseUnavailable, MatchConflict, StorageFull

log = logging.getLogger(__name__)

RESTART_GRACE_SECONDS = 60.0
"""After a start, a player has at least this long (or a whole turn, if shorter) to make a
decision whose deadline passed while the bot was down: nobody could play then, so the
timer must not play or forfeit for them the moment the bot is back."""

OVERDUE_SECONDS = 10.0
"""A deadline found passed by more than this was missed by every process: they poll each
second (:data:`engine.service.scheduling.alarm_clock.POLL_SECONDS`)."""

DISK_FULL_RETRY_SECONDS = 30.0
"""How long a timer or the AI waits before trying again when the disk is full."""

DATABASE_RETRY_SECONDS = 5.0
"""How long a timer or the AI waits before trying again when the database did not answer
(a stall or a restart lasts seconds, a full disk until someone frees space)."""

SETTLE_SECONDS = 1.0
"""How soon a match whose write got no answer is read again (and every
:data:`DATABASE_RETRY_SECONDS` after while the database does not answer): if the write was
made, its move is announced then, not at the match's next use."""

AgentFactory = Callable[[str], Agent]
"""Makes the AI agent for a level name (``"easy"``, ``"normal"``, ``"hard"``)."""


def random_agent_factory(level: str) -> Agent:
    """Every level plays at random: for tests and tools that need no real AI."""
    return RandomAgent()


@dataclass(frozen=True, slots=True)
class _Alarm:
    kind: Literal["challenge", "remind", "expire", "retry", "settle"]
    version: int
    """The match version the alarm was set for; a later decision makes it moot."""


class MatchTurns:
    """Arms each open match for what it waits on: an answer, a decision, or the AI."""

    def __init__(
        self,
        context: ServiceContext,
        progress: MatchProgress,
        agent_factory: AgentFactory,
        agent_executor: Executor | None,
    ) -> None:
        self._ctx = context
        self._progress = progress
        self._agent_factory = agent_factory
        self._agent_executor = agent_executor
        """Where agents think: None for a thread; a process pool keeps a searching agent from
        competing with the event loop for the interpreter lock."""
        self._timers = context.alarms.memory(self._ring)
        deadlines = MatchDeadlines(context, self.fire_due)
        # With a shared database the deadlines are claimed at each poll instead.
        context.alarms.poll_also(deadlines.poll)
        context.settle_soon = self.settle_soon

    def arm(self, live: LiveMatch) -> None:
        """Set the match's alarm for what it waits on now, or let the AI move.

        Called after every change to a match; a match that is no longer open is disarmed.
        With a shared database only the AI is set going: the database holds the alarms.
        """
        if self._ctx.closed:
            return
        match_id = live.match_id
        state = live.state
        if self._ctx.shared:
            seat = None if state is None else state.current_player
            if seat is not None and live.info.is_ai_seat(seat) and match_id in self._ctx.matches:
                assert state is not None
                self._start_ai(live, state.version, claimed=False)
            return
        if match_id not in self._ctx.matches:
            self._timers.clear(match_id)
        elif state is None:
            assert live.info.challenge_expires_at is not None
            self._timers.set(match_id, live.info.challenge_expires_at, _Alarm("challenge", 0))
        elif (seat := state.current_player) is None:
            self._timers.clear(match_id)
        elif live.info.is_ai_seat(seat):
            self._timers.clear(match_id)  # the AI never runs out of time
            self._start_ai(live, state.version, claimed=False)
        elif live.deadline is None:
            self._timers.clear(match_id)  # overdue, turn-based: the waiting player decides
        elif live.reminded_version != state.version and live.info.pace is not Pace.CLOCK:
            # A clock's players are sitting: no reminder (in time trouble it would come at
            # every turn), only the countdown on the board.
            assert live.deadline is not None
            self._timers.set(
                match_id, live.deadline - self._lead(live), _Alarm("remind", state.version)
            )
        else:
            assert live.deadline is not None
            self._timers.set(match_id, live.deadline, _Alarm("expire", state.version))

    def resume(self, live: LiveMatch) -> None:
        """Arm a match rebuilt at start-up. A deadline that passed, or comes before its
        player can see the table again, moves a little later (in memory only: the next
        start grants the same, never less)."""
        state = live.state
        if state is not None and not state.is_over and live.deadline is not None:
            earliest = self._ctx.clock.now() + min(live.info.turn_seconds, RESTART_GRACE_SECONDS)
            live.deadline = max(live.deadline, earliest)
        self.arm(live)

    def close(self) -> None:
        self._timers.close()

    def settle_soon(self, live: LiveMatch, pause: float = SETTLE_SECONDS) -> None:
        """A write of ``live`` got no answer: read the match again after ``pause`` (it
        replaces the match's alarm; reading it again arms the match afresh)."""
        if not self._ctx.closed:
            later = self._ctx.clock.now() + pause
            self._timers.set(live.match_id, later, _Alarm("settle", live.version))

    async def _settle(self, live: LiveMatch) -> None:
        try:
            async with live.lock:
                await self._ctx.refresh(live)
        except (MatchNotFound, MatchNotActive):
            return
        except DatabaseUnavailable as error:
            # Said once by the store for the whole outage; this only comes round again.
            log.debug("match %d is read again later: %s", live.match_id, error)
            self.settle_soon(live, DATABASE_RETRY_SECONDS)
            return
        self.arm(live)

    async def fire_due(self, match_id: int) -> None:
        """The shared database says the match is due (claimed for this process): do what
        it waits on, as the in-memory alarm would have."""
        try:
            live = await self._ctx.open_match(match_id)
            async with live.lock:
                await self._ctx.refresh(live)
        except (MatchNotFound, MatchNotActive):
            return  # ended meanwhile: the write that ended it released the claim
        except DatabaseUnavailable:
            return  # said once by the store; due again when the claim runs out
        state, now = live.state, self._ctx.clock.now()
        if state is None:
            assert live.info.challenge_expires_at is not None
            if now >= live.info.challenge_expires_at:
                await self._unless_disk_full(live, self._expire_challenge(live))
            return
        seat = state.current_player
        if seat is None or live.deadline is None:
            return
        if live.info.is_ai_seat(seat):
            self._start_ai(live, state.version, claimed=True)
        elif now >= live.deadline:
            if self._nobody_could_play(live.deadline, now):
                return  # claimed meanwhile: due again when the claim runs out
            await self._unless_disk_full(live, self._expire_turn(live, state.version))
        elif live.reminded_version != state.version and now >= live.deadline - self._lead(live):
            await self._unless_disk_full(live, self._remind(live, state.version))

    def _nobody_could_play(self, deadline: float, now: float) -> bool:
        """Whether a deadline passed so long ago that no process was polling then (every
        one was down, or the database was), while this one started only just: as after a
        restart alone, the player then gets a grace before the timer plays or forfeits for
        them (the claim of :mod:`~engine.service.scheduling.match_deadlines`,
        :data:`CLAIM_SECONDS`, holds the match)."""
        overdue = now - deadline > OVERDUE_SECONDS
        return overdue and now < self._ctx.alarms.started_at + RESTART_GRACE_SECONDS

    def _start_ai(self, live: LiveMatch, version: int, *, claimed: bool) -> None:
        if live.ai_task is None:
            live.ai_task = self._ctx.spawn(
                self._unless_disk_full(live, self._play_ai(live, version, claimed=claimed))
            )

    def _lead(self, live: LiveMatch) -> float:
        """How long before the deadline the reminder goes out."""
        return live.info.time_control.reminder_lead(self._ctx.config.reminder_before_seconds)

    def _ring(self, match_id: int, alarm: _Alarm) -> None:
        """An alarm went off: hand the work to a task (the timers must not wait)."""
        live = self._ctx.matches.get(match_id)
        if live is None:
            return
        if alarm.kind == "retry":
            self.arm(live)
        elif alarm.kind == "settle":
            self._ctx.spawn(self._settle(live))
        elif alarm.kind == "challenge":
            self._ctx.spawn(self._unless_disk_full(live, self._expire_challenge(live)))
        elif alarm.kind == "remind":
            assert live.deadline is not None
            self._timers.set(match_id, live.deadline, _Alarm("expire", alarm.version))
            self._ctx.spawn(self._unless_disk_full(live, self._remind(live, alarm.version)))
        else:
            self._ctx.spawn(self._unless_disk_full(live, self._expire_turn(live, alarm.version)))

    async def _unless_disk_full(self, live: LiveMatch, work: Coroutine[Any, Any, None]) -> None:
        """Run timer or AI work; if the disk is full or the database does not answer (the
        store has said so once in the log), the match is armed again a little later. If
        another process moved the match on first, there is nothing left to do."""
        try:
            await work
        except MatchConflict as conflict:
            log.info("timer or AI work on match %d came too late: %s", live.match_id, conflict)
        except (StorageFull, DatabaseUnavailable) as error:
            # Nothing was applied, or (the outcome unknown) the match is read again first.
            if live.unsure:
                self.settle_soon(live)
            elif not self._ctx.closed:
                version = live.state.version if live.state is not None else 0
                pause = (
                    DISK_FULL_RETRY_SECONDS
                    if isinstance(error, StorageFull)
                    else DATABASE_RETRY_SECONDS
                )
                later = self._ctx.clock.now() + pause
                self._timers.set(live.match_id, later, _Alarm("retry", version))

    async def _expire_challenge(self, live: LiveMatch) -> None:
        async with live.lock:
            await self._ctx.refresh(live)
            if live.info.status is MatchStatus.PENDING and live.match_id in self._ctx.matches:
                await self._progress.close_challenge(live, MatchStatus.EXPIRED)
                self.arm(live)

    async def _remind(self, live: LiveMatch, version: int) -> None:
        async with live.lock:
            await self._ctx.refresh(live)
            state = live.state
            if not self._is_current(live, version) or live.reminded_version == version:
                return
            assert state is not None and state.current_player is not None
            seat = state.current_player
            assert live.deadline is not None
            reminder = Reminder(
                live.match_id, seat, live.info.players[seat], live.deadline, version
            )
            # Stored with its announcement: after a crash it is shown late, never twice. A
            # clock's is only marked done (a shared database claims every unreminded turn).
            said = [] if live.info.pace is Pace.CLOCK else [reminder]
            announcements = self._ctx.outbox.announcements(said, self._ctx.clock.now())
            with self._ctx.unsure_unless_answered(live, announcements):
                await self._ctx.store.set_reminded(live.match_id, version, announcements)
            live.reminded_version = version
            if said:
                self._ctx.bus.publish(reminder)

    async def _expire_turn(self, live: LiveMatch, version: int) -> None:
        async with live.lock:
            await self._ctx.refresh(live)
            state = live.state
            if not self._is_current(live, version):
                return
            assert state is not None and state.current_player is not None
            seat = state.current_player
            second_in_a_row = live.last_automatic[seat]
            if live.info.pace is Pace.DAYS:
                await days_ran_out(self._ctx, live, seat)
            elif live.info.expiry_policy is ExpiryPolicy.FORFEIT or second_in_a_row:
                after = state.clone()
                after.forfeit(seat)
                await self._progress.finish(live, after)
            else:
                decision = await self.decide(self.expiry_agent(), view(state, seat), live.ai_rng)
                await self._progress.apply(live, seat, decision, automatic=True)
            self.arm(live)

    async def _play_ai(self, live: LiveMatch, version: int, *, claimed: bool) -> None:
        try:
            if self._ctx.shared and not claimed:
                # Claimed first: another process takes the move over only if this one dies.
                now = self._ctx.clock.now()
                if not await self._ctx.store.claim(
                    live.match_id, version, now + CLAIM_SECONDS, now
                ):
                    return
            if self._ctx.config.ai_move_delay_seconds > 0:
                # A pause for people watching, not a game timer: real time on purpose.
                await pause(self._ctx.config.ai_move_delay_seconds)
            state = live.state
            if not self._is_current(live, version) or self._ctx.closed:
                return
            assert state is not None and state.current_player is not None
            seat = state.current_player
            if live.agent is None:
                assert live.info.ai_level is not None
                live.agent = self._agent_factory(live.info.ai_level)
            decision = await self.decide(live.agent, view(state, seat), live.ai_rng)
            async with live.lock:
                await self._ctx.refresh(live)
                if self._is_current(live, version) and not self._ctx.closed:
                    live.ai_task = None
                    await self._progress.apply(live, seat, decision, automatic=False)
                    self.arm(live)
        finally:
            if live.ai_task is asyncio.current_task():
                live.ai_task = None

    def expiry_agent(self) -> Agent:
        """The AI that plays for an absent player."""
        return self._agent_factory(self._ctx.config.expiry_ai_level)

    async def decide(self, agent: Agent, seat_view: PlayerView, rng: random.Random) -> Decision:
        # Agents are synchronous and may search for a while: think off the event loop. Each
        # decision gets its own generator drawn from the match's, so a decision made in
        # another process still advances the match's randomness.
        own_rng = random.Random(rng.getrandbits(64))
        loop = asyncio.get_running_loop()
        try:
            decision = await loop.run_in_executor(
                self._agent_executor, agent.decide, seat_view, own_rng
            )
        except Exception:
            log.exception("agent %r failed; playing a random legal decision", agent)
            return rng.choice(seat_view.legal)
        if decision not in seat_view.legal:
            log.error("agent %r chose illegal %s; playing at random", agent, decision)
            return rng.choice(seat_view.legal)
        return decision

    def _is_current(self, live: LiveMatch, version: int) -> bool:
        state = live.state
        return (
            state is not None
            and live.match_id in self._ctx.matches
            and not state.is_over
            and state.version == version
        )
