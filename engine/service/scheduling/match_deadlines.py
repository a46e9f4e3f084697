"""Match deadlines claimed from a shared database: with several processes, no process keeps
a memory alarm for a match; at each poll of the :class:`~.alarm_clock.AlarmClock` it asks the
database which matches are due, and claims them.

A match is due when its challenge expires, its turn reminder is due, or its deadline
passed (``MatchStore.claim_due``); claiming holds it for :data:`CLAIM_SECONDS`, so one
process handles it while the others skip it, and the write that handles it releases it.
A process that dies holding a claim leaves it to expire: another process takes the match
over. The write itself checks the match's version, so even a claim that outlived its
holder's work applies at most once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from engine.service.context import ServiceContext
from engine.service.scheduling.alarm_clock import CLAIM_SECONDS
from engine.store.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

BATCH = 50
"""Due matches claimed at once; a full batch is followed by another at once."""

IDLE_SECONDS = 600.0
"""A match nobody used here for this long leaves this process's cache (it is loaded again
when needed): another process may have ended it long ago."""


class MatchDeadlines:
    """Claims due matches at each poll and hands each to ``fire`` (in a task)."""

    def __init__(
        self, context: ServiceContext, fire: Callable[[int], Coroutine[Any, Any, None]]
    ) -> None:
        self._ctx = context
        self._fire = fire
        self._failing = False
        self._told = False
        """Whether this spell of failures was logged here (not by the store)."""

    async def poll(self, now: float) -> bool:
        """Claim the matches due at ``now``; whether more may be due (a full batch)."""
        # Housekeeping, not game time: the real clock on purpose.
        self._ctx.matches.let_go_of_idle(time.monotonic() - IDLE_SECONDS)
        lead = self._ctx.config.reminder_before_seconds
        try:
            claimed = await self._ctx.store.claim_due(now, lead, now + CLAIM_SECONDS, BATCH)
        except Exception as error:
            # Once per spell: a database that is down stays down a while. One that does not
            # answer is told by the store itself, once per outage.
            if not self._failing and not isinstance(error, DatabaseUnavailable):
                log.warning("cannot ask the database for due matches (%s); trying again", error)
                self._told = True
            self._failing = True
            return False
        if self._told:
            log.info("the database answers again; due matches are handled")
        self._failing = self._told = False
        for match_id in claimed:
            self._ctx.spawn(self._fire(match_id))
        return len(claimed) == BATCH
