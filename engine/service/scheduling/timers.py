"""Match timers: at most one pending alarm per match, all served by one sleeping task.

A match re-arms its alarm on every decision, so alarms are replaced far more often than
they ring. Replacing one here is a heap push (the old entry is left behind and skipped
when it surfaces) rather than a task cancelled and a new one created per decision.

Kept rather than simplified away (issue 14 asked): the injectable clock
(:mod:`engine.service.clock`) offers only ``now()`` and ``sleep_until()``, no
``call_at``-style handle to move or cancel, so the simple alternative is a sleeping task per
match, cancelled on every decision; under load that is thousands of task cancellations a
second, and :class:`ManualClock` would hold a sleeper per match. One sleeper over a heap
works the same on both clocks.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Generic, TypeVar

from engine.service.clock import Clock

Alarm = TypeVar("Alarm")

_COMPACT_FACTOR = 4
"""Rebuild the heap when it holds this many times more entries than live alarms."""


class MatchTimers(Generic[Alarm]):
    """Calls ``ring(match_id, alarm)`` once the clock reaches the alarm's time."""

    def __init__(self, clock: Clock, ring: Callable[[int, Alarm], None]) -> None:
        self._clock = clock
        self._ring = ring
        self._heap: list[tuple[float, int, int, Alarm]] = []
        self._live: dict[int, int] = {}
        """match id -> sequence number of its one live entry."""
        self._order = itertools.count()
        self._runner: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None

    def __len__(self) -> int:
        return len(self._live)

    def set(self, match_id: int, when: float, alarm: Alarm) -> None:
        """Arm the match's alarm for ``when``, replacing the one it had."""
        seq = next(self._order)
        self._live[match_id] = seq
        heapq.heappush(self._heap, (when, seq, match_id, alarm))
        if len(self._heap) > _COMPACT_FACTOR * len(self._live) + 64:
            self._heap = [e for e in self._heap if self._live.get(e[2]) == e[1]]
            heapq.heapify(self._heap)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run())
        elif self._sleeping_until is not None and when < self._sleeping_until:
            self._runner.cancel()  # it sleeps past the new, earlier alarm
            self._runner = asyncio.create_task(self._run())

    def clear(self, match_id: int) -> None:
        """Disarm the match's alarm, if any."""
        self._live.pop(match_id, None)

    def close(self) -> None:
        self._live.clear()
        self._heap.clear()
        if self._runner is not None:
            self._runner.cancel()

    async def _run(self) -> None:
        # self._heap is looked up afresh each time: compaction may replace the list.
        while True:
            while self._heap and self._live.get(self._heap[0][2]) != self._heap[0][1]:
                heapq.heappop(self._heap)  # replaced or cleared
            if not self._heap:
                self._sleeping_until = None
                return
            self._sleeping_until = self._heap[0][0]
            await self._clock.sleep_until(self._sleeping_until)
            now = self._clock.now()
            while self._heap and self._heap[0][0] <= now:
                _, seq, match_id, alarm = heapq.heappop(self._heap)
                if self._live.get(match_id) == seq:
                    del self._live[match_id]
                    self._ring(match_id, alarm)
