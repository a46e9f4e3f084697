"""The one place the service waits for time: every due thing rings here, on the service
clock, from one sleeping task.

Three kinds of alarm share that task:

- **Stored alarms** (:class:`~engine.store.alarm.Alarm`: a season's end, a tournament's
  start time, a tournament that must try again to move on). A feature writes them in the
  same commit as the change that makes them due, and registers a handler for their kind
  (:meth:`AlarmClock.handle`). When one is due it is claimed from the database
  (``claim_due_alarms``), so of several processes exactly one runs its handler; the
  handler's success releases it, a failure sets it again later (doubling pauses), and a
  process that dies holding a claim leaves it to run out for another to take over.
- **Match deadlines** (a challenge's expiry, a turn's reminder and deadline) live in the
  matches table. With one process they are mirrored into memory alarms (below), re-armed
  from the stored deadlines at start; with several, each process claims the due ones from
  the database every :data:`POLL_SECONDS` (:mod:`.match_deadlines`).
- **Memory alarms** (:meth:`AlarmClock.memory`): the one-process mirror of match deadlines,
  and short pauses before reading a match again, that a restart rebuilds from the database.
  A match re-arms its alarm on every decision, so replacing one is a heap push (the old
  entry is skipped when it surfaces), not a task cancelled and another created.

Nothing else under ``engine/service`` sleeps on a clock (a test checks): a feature says
when, this module waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Generic, Protocol, TypeVar

from engine.service.clock import Clock
from engine.store.alarm import Alarm
from engine.store.errors import DatabaseUnavailable
from engine.store.match_store import MatchStore

log = logging.getLogger(__name__)

CLAIM_SECONDS = 60.0
"""How long a claimed alarm is left to its process before another may take it over:
longer than any handler takes, short enough that a dead process's work waits only this."""

POLL_SECONDS = 1.0
"""With several processes, how often each asks the database for due alarms and match
deadlines: another process may have set one that is due before any this one knows of."""

BATCH = 50
"""Alarms claimed at once; a full batch is followed by another at once."""

RETRY_SECONDS = 5.0
"""The first pause after a handler failed; it doubles with each failure, up to the longest."""
LONGEST_RETRY_SECONDS = 300.0

_COMPACT_FACTOR = 4
"""Rebuild the memory heap when it holds this many times more entries than live alarms."""

Handler = Callable[[Alarm], Coroutine[Any, Any, None]]
Poll = Callable[[float], Coroutine[Any, Any, bool]]
"""Asked at each poll of a shared database; True when more may be due at once."""

Note = TypeVar("Note")


