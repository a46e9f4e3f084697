"""The store's reads: each one query (or a few in one snapshot) on the shared pool."""

from __future__ import annotations

from typing import Any

from engine.ratings import LeaderboardPage, PlayerStats, RatingChange, Standing
from engine.rules.outcome import Termination
from engine.store.errors import StoreError
from engine.store.postgres import announcements as outbox
from engine.store.postgres import matches, rematches, results, settings
from engine.store.postgres.connection import masked
from engine.store.postgres.sql import fetch, fetchrow
from engine.store.rows import (
    Announcement,
    DecisionRow,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    UserSettings,
)


class PostgresReads:
    """The read half of :class:`~engine.store.postgres.PostgresMatchStore`."""

    url: str
    origin: str
    _pool: Any

    def _open_pool(self) -> Any:
        if self._pool is None:
            raise StoreError(f"the store for {masked(self.url)!r} is not open")
        return self._pool

    def _snapshot(self, conn: Any) -> Any:
        """A read-only transaction that sees one state of the database throughout."""
        return conn.transaction(isolation="repeatable_read", readonly=True)

    async def open_matches(self) -> list[tuple[MatchInfo, list[DecisionRow]]]:
        async with self._open_pool().acquire() as conn, self._snapshot(conn):
            found = [
                matches.match_from_row(r) for r in await fetch(conn, matches.SELECT_OPEN_MATCHES)
            ]
            decisions: dict[int, list[DecisionRow]] = {m.match_id: [] for m in found}
            for row in await fetch(conn, matches.SELECT_OPEN_DECISIONS):
                decisions[row["match_id"]].append(matches.decision_from_row(row))
        return [(m, decisions[m.match_id]) for m in found]

    async def undelivered(self) -> list[Announcement]:
        rows = await fetch(self._open_pool(), outbox.SELECT_UNDELIVERED, {"origin": self.origin})
        return [outbox.from_row(row) for row in rows]

    async def get_match(self, match_id: int) -> MatchInfo | None:
        row = await fetchrow(self._open_pool(), matches.SELECT_MATCH, {"match_id": match_id})
        return None if row is None else matches.match_from_row(row)

    async def match_since(
        self, match_id: int, version: int
    ) -> tuple[MatchInfo, list[DecisionRow]] | None:
        params = {"match_id": match_id, "version": version}
        async with self._open_pool().acquire() as conn, self._snapshot(conn):
            row = await fetchrow(conn, matches.SELECT_MATCH, params)
            if row is None:
                return None
            rows = await fetch(conn, matches.SELECT_DECISIONS_AFTER, params)
        return matches.match_from_row(row), [matches.decision_from_row(r) for r in rows]

    async def open_matches_of(self, user_id: int) -> list[MatchInfo]:
        rows = await fetch(self._open_pool(), matches.SELECT_OPEN_OF, {"user_id": user_id})
        return [matches.match_from_row(row) for row in rows]

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        params = {"thread_id": thread_id}
        row = await fetchrow(self._open_pool(), matches.SELECT_IN_THREAD, params)
        return None if row is None else matches.match_from_row(row)

    async def decisions(self, match_id: int) -> list[DecisionRow]:
        rows = await fetch(self._open_pool(), matches.SELECT_DECISIONS, {"match_id": match_id})
        return [matches.decision_from_row(row) for row in rows]

    async def rematch_presses(self, match_id: int) -> frozenset[int]:
        rows = await fetch(self._open_pool(), rematches.SELECT_PRESSES, {"match_id": match_id})
        return frozenset(row["user_id"] for row in rows)

    async def rematches_of(self, match_id: int) -> list[MatchInfo]:
        rows = await fetch(self._open_pool(), matches.SELECT_REMATCHES, {"match_id": match_id})
        return [matches.match_from_row(row) for row in rows]

    async def matches_started_by(self, user_id: int, since: float) -> list[MatchInfo]:
        params = {"user_id": user_id, "since": since}
        rows = await fetch(self._open_pool(), matches.SELECT_STARTED_BY, params)
        return [matches.match_from_row(row) for row in rows]

    async def finished_match(self, match_id: int) -> FinishedMatch | None:
        row = await fetchrow(self._open_pool(), results.SELECT_RESULT, {"match_id": match_id})
        return None if row is None else results.result_from_row(row)

    async def finished_matches(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        before: float | None = None,
        limit: int = 20,
    ) -> list[FinishedMatch]:
        sql = results.select_finished(user_id=user_id, guild_id=guild_id, before=before)
        params = {"user_id": user_id, "guild_id": guild_id, "before": before, "limit": limit}
        return [results.result_from_row(row) for row in await fetch(self._open_pool(), sql, params)]

    async def standing(self, guild_id: int, user_id: int) -> Standing | None:
        params = {"guild_id": guild_id, "user_id": user_id}
        row = await fetchrow(self._open_pool(), results.SELECT_STANDING, params)
        return None if row is None else results.standing_from_row(row)

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> LeaderboardPage:
        params = {"guild_id": guild_id, "min_games": min_games, "offset": offset, "limit": limit}
        async with self._open_pool().acquire() as conn, self._snapshot(conn):
            rows = await fetch(conn, results.SELECT_LEADERBOARD, params)
            total = await fetchrow(conn, results.COUNT_LEADERBOARD, params)
        standings = tuple(results.standing_from_row(row) for row in rows)
        return LeaderboardPage(standings, offset, int(total["total"]))

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await fetch(self._open_pool(), results.SELECT_CHANGES, {"match_id": match_id})
        return [results.change_from_row(row) for row in rows]

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        params = {"guild_id": guild_id, "user_id": user_id}
        async with self._open_pool().acquire() as conn, self._snapshot(conn):
            row = await fetchrow(conn, results.SELECT_STANDING, params)
            record = await fetch(conn, results.RATED_RECORD, params)
            ai = await fetchrow(conn, results.AI_RECORD, params)
        standing = Standing(guild_id, user_id) if row is None else results.standing_from_row(row)
        wins_by: dict[Termination, int] = {}
        losses_by: dict[Termination, int] = {}
        for r in record:
            tally = wins_by if r["score"] == 1 else losses_by
            tally[Termination(r["reason"])] = int(r["games"])
        return PlayerStats(
            standing, wins_by, losses_by, ai_games=int(ai["games"]), ai_wins=int(ai["wins"])
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await fetchrow(self._open_pool(), settings.SELECT_GUILD, {"guild_id": guild_id})
        return None if row is None else settings.guild_from_row(row)

    async def user_settings(self, user_id: int) -> UserSettings | None:
        row = await fetchrow(self._open_pool(), settings.SELECT_USER, {"user_id": user_id})
        return None if row is None else settings.user_from_row(row)
