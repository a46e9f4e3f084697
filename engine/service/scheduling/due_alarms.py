"""Alarms kept in a shared database: with several processes, no process arms a timer of its
own for a match; each asks the database now and then which matches are due, and claims them.

A match is due when its challenge expires, its turn reminder is due, or its deadline
passed (``MatchStore.claim_due``); claiming holds it for :data:`CLAIM_SECONDS`, so one
process handles it while the others skip it, and the write that handles it releases it.
A process that dies holding a claim leaves it to expire: another process takes the match
over. The write itself checks the match's version, so even a claim that outlived its
holder's work applies at most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from engine.service.context import ServiceContext
from engine.store.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

CLAIM_SECONDS = 60.0
"""How long a claimed match is left to its process before another may take it over: longer
than any AI move takes, short enough that a dead process's matches wait only this long."""

POLL_SECONDS = 1.0
"""How often each process asks for due matches: how late an alarm may ring."""

BATCH = 50
"""Due matches claimed at once; a full batch is followed by another at once."""

IDLE_SECONDS = 600.0
"""A match nobody used here for this long leaves this process's cache (it is loaded again
when needed): another process may have ended it long ago."""


class DueAlarms:
    """Polls the shared database for due matches and hands each to ``fire`` (in a task)."""

    def __init__(
        self, context: ServiceContext, fire: Callable[[int], Coroutine[Any, Any, None]]
    ) -> None:
        self._ctx = context
        self._fire = fire
        self._runner: asyncio.Task[None] | None = None
        self.started_at = float("-inf")
        """When this process began polling (clock seconds)."""
        self._claimed = 0
        """How many matches the last poll claimed."""
        self._failing = False
        self._told = False
        """Whether this spell of failures was logged here (not by the store)."""

    def start(self) -> None:
        self.started_at = self._ctx.clock.now()
        self._runner = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    async def _run(self) -> None:
        clock = self._ctx.clock
        while not self._ctx.closed:
            # Housekeeping, not game time: the real clock on purpose.
            self._ctx.matches.let_go_of_idle(time.monotonic() - IDLE_SECONDS)
            now = clock.now()
            # A poll is background work like any timer action: wait_idle() waits for it.
            await self._ctx.spawn(self._poll(now))
            if self._claimed < BATCH:
                await clock.sleep_until(now + POLL_SECONDS)

    async def _poll(self, now: float) -> None:
        lead = self._ctx.config.reminder_before_seconds
        self._claimed = 0
        try:
            claimed = await self._ctx.store.claim_due(now, lead, now + CLAIM_SECONDS, BATCH)
        except Exception as error:
            # Once per spell: a database that is down stays down a while. One that does not
            # answer is told by the store itself, once per outage.
            if not self._failing and not isinstance(error, DatabaseUnavailable):
                log.warning("cannot ask the database for due matches (%s); trying again", error)
                self._told = True
            self._failing = True
            return
        if self._told:
            log.info("the database answers again; due matches are handled")
        self._failing = self._told = False
        self._claimed = len(claimed)
        for match_id in claimed:
            self._ctx.spawn(self._fire(match_id))
