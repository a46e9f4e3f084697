"""What the service's parts share: the store, the clock, the event bus, the open matches
(loaded and brought up to date from a shared database), and the life cycle (background
work, calls under way, started and closed)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Any

from engine.model import DecisionRow, MatchInfo, MatchStatus
from engine.service.announcing.event_bus import EventBus
from engine.service.announcing.outbox import Outbox
from engine.service.clock import Clock
from engine.service.config import ServiceConfig
from engine.service.errors import InvalidRequest, ServiceClosed
from engine.service.events import MatchBroken
from engine.service.matches.errors import MatchNotActive, MatchNotFound
from engine.service.matches.live_match import LiveMatch, ReplayError, catch_up
from engine.service.matches.open_matches import OpenMatches
from engine.service.scheduling.alarm_clock import AlarmClock
from engine.store.announcement import Announcement
from engine.store.errors import DatabaseUnavailable, StorageFull
from engine.store.match_store import MatchStore

OPEN = frozenset({MatchStatus.PENDING, MatchStatus.ACTIVE})

log = logging.getLogger(__name__)


class ServiceContext:
    """The state every part of the match service works with; each part gets this one object."""

    def __init__(
        self, store: MatchStore, config: ServiceConfig, clock: Clock, rng: random.Random
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.rng = rng
        """Seeds and first players of new matches."""
        self.bus = EventBus(config.event_queue_warn)
        self.outbox = Outbox(store, self.bus)
        self.alarms = AlarmClock(self)
        """Every alarm of every feature rings here (:mod:`engine.service.scheduling`)."""
        self.matches = OpenMatches()
        self.shared = store.shared
        """Other processes write the database too: memory is a cache, checked before use."""
        self.settle_soon: Callable[[LiveMatch], None] = lambda live: None
        """Called when a write of ``live`` got no answer: :class:`MatchTurns` sets it to
        read the match again shortly, so what the write made is shown without waiting
        for someone to use the match."""
        self.started = False
        self.closed = False
        self._work: set[asyncio.Task[None]] = set()
        self._operations = 0
        self._no_operations = asyncio.Event()

    # -- calls under way -----------------------------------------------------------------

    @asynccontextmanager
    async def operation(self) -> AsyncIterator[None]:
        """A public mutating call: refused once the service closes, waited for by close()."""
        if self.closed:
            raise ServiceClosed()
        if not self.started:
            raise InvalidRequest("the match service has not been started")
        self._operations += 1
        try:
            yield
        finally:
            self._operations -= 1
            if not self._operations:
                self._no_operations.set()

    async def operations_done(self) -> None:
        """Wait until no public mutating call is under way (e.g. a decision being committed)."""
        if self._operations:
            self._no_operations.clear()
            await self._no_operations.wait()

    # -- background work -----------------------------------------------------------------

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run timer actions and AI moves as tasks that close() and wait_idle() know of."""
        task = asyncio.create_task(coroutine)
        self._work.add(task)
        task.add_done_callback(self._work_done)
        return task

    def busy_tasks(self) -> list[asyncio.Task[None]]:
        return [task for task in self._work if not task.done()]

    async def finish_work(self, grace_seconds: float) -> None:
        """Let background work finish for up to ``grace_seconds``, then cancel the rest."""
        if self._work:
            _, late = await asyncio.wait(set(self._work), timeout=grace_seconds)
            for task in late:
                task.cancel()

    def _work_done(self, task: asyncio.Task[None]) -> None:
        self._work.discard(task)
        if task.cancelled() or (error := task.exception()) is None:
            return
        if isinstance(error, DatabaseUnavailable | StorageFull):
            # The store has said so once for the whole outage; the work comes round again.
            log.debug("background match work waits for the database: %s", error)
            return
        log.error("background match work failed", exc_info=error)

    # -- finding matches -----------------------------------------------------------------

    async def open_match(self, match_id: int) -> LiveMatch:
        """The open match ``match_id``; raises MatchNotFound or MatchNotActive otherwise.

        With a shared database a match this process has not held yet is loaded; either way
        take its lock and :meth:`refresh` it before trusting it.
        """
        live = self.matches.get(match_id)
        if live is not None:
            live.used_at = time.monotonic()
            return live
        if self.shared:
            found = await self.store.match_since(match_id, 0)
            if found is not None and found[0].status in OPEN:
                live = LiveMatch(found[0])
                await self._catch_up(live, *found)
                if live.info.status in OPEN:
                    return self.matches.add(live)
        info = await self.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        raise MatchNotActive(match_id, info.status)

    async def refresh(self, live: LiveMatch) -> None:
        """Bring a match held in memory up to date with the database, its lock held: with a
        shared database another process may have moved it on (or ended it, and then it is
        let go). Nothing to do when this process is the only writer, unless a write of its
        own got no answer (``live.unsure``): the database alone knows if it was made."""
        if not self.shared and not live.unsure:
            return
        found = await self.store.match_since(live.match_id, live.version)
        if found is None:
            self.matches.remove(live)
            raise MatchNotFound(live.match_id)
        await self._catch_up(live, *found)
        if live.unsure:
            # If the write was made, its announcements are in the outbox, published by
            # nobody: publish them now (only those, so what was shown is not shown again).
            stored = await self.store.undelivered(live.match_id)
            self.outbox.publish(row for row in stored if row.key in live.unanswered)
            live.unanswered = frozenset()
        live.unsure = False

    @contextmanager
    def unsure_unless_answered(
        self, live: LiveMatch, announcements: Iterable[Announcement]
    ) -> Iterator[None]:
        """Around a write of ``live`` carrying ``announcements``: if the database got it but
        never answered, nobody knows whether it was made, so memory assumes neither; the
        match is read again before its next use, and shortly anyway (:meth:`refresh`)."""
        try:
            yield
        except DatabaseUnavailable as error:
            if error.outcome_unknown:
                live.unsure = True
                live.unanswered |= {row.key for row in announcements}
                self.settle_soon(live)
            raise

    async def _catch_up(self, live: LiveMatch, info: MatchInfo, rows: list[DecisionRow]) -> None:
        try:
            catch_up(live, info, rows)
        except ReplayError as error:
            # Same verdict as at start-up with one process: kept for inspection, not played.
            log.error("match %d no longer replays and was set aside: %s", info.match_id, error)
            await self.store.mark_broken(info.match_id, str(error), self.clock.now())
            self.bus.publish(MatchBroken(info.match_id, str(error)))
            live.info = replace(info, status=MatchStatus.BROKEN)
        if live.info.status not in OPEN:
            self.matches.remove(live)
