"""The store's reads: each one query (or a few in one snapshot) on the shared pool."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

from engine.model import DecisionRow, MatchInfo
from engine.ratings import LeaderboardPage, PlayerStats, Standing
from engine.store import shared_sql
from engine.store.announcement import Announcement
from engine.store.errors import StoreError
from engine.store.outage import OutageLog
from engine.store.postgres import announcements as outbox
from engine.store.postgres import matches, results
from engine.store.postgres.connection import PooledCall, masked, pooled
from engine.store.postgres.sql import fetch, fetchrow
from engine.store.shared_sql.reads import OneQueryReads
from engine.store.timeouts import DatabaseTimeouts


class PostgresReads(OneQueryReads):
    """The read half of :class:`~engine.store.postgres.PostgresMatchStore`."""

    url: str
    origin: str
    timeouts: DatabaseTimeouts
    outage: OutageLog
    _pool: Any

    def _open_pool(self) -> Any:
        if self._pool is None:
            raise StoreError(f"the store for {masked(self.url)!r} is not open")
        return self._pool

    def _call(self, pool: Any = None) -> contextlib.AbstractAsyncContextManager[PooledCall]:
        """A connection for one call, every wait on it bounded (see :func:`pooled`)."""
        return pooled(pool or self._open_pool(), self.timeouts, self.outage)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[Any]:
        """A connection in a read-only transaction that sees one state throughout."""
        async with self._call() as call, self._snapshot(call.conn):
            yield call.conn

    def _snapshot(self, conn: Any) -> Any:
        """A read-only transaction that sees one state of the database throughout."""
        return conn.transaction(isolation="repeatable_read", readonly=True)

    async def _fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Any]:
        async with self._call() as call:
            return await fetch(call.conn, sql, params)

    async def _fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Any:
        async with self._call() as call:
            return await fetchrow(call.conn, sql, params)

    async def open_matches(self) -> list[tuple[MatchInfo, list[DecisionRow]]]:
        async with self._reading() as conn:
            match_rows = await fetch(conn, shared_sql.matches.SELECT_OPEN_MATCHES)
            decision_rows = await fetch(conn, shared_sql.matches.SELECT_OPEN_DECISIONS)
        return shared_sql.matches.with_decisions(match_rows, decision_rows)

    async def undelivered(self, match_id: int | None = None) -> list[Announcement]:
        if match_id is None:
            rows = await self._fetch(outbox.SELECT_UNDELIVERED, {"origin": self.origin})
        else:
            params = {"origin": self.origin, "match_id": match_id}
            rows = await self._fetch(outbox.SELECT_UNDELIVERED_OF_MATCH, params)
        return [outbox.from_row(row) for row in rows]

    async def match_since(
        self, match_id: int, version: int
    ) -> tuple[MatchInfo, list[DecisionRow]] | None:
        params = {"match_id": match_id, "version": version}
        async with self._reading() as conn:
            row = await fetchrow(conn, shared_sql.matches.SELECT_MATCH, params)
            if row is None:
                return None
            rows = await fetch(conn, shared_sql.matches.SELECT_DECISIONS_SINCE, params)
        decisions = [shared_sql.matches.decision_from_row(r) for r in rows]
        return shared_sql.matches.match_from_row(row), decisions

    async def open_matches_of(self, user_id: int) -> list[MatchInfo]:
        rows = await self._fetch(matches.SELECT_OPEN_OF, {"user_id": user_id})
        return [shared_sql.matches.match_from_row(row) for row in rows]

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> LeaderboardPage:
        params = {"guild_id": guild_id, "min_games": min_games, "offset": offset, "limit": limit}
        async with self._reading() as conn:
            rows = await fetch(conn, shared_sql.results.SELECT_LEADERBOARD, params)
            total = await fetchrow(conn, shared_sql.results.COUNT_LEADERBOARD, params)
        return shared_sql.results.leaderboard_page(rows, offset, total)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        params = {"guild_id": guild_id, "user_id": user_id}
        async with self._reading() as conn:
            row = await fetchrow(conn, shared_sql.results.SELECT_STANDING, params)
            record = await fetch(conn, shared_sql.results.RATED_RECORD, params)
            ai = await fetchrow(conn, results.AI_RECORD, params)
            reliability = await fetchrow(conn, shared_sql.results.RELIABILITY, params)
        standing = (
            Standing(guild_id, user_id)
            if row is None
            else shared_sql.results.standing_from_row(row)
        )
        return shared_sql.results.player_stats(standing, record, ai, reliability)
