"""When a bot process may IDENTIFY on the Gateway: Discord starts at most `max_concurrency`
sessions per 5 seconds, one per bucket ``shard_id % max_concurrency`` ("Session Start
Limit" and "Max Concurrency", topics/gateway), across every process of the bot, and answers
one more with an invalid session.

:class:`LocalIdentifyGate` keeps the times in this process (the bot on SQLite is one
process); :class:`~engine.store.postgres.PostgresMatchStore` keeps them in the shared
database, so processes starting at once take turns. No Discord here: a bucket is a number.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Protocol, runtime_checkable

from engine.store.errors import StoreError

IDENTIFY_SPACING_SECONDS = 5.5
"""Discord's 5 s between IDENTIFYs of a bucket, plus half a second: the turn is taken just
before the IDENTIFY is sent, and the one before may have reached Discord a little late."""


class IdentifyTurnUnknown(StoreError):
    """The shared record of IDENTIFY turns could not be read or written."""

    def __init__(self, bucket: int, reason: str) -> None:
        super().__init__(f"IDENTIFY turn of bucket {bucket} unknown: {reason}")
        self.bucket = bucket


@runtime_checkable
class IdentifyGate(Protocol):
    async def identify_turn(self, bucket: int, spacing: float = IDENTIFY_SPACING_SECONDS) -> None:
        """Until an IDENTIFY in `bucket` may go: `spacing` seconds after the last one in it
        (this process's or another's); the caller's IDENTIFY counts as sent on return.
        :class:`IdentifyTurnUnknown` if the shared record cannot be reached."""


class LocalIdentifyGate:
    """An :class:`IdentifyGate` for the shards of one process."""

    def __init__(self) -> None:
        self._locks: collections.defaultdict[int, asyncio.Lock] = collections.defaultdict(
            asyncio.Lock
        )
        self._last: dict[int, float] = {}

    async def identify_turn(self, bucket: int, spacing: float = IDENTIFY_SPACING_SECONDS) -> None:
        loop = asyncio.get_running_loop()
        async with self._locks[bucket]:
            last = self._last.get(bucket)
            if last is not None:
                await asyncio.sleep(max(0.0, last + spacing - loop.time()))
            self._last[bucket] = loop.time()
