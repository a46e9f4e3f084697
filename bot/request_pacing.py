"""Keeps the bot under Discord's global rate limit instead of learning it from a 429.

Discord allows a bot 50 requests per second across all its routes (interaction callbacks
and interaction webhooks exempt) and answers more with a global 429 that stops every
request of the bot. discord.py honours per-route buckets before they run dry, but learns
the global limit only from that 429, so the bot paces its own requests here.

Discord counts a request when it arrives, which the bot cannot see: only that it arrives
after the bot started it and before its answer comes back. So a request holds its place
from the moment it starts until one second after its answer (or its failure): then
whatever second Discord counts in, every request that arrived in it still held a place at
its end, and no second holds more than the pace, however the requests were delayed on
their way (a busy event loop, aiohttp sending a body a loop turn after the headers, the
network). Counting from "headers sent" instead let a global 429 through: aiohttp reports
that when it buffers the headers, and requests with a body left a turn of the loop later,
bunched with the next second's.

The pace is kept where a request really leaves, in aiohttp's trace hooks (the
``http_trace`` discord.py passes to its session): requests that waited on a route's bucket
are released together when it refills, so pacing before discord.py's own wait would let
such a burst through. Interaction callbacks and webhooks share the session but are exempt,
so a player's answers never queue behind board edits.
"""

from __future__ import annotations

import asyncio
import collections
import types
from collections.abc import Callable

import aiohttp
import yarl

DISCORD_GLOBAL_LIMIT = 50
"""Requests per second per bot token (Discord's "Global Rate Limit")."""
DEFAULT_REQUESTS_PER_SECOND = 45
"""Our pace: a tenth under the limit, a margin for a clock of Discord's that runs a little
differently from ours."""
WINDOW_SECONDS = 1.0


class PaceWindow:
    """Which requests hold a place at a given time: those on their way, and those answered
    less than a second ago. Pure bookkeeping on times the caller passes in.

    >>> window = PaceWindow(per_second=2)
    >>> window.take(0.0), window.take(0.0), window.take(0.0)
    (True, True, False)
    >>> window.finished(0.2); window.finished(0.3)
    >>> window.take(1.1), window.next_free(1.1)
    (False, 1.2)
    >>> window.take(1.2)
    True
    """

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._finished: collections.deque[float] = collections.deque()
        self._on_their_way = 0

    def held(self, now: float) -> int:
        """Places held at `now`."""
        while self._finished and self._finished[0] + WINDOW_SECONDS <= now:
            self._finished.popleft()
        return len(self._finished) + self._on_their_way

    def take(self, now: float) -> bool:
        """Take a place for a request starting at `now`, if one is free."""
        if self.held(now) >= self.per_second:
            return False
        self._on_their_way += 1
        return True

    def finished(self, now: float) -> None:
        """A request that took a place was answered, or failed, at `now`."""
        self._on_their_way -= 1
        self._finished.append(now)

    def next_free(self, now: float) -> float | None:
        """When a place frees without any request finishing, or None if every place is
        held by a request still on its way."""
        self.held(now)
        return self._finished[0] + WINDOW_SECONDS if self._finished else None


class RequestPacer:
    """At most `per_second` requests in any window of one second, however long they take
    to arrive, first come first served."""

    def __init__(
        self,
        per_second: int = DEFAULT_REQUESTS_PER_SECOND,
        *,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """`clock` gives seconds (the event loop's time unless a test fixes it)."""
        if not 1 <= per_second <= DISCORD_GLOBAL_LIMIT:
            raise ValueError(f"requests per second must be 1–{DISCORD_GLOBAL_LIMIT}: {per_second}")
        self.per_second = per_second
        self._clock = clock
        self._window = PaceWindow(per_second)
        self._lock = asyncio.Lock()
        self._a_request_finished = asyncio.Event()
        self.waited = 0
        """How many requests had to wait for the window (a figure for logs and benchmarks)."""

    async def wait_turn(self) -> None:
        """Until one more request may start; call `finished` once it is answered or failed."""
        async with self._lock:
            waited = False
            while not self._window.take(self._now()):
                waited = True
                free_at = self._window.next_free(self._now())
                if free_at is None:
                    # Every place is on its way: the first answer tells when one frees.
                    self._a_request_finished.clear()
                    await self._a_request_finished.wait()
                else:
                    await asyncio.sleep(max(0.0, free_at - self._now()))
            self.waited += waited

    def held(self) -> int:
        """Places held now: requests on their way, and those answered within a second."""
        return self._window.held(self._now())

    def finished(self) -> None:
        """A request that waited its turn was answered, or failed (it may have arrived)."""
        self._window.finished(self._now())
        self._a_request_finished.set()

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()


_EXEMPT = ("/interactions/", "/webhooks/")
"""Interaction endpoints, which Discord does not count against the global limit."""


def counts_against_global_limit(url: yarl.URL) -> bool:
    """A REST call under the global limit: not an interaction callback or webhook, not
    the Gateway."""
    path = url.path
    return "/api/" in path and not any(part in path for part in _EXEMPT)


def pacing_trace(pacer: RequestPacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that makes each counted REST request wait its turn on `pacer`
    just before it is sent (pass it to ``discord.Client(http_trace=...)``)."""

    async def on_request_start(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.paced = False
        if counts_against_global_limit(params.url):
            await pacer.wait_turn()
            context.paced = True  # only once it holds a place, which `finished` gives back

    def settle(context: types.SimpleNamespace) -> None:
        if getattr(context, "paced", False):
            context.paced = False
            pacer.finished()

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        settle(context)

    async def on_exception(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        settle(context)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_exception)
    return trace
