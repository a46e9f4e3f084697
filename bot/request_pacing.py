"""Keeps the bot under Discord's global rate limit instead of learning it from a 429.

Discord allows a bot 50 requests per second across all its routes (interaction callbacks
and interaction webhooks exempt) and answers more with a global 429 that stops every
request of the bot. discord.py honours per-route buckets before they run dry, but learns
the global limit only from that 429, so the bot paces its own bot-token requests here.
discord.py sends interaction callbacks and followups through its webhook adapter, not
through ``HTTPClient.request``, so a player's answers never queue behind board edits.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.http import Route

log = logging.getLogger(__name__)

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


Request = Callable[..., Awaitable[Any]]


def pace_requests(client: discord.Client, pacer: RequestPacer) -> None:
    """Make every bot-token REST request of `client` wait its turn on `pacer`."""
    unpaced: Request = client.http.request

    async def paced(route: Route, **kwargs: Any) -> Any:
        await pacer.wait_turn()
        return await unpaced(route, **kwargs)

    # discord.py has no hook for this; wrapping the one method every REST call goes
    # through keeps the rest of its rate limiting (per-route buckets) untouched.
    client.http.request = paced  # type: ignore[method-assign]
