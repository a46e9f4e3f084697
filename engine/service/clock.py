"""Time for the service's timers: the real clock, and a manual one tests move by hand.

Deadlines are absolute clock readings (seconds since the Unix epoch for
:class:`SystemClock`), stored as such, so a restart re-arms the remaining time rather
than a fresh full timeout.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Current time in seconds (absolute, comparable across restarts)."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once ``now() >= deadline`` (at once if it already is)."""
        ...


class SystemClock:
    """Wall-clock time; sleeps in slices so a changed system clock is noticed."""

    max_slice: float = 60.0

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        # Slices rather than one long sleep: the wall clock may be stepped meanwhile.
        while (left := deadline - time.time()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(left, self.max_slice))


class ManualClock:
    """A clock that only moves when told to; sleepers wake in deadline order.

    ``await clock.advance(60, settle=service.wait_idle)`` steps through every deadline in
    the next minute, letting the service finish what each wake-up started before the
    next one, so chains of timers fire exactly as they would in real time.
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        if deadline <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline, next(self._order), future))
        await future

    def next_deadline(self) -> float | None:
        """The earliest deadline someone is still sleeping until."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # cancelled sleepers
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(
        self, seconds: float, settle: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Move forward ``seconds``, waking sleepers at their own deadlines in order."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: {seconds!r}")
        target = self._now + seconds
        await _let_woken_tasks_run()  # tasks just created get to start sleeping first
        while (deadline := self.next_deadline()) is not None and deadline <= target:
            self._now = max(self._now, deadline)
            while self._sleepers and self._sleepers[0][0] <= self._now:
                _, _, future = heapq.heappop(self._sleepers)
                if not future.done():
                    future.set_result(None)
            await _let_woken_tasks_run()
            if settle is not None:
                await settle()
        self._now = target
        await _let_woken_tasks_run()
        if settle is not None:
            await settle()


async def _let_woken_tasks_run() -> None:
    # A woken task resumes one loop iteration after its future is resolved; a few spare
    # iterations let it reach its next real await (usually handing work to the service).
    for _ in range(3):
        await asyncio.sleep(0)