def _earliest(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else min(a, b)


def retry_delay(attempt: int) -> float:
    """The pause before the next try of an alarm whose handler failed ``attempt + 1`` times."""
    return min(RETRY_SECONDS * 2.0 ** min(attempt, 16), LONGEST_RETRY_SECONDS)


class MemoryAlarms(Generic[Note]):
    """One owner's memory alarms: at most one per key, each carrying a note for its ring."""

    def __init__(self, clock: AlarmClock, ring: Callable[[int, Note], None]) -> None:
        self._clock = clock
        self._ring = ring
        self._live: dict[int, int] = {}
        """key -> sequence number of its one live entry."""

    def __len__(self) -> int:
        return len(self._live)

    def set(self, key: int, when: float, note: Note) -> None:
        """Ring ``note`` for ``key`` at ``when``, replacing the alarm the key had."""
        self._clock._push(when, self, key, note)

    def clear(self, key: int) -> None:
        """Disarm the key's alarm, if any."""
        self._live.pop(key, None)

    def close(self) -> None:
        self._live.clear()

    def _is_live(self, key: int, seq: int) -> bool:
        return self._live.get(key) == seq

    def _fire(self, key: int, seq: int, note: Note) -> None:
        if self._live.get(key) == seq:
            del self._live[key]
            self._ring(key, note)


class Host(Protocol):
    """What the alarm clock needs of the service (its :class:`ServiceContext`)."""

    store: MatchStore
    clock: Clock
    shared: bool
    closed: bool

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...


class AlarmClock:
    """Every alarm of one service; see the module docstring."""

    def __init__(self, context: Host) -> None:
        self._ctx = context
        self._handlers: dict[str, Handler] = {}
        self._polls: list[Poll] = []
        self._heap: list[tuple[float, int, MemoryAlarms[Any], int, Any]] = []
        self._owners: list[MemoryAlarms[Any]] = []
        self._order = itertools.count()
        self._stored_due: float | None = None
        """When a stored alarm is next due, as far as this process knows (None: never)."""
        self._next_poll: float | None = None
        """With several processes: when to ask the database next, whatever is known."""
        self._sleeper: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None
        self._polling = False
        self._woken_while_polling: float | None = None
        self._ticking = False
        self._started = False
        self._failing = False
        self.started_at = float("-inf")
        """When this process began ringing alarms (clock seconds)."""

    # -- what features tell the clock ------------------------------------------------------

    def handle(self, kind: str, handler: Handler) -> None:
        """Run ``handler`` for each stored alarm of ``kind`` when it is due (claimed)."""
        if kind in self._handlers:
            raise ValueError(f"alarm kind {kind!r} already has a handler")
        self._handlers[kind] = handler

    def poll_also(self, poll: Poll) -> None:
        """With several processes, call ``poll(now)`` at every poll of the database."""
        self._polls.append(poll)

    def memory(self, ring: Callable[[int, Note], None]) -> MemoryAlarms[Note]:
        """A set of memory alarms whose rings call ``ring(key, note)`` (it must not wait)."""
        owner = MemoryAlarms(self, ring)
        self._owners.append(owner)
        return owner

    def wake(self, at: float | None) -> None:
        """A stored alarm due at ``at`` was committed: look for due alarms then."""
        if at is None:
            return
        self._stored_due = _earliest(self._stored_due, at)
        if self._polling:
            # The poll under way may have read the next alarm before this one committed.
            self._woken_while_polling = _earliest(self._woken_while_polling, at)
        self._arm()

    async def set(self, alarms: list[Alarm]) -> None:
        """Store ``alarms`` (each replaces the one of its kind and subject) and wake for them.
        A feature whose write can carry them does so instead, in the same commit, then
        calls :meth:`wake`."""
        await self._ctx.store.set_alarms(alarms)
        for alarm in alarms:
            self.wake(alarm.due_at)

    # -- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Ring from now on: look for stored alarms due already (the bot may have been down
        when they fell due), then at each next one."""
        self._started = True
        self.started_at = self._ctx.clock.now()
        if self._ctx.shared:
            self._next_poll = self.started_at
        try:
            self.wake(await self._ctx.store.next_alarm_due())
        except Exception as error:
            log.warning("cannot read the next alarm (%s); looking again shortly", error)
            self.wake(self.started_at + POLL_SECONDS)
        self._arm()

    async def close(self) -> None:
        self._heap.clear()
        sleeper, self._sleeper = self._sleeper, None
        if sleeper is not None:
            sleeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sleeper

    # -- the memory heap -------------------------------------------------------------------

    def _push(self, when: float, owner: MemoryAlarms[Any], key: int, note: Any) -> None:
        seq = next(self._order)
        # Live before the heap is looked at: the top and the compaction drop what is not.
        owner._live[key] = seq
        heapq.heappush(self._heap, (when, seq, owner, key, note))
        if len(self._heap) > _COMPACT_FACTOR * self._live_count() + 64:
            self._heap = [e for e in self._heap if e[2]._is_live(e[3], e[1])]
            heapq.heapify(self._heap)
        self._arm()

    def _live_count(self) -> int:
        return sum(len(owner) for owner in self._owners)

    def _heap_top(self) -> float | None:
        while self._heap and not self._heap[0][2]._is_live(self._heap[0][3], self._heap[0][1]):
            heapq.heappop(self._heap)  # replaced or cleared
        return self._heap[0][0] if self._heap else None

    # -- the one sleeper -------------------------------------------------------------------

    def _next_wake(self) -> float | None:
        times = [self._heap_top()]
        if not self._polling:
            times += [self._stored_due, self._next_poll]
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def _arm(self) -> None:
        """Sleep until the next wake, unless already sleeping no later; ring at once what is
        due already (as work that ``wait_idle()`` sees, not one hop later)."""
        if self._ticking or self._ctx.closed or not self._started:
            return
        at = self._next_wake()
        if at is not None and at <= self._ctx.clock.now():
            self._tick()
            return
        if self._sleeper is not None and not self._sleeper.done():
            if at is not None and self._sleeping_until is not None and self._sleeping_until <= at:
                return
            self._sleeper.cancel()
        self._sleeper = None
        self._sleeping_until = at
        if at is not None:
            # A task that only sleeps, so it is safe to cancel: what it starts is spawned.
            self._sleeper = asyncio.create_task(self._sleep_until(at))

    async def _sleep_until(self, at: float) -> None:
        await self._ctx.clock.sleep_until(at)
        self._sleeper = None
        self._sleeping_until = None
        self._tick()

    def _tick(self) -> None:
        """Ring every memory alarm that is due, start a poll if one is due, then re-arm."""
        self._ticking = True
        try:
            now = self._ctx.clock.now()
            while (top := self._heap_top()) is not None and top <= now:
                _, seq, owner, key, note = heapq.heappop(self._heap)
                owner._fire(key, seq, note)
            polls_due = (self._stored_due is not None and self._stored_due <= now) or (
                self._next_poll is not None and self._next_poll <= now
            )
            if polls_due and not self._polling:
                self._polling = True
                self._ctx.spawn(self._poll(now))
        finally:
            self._ticking = False
        self._arm()

    # -- polling the database --------------------------------------------------------------

    async def _poll(self, now: float) -> None:
        more = False
        try:
            if self._ctx.shared:
                for poll in self._polls:
                    more |= await poll(now)
            claimed = await self._ctx.store.claim_due_alarms(now, now + CLAIM_SECONDS, BATCH)
            for alarm in claimed:
                self._ctx.spawn(self._fire(alarm, now + CLAIM_SECONDS))
            full = len(claimed) == BATCH
            found = now if full else await self._ctx.store.next_alarm_due()
            self._stored_due = _earliest(found, self._woken_while_polling)
        except Exception as error:
            # Once per spell: a database that is down stays down a while. One that does not
            # answer is told by the store itself, once per outage.
            if not self._failing and not isinstance(error, DatabaseUnavailable):
                log.warning("cannot ask the database for due alarms (%s); trying again", error)
            self._failing = True
            # Not read again from the database: what is due stays due, and it would be
            # asked again at once, in a loop, for as long as the database fails.
            self._stored_due = now + POLL_SECONDS
        else:
            if self._failing:
                log.info("the database answers again; due alarms are handled")
            self._failing = False
        finally:
            self._polling = False
            self._woken_while_polling = None
            if self._ctx.shared:
                self._next_poll = now if more else now + POLL_SECONDS
            self._arm()

    async def _fire(self, alarm: Alarm, until: float) -> None:
        handler = self._handlers.get(alarm.kind)
        store = self._ctx.store
        try:
            if handler is None:
                raise LookupError(f"no handler for alarm kind {alarm.kind!r}")
            await handler(alarm)
        except Exception as error:
            later = self._ctx.clock.now() + retry_delay(alarm.attempt)
            if not isinstance(error, DatabaseUnavailable):
                log.warning(
                    "alarm %s:%d failed (%s); again in %.0f s",
                    alarm.kind,
                    alarm.subject,
                    error,
                    later - self._ctx.clock.now(),
                    exc_info=not isinstance(error, LookupError),
                )
            try:
                await store.retry_alarm(alarm, until, later)
            except Exception:
                return  # its claim runs out and it is tried again then
            self.wake(later)
            return
        try:
            await store.release_alarm(alarm, until)
        except Exception:
            # Its claim runs out and the handler runs again: handlers find their work done.
            log.debug(
                "alarm %s:%d stays claimed until its claim runs out", alarm.kind, alarm.subject
            )
