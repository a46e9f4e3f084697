"""IDENTIFY turns shared by every process on the database (see
:mod:`engine.store.identify_gate`): a transaction-scoped advisory lock per bucket makes the
processes take turns, and ``identify_buckets`` remembers when the bucket last IDENTIFYed,
by the database's clock. A process killed after its turn still leaves its time behind;
its lock goes with its transaction."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from engine.store.identify_gate import IdentifyTurnUnknown
from engine.store.postgres.sql import execute, fetchrow

_LOCK_BUCKET = "SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"
_SECONDS_SINCE = """
SELECT EXTRACT(EPOCH FROM clock_timestamp())::DOUBLE PRECISION - identified_at AS since
FROM identify_buckets WHERE bucket = :bucket
"""
_IDENTIFIED_NOW = """
INSERT INTO identify_buckets (bucket, identified_at)
VALUES (:bucket, EXTRACT(EPOCH FROM clock_timestamp()))
ON CONFLICT (bucket) DO UPDATE SET identified_at = EXCLUDED.identified_at
"""


async def take_identify_turn(pool: Any, bucket: int, spacing: float) -> None:
    """On a connection of `pool`: wait for the bucket's turn and record it;
    :class:`IdentifyTurnUnknown` if the database does not let us."""
    try:
        async with pool.acquire() as conn:
            await _take_turn(conn, bucket, spacing)
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        raise IdentifyTurnUnknown(bucket, str(error) or type(error).__name__) from error


async def _take_turn(conn: Any, bucket: int, spacing: float) -> None:
    async with conn.transaction():
        await execute(conn, _LOCK_BUCKET, {"key": f"hanamikoji:identify:{bucket}"})
        row = await fetchrow(conn, _SECONDS_SINCE, {"bucket": bucket})
        if row is not None and row["since"] < spacing:
            # Holding the lock: the next process waits for this turn, then for its own.
            await asyncio.sleep(spacing - max(0.0, row["since"]))
        await execute(conn, _IDENTIFIED_NOW, {"bucket": bucket})
