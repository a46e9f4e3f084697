"""Public messages outlast a Discord that says "later".

discord.py waits out a 429 and retries a request up to five times, then raises. When
Discord rate-limits a route for minutes, or answers 5xx for a while, a public message
(the board, a round summary, a mention) must still appear once Discord takes requests
again, in its order. Each such request is retried here with a growing pause until
Discord accepts or refuses it for good, or for half an hour.

A 429 means Discord did nothing, so any request may be sent again. After a 5xx or a lost
connection Discord may have done it, so only edits (the same result twice) are retried
then; a new message or thread is not, rather than shown twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

from engine.service import ServiceClosed, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_PAUSE = 2.0
LONGEST_PAUSE = 60.0
GIVE_UP_AFTER = 30 * 60.0
"""A request still refused after this long is dropped (and logged): the next event of the
match shows the state anyway."""


def is_rate_limited(error: BaseException) -> bool:
    """Discord refused the request without doing it; it will take it later."""
    return isinstance(error, discord.HTTPException) and error.status == 429


def worth_showing_later(error: BaseException) -> bool:
    """Something to show could not be shown now but may be later: Discord unavailable or
    rate-limiting past the retrier's patience, the connection lost, the bot shutting down,
    the database refusing (a full disk). Anything else is a refusal for good, or a bug."""
    if isinstance(error, discord.HTTPException):
        return is_transient(error)
    later = aiohttp.ClientError | ConnectionError | TimeoutError | ServiceClosed | StoreError
    return isinstance(error, later)


def is_transient(error: BaseException) -> bool:
    """Discord will probably take this request later: rate limited, or its side failed
    (in which case it may have done it already)."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, aiohttp.ClientError | asyncio.TimeoutError | ConnectionError)


class Retrier:
    """Runs Discord requests again while they fail transiently; stops retrying on close."""

    def __init__(self) -> None:
        self._closing = asyncio.Event()

    def close(self) -> None:
        """Shutting down: a request that fails now fails for good."""
        self._closing.set()

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    async def until_accepted(
        self,
        what: str,
        request: Callable[[], Awaitable[T]],
        *,
        creates: bool = False,
        deduplicated_for: float | None = None,
    ) -> T:
        """The result of `request()`, calling it again after transient failures; one that
        `creates` something (a message, a thread) only after a 429 — or, when Discord
        recognises a repeat for `deduplicated_for` seconds (a message's nonce), after any
        transient failure within that time of the first try.

        `request` must build its message afresh each call (discord.py closes files it sent).
        """
        loop = asyncio.get_running_loop()
        first_try = loop.time()

        def worth_retrying(error: BaseException) -> bool:
            if not creates or is_rate_limited(error):
                return is_transient(error)
            recognised = deduplicated_for is not None and loop.time() - first_try < deduplicated_for
            return recognised and is_transient(error)

        give_up = first_try + GIVE_UP_AFTER
        pause = FIRST_PAUSE
        while True:
            try:
                return await request()
            except Exception as error:
                if not worth_retrying(error) or self._closing.is_set() or loop.time() > give_up:
                    raise
                log.warning(
                    "%s: Discord said later (%s); trying again in %.0f s", what, error, pause
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), timeout=pause)
            pause = min(pause * 2, LONGEST_PAUSE)
