"""Each match's own ordered queue of service events, its worker, and its board editor.

One slow Discord request never delays another match, and a match's messages keep their
order. The board is edited beside the thread messages, not after them, and several moves in
quick succession cost one edit. A match's bookkeeping is dropped once it is idle.

An event shown (or refused by Discord for good) is confirmed to the service, which then
forgets it; one that could not be shown yet (Discord down past the retrier's patience, the
connection lost, a full disk) is queued again a minute later, and stays in the service's
outbox meanwhile, so a restart shows it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.discord_plumbing.retrier import worth_showing_later
from bot.play.announcement_nonces import announcing
from engine.service import DatabaseUnavailable
from engine.service.events import Event
from engine.service.outbox import announcement_key

log = logging.getLogger(__name__)

SHOW_AGAIN_SECONDS = 60.0
"""How long an event that could not be shown waits before it is tried again."""

DATABASE_AGAIN_SECONDS = 5.0
"""How long an event or a board waits when the database did not answer: a stall or a
restart lasts seconds, and the store has logged it once for the whole outage."""


class MatchChannels:
    """What the bot tracks of one match while it shows its events."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.board_dirty = False
        self.board_task: asyncio.Task[None] | None = None


class MatchQueues:
    """Runs ``show`` on each match's events in order, and ``refresh_board`` when marked."""

    def __init__(
        self,
        show: Callable[[Event], Awaitable[None]],
        refresh_board: Callable[[int], Awaitable[None]],
        confirm: Callable[[Event], None],
        ready: Callable[[], Awaitable[None]],
        closing: Callable[[], bool] = lambda: False,
    ) -> None:
        self._show = show
        self._refresh_board = refresh_board
        self._confirm = confirm
        self._closing = closing
        """True once the bot shuts down: nothing is queued again then."""
        self._ready = ready
        """Until the Gateway has sent the servers: what is shown at start-up needs them (a
        thread's permissions are its channel's)."""
        self._matches: dict[int, MatchChannels] = {}
        self._side_tasks: set[asyncio.Task[None]] = set()

    def put(self, event: Event) -> None:
        """Queue the event on its match, starting the match's worker if it is not running."""
        match = self._matches.setdefault(event.match_id, MatchChannels())
        match.queue.put_nowait(event)
        if match.worker is None or match.worker.done():
            match.worker = asyncio.create_task(self._work(event.match_id, match))

    def mark_board(self, match_id: int) -> None:
        """The edit shows the match as it is when it runs, so marks made meanwhile merge."""
        self._mark(match_id)

    async def board_settled(self, match_id: int) -> None:
        """Mark the board and wait for its edit, after any edit still under way, so an older
        page can never land last."""
        match = self._mark(match_id)
        if match.board_task is not None:
            await match.board_task

    def _mark(self, match_id: int) -> MatchChannels:
        match = self._matches.setdefault(match_id, MatchChannels())
        match.board_dirty = True
        if match.board_task is None or match.board_task.done():
            match.board_task = asyncio.create_task(self._board_loop(match_id, match))
        return match

    def aside(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, waited for by :meth:`wait_idle`."""
        task = asyncio.create_task(work)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    async def wait_idle(self) -> None:
        """Until every queued event has been shown (tests and shutdown)."""
        while True:
            busy = [m.worker for m in self._matches.values() if m.worker and not m.worker.done()]
            busy += [
                m.board_task
                for m in self._matches.values()
                if m.board_task and not m.board_task.done()
            ]
            busy += [t for t in self._side_tasks if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    async def _board_loop(self, match_id: int, match: MatchChannels) -> None:
        await self._ready()
        while match.board_dirty:
            match.board_dirty = False
            try:
                await self._refresh_board(match_id)
            except DatabaseUnavailable:
                # Drawn again once the database answers (a real pause: not game time).
                match.board_dirty = True
                if self._closing():
                    break
                await asyncio.sleep(DATABASE_AGAIN_SECONDS)
            except discord.HTTPException as error:
                log.warning("match %s: Discord refused the board edit: %s", match_id, error)
            except Exception:
                log.exception("match %s: could not update the board", match_id)
        self._forget_if_idle(match_id, match)

    async def _work(self, match_id: int, match: MatchChannels) -> None:
        await self._ready()
        while not match.queue.empty():
            event = match.queue.get_nowait()
            key = announcement_key(event) or type(event).__name__
            try:
                with announcing(match_id, key):
                    await self._show(event)
            except Exception as error:
                if isinstance(error, DatabaseUnavailable):  # told once by the store
                    self._show_again_later(event, DATABASE_AGAIN_SECONDS)
                    continue
                if worth_showing_later(error):
                    log.warning(
                        "match %s: %s not shown yet (%r); trying again in %.0f s",
                        match_id,
                        key,
                        error,
                        SHOW_AGAIN_SECONDS,
                    )
                    self._show_again_later(event)
                    continue
                if isinstance(error, discord.HTTPException):
                    log.warning("match %s: Discord refused %s for good: %s", match_id, key, error)
                else:
                    # A bug in showing it: shown again at every start, it would fail each time.
                    log.exception("match %s: could not show %r", match_id, event)
            self._confirm(event)
        self._forget_if_idle(match_id, match)

    def _show_again_later(self, event: Event, seconds: float | None = None) -> None:
        def again() -> None:
            if not self._closing():
                self.put(event)

        if not self._closing():
            pause = SHOW_AGAIN_SECONDS if seconds is None else seconds
            asyncio.get_running_loop().call_later(pause, again)

    def _forget_if_idle(self, match_id: int, match: MatchChannels) -> None:
        """Drop a match's bookkeeping once nothing of it is queued, running or on screen,
        but never while its board is being edited (a second editor could race it)."""
        working = [t for t in (match.worker, match.board_task) if t is not None and not t.done()]
        idle = (not working or working == [asyncio.current_task()]) and match.queue.empty()
        shown = not match.board_dirty
        if idle and shown and self._matches.get(match_id) is match:
            del self._matches[match_id]
