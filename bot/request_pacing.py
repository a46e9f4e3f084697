"""Keeps the bot under Discord's global rate limit instead of learning it from a 429.

Discord allows a bot 50 requests per second across all its routes (interaction callbacks
and interaction webhooks exempt) and answers more with a global 429 that stops every
request of the bot. discord.py honours per-route buckets before they run dry, but learns
the global limit only from that 429, so the bot paces its own requests here.

The pace is kept where a request really leaves, in aiohttp's request-start hook (the
``http_trace`` discord.py passes to its session): requests that waited on a route's bucket
are released together when it refills, so pacing before discord.py's own wait would let
such a burst through. Interaction callbacks and webhooks share the session but are exempt,
so a player's answers never queue behind board edits.
"""

from __future__ import annotations

import asyncio
import collections
import types

import aiohttp
import yarl

DISCORD_GLOBAL_LIMIT = 50
"""Requests per second per bot token (Discord's "Global Rate Limit")."""
DEFAULT_REQUESTS_PER_SECOND = 45
"""Our pace: a margin under the limit for clock drift between us and Discord."""
_WINDOW = 1.0


class RequestPacer:
    """At most `per_second` requests start in any window of one second, first come first
    served."""

    def __init__(self, per_second: int = DEFAULT_REQUESTS_PER_SECOND) -> None:
        if not 1 <= per_second <= DISCORD_GLOBAL_LIMIT:
            raise ValueError(f"requests per second must be 1–{DISCORD_GLOBAL_LIMIT}: {per_second}")
        self.per_second = per_second
        self._starts: collections.deque[float] = collections.deque()
        self._lock = asyncio.Lock()
        self.waited = 0
        """How many requests had to wait for the window (a figure for logs and benchmarks)."""

    async def wait_turn(self) -> None:
        async with self._lock:
            loop = asyncio.get_running_loop()
            now = loop.time()
            while self._starts and now - self._starts[0] >= _WINDOW:
                self._starts.popleft()
            if len(self._starts) >= self.per_second:
                self.waited += 1
                await asyncio.sleep(self._starts[0] + _WINDOW - now)
                self._starts.popleft()
            self._starts.append(loop.time())


_EXEMPT = ("/interactions/", "/webhooks/")
"""Interaction endpoints, which Discord does not count against the global limit."""


def counts_against_global_limit(url: yarl.URL) -> bool:
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
        if counts_against_global_limit(params.url):
            await pacer.wait_turn()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    return trace
