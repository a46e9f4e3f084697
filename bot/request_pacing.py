"""Keeps the bot under Discord's global rate limit instead of learning it from a 429.

Discord allows a bot 50 requests per second across all its routes (interaction callbacks
and interaction webhooks exempt) and answers more with a global 429 that stops every
request of the bot. discord.py honours per-route buckets before they run dry, but learns
the global limit only from that 429, so the bot paces its own requests here.

The pace is kept where a request really leaves, in aiohttp's trace hooks (the
``http_trace`` discord.py passes to its session): requests that waited on a route's bucket
are released together when it refills, so pacing before discord.py's own wait would let
such a burst through. A request takes its place when it starts and is counted from the
moment its headers are sent, so a busy event loop that delays sends cannot squeeze more
than the pace into one second either. Interaction callbacks and webhooks share the session
but are exempt, so a player's answers never queue behind board edits.
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
"""Our pace: a tenth under the limit, because requests sent evenly can arrive bunched
(network jitter on the way to Discord)."""
_WINDOW = 1.0
_SHORT_PAUSE = 0.005


class RequestPacer:
    """At most `per_second` requests sent in any window of one second, counting those on
    their way, first come first served."""

    def __init__(self, per_second: int = DEFAULT_REQUESTS_PER_SECOND) -> None:
        if not 1 <= per_second <= DISCORD_GLOBAL_LIMIT:
            raise ValueError(f"requests per second must be 1–{DISCORD_GLOBAL_LIMIT}: {per_second}")
        self.per_second = per_second
        self._sent: collections.deque[float] = collections.deque()
        self._on_their_way = 0
        self._lock = asyncio.Lock()
        self.waited = 0
        """How many requests had to wait for the window (a figure for logs and benchmarks)."""

    async def wait_turn(self) -> None:
        """Until one more request may go; call `sent` or `dropped` for it afterwards."""
        async with self._lock:
            loop = asyncio.get_running_loop()
            waited = False
            while True:
                now = loop.time()
                while self._sent and now - self._sent[0] >= _WINDOW:
                    self._sent.popleft()
                if len(self._sent) + self._on_their_way < self.per_second:
                    self._on_their_way += 1
                    self.waited += waited
                    return
                waited = True
                # The oldest send leaves the window then; one on its way, soon after sending.
                pause = self._sent[0] + _WINDOW - now if self._sent else _SHORT_PAUSE
                await asyncio.sleep(max(pause, _SHORT_PAUSE))

    def sent(self) -> None:
        """A request that waited its turn has left."""
        self._on_their_way -= 1
        self._sent.append(asyncio.get_running_loop().time())

    def dropped(self) -> None:
        """A request that waited its turn failed before it left."""
        self._on_their_way -= 1


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
            context.paced = True  # only once it holds a place, which sent/dropped give back

    def settle(context: types.SimpleNamespace, give_back: Callable[[], None]) -> None:
        if getattr(context, "paced", False):
            context.paced = False
            give_back()

    async def on_headers_sent(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        settle(context, pacer.sent)

    async def on_exception(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        settle(context, pacer.dropped)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_headers_sent.append(on_headers_sent)
    trace.on_request_exception.append(on_exception)
    return trace
