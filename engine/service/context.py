"""What the service's parts share: the store, the clock, the event bus, the open matches,
and the life cycle (background work, calls under way, started and closed)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from engine.service.clock import Clock
from engine.service.config import ServiceConfig
from engine.service.errors import InvalidRequest, MatchNotActive, MatchNotFound, ServiceClosed
from engine.service.event_bus import EventBus
from engine.service.live_match import LiveMatch
from engine.service.open_matches import OpenMatches
from engine.service.outbox import Outbox
from engine.store.match_store import MatchStore

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
        self.matches = OpenMatches(config.max_active_matches)
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
        if not task.cancelled() and task.exception() is not None:
            log.error("background match work failed", exc_info=task.exception())

    # -- finding matches -----------------------------------------------------------------

    async def open_match(self, match_id: int) -> LiveMatch:
        """The open match ``match_id``; raises MatchNotFound or MatchNotActive otherwise."""
        live = self.matches.get(match_id)
        if live is not None:
            return live
        info = await self.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        raise MatchNotActive(match_id, info.status)
