"""The shared store: PostgreSQL through asyncpg, for several bot processes on one database.

The database is the authority. Each write is one transaction that first locks its match's
row and checks the match is still as the caller saw it (:mod:`.matches`), so across
processes a decision is applied exactly once; a stale write raises
:class:`~engine.store.errors.MatchConflict` and writes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import asyncpg

from engine.model import (
    DecisionRow,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    UserSettings,
)
from engine.ratings import Standing, ratings_key
from engine.store import shared_sql
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.errors import DuplicateKey, MatchConflict
from engine.store.identify_gate import IDENTIFY_SPACING_SECONDS
from engine.store.match_store import Rater
from engine.store.outage import OutageLog
from engine.store.postgres import announcements as outbox
from engine.store.postgres import claims, matches, rematches, results, reviews, settings
from engine.store.postgres.connection import (
    create_pool,
    masked,
    migrate,
    storage_errors,
    unavailable_reason,
)
from engine.store.postgres.identify_gate import take_identify_turn
from engine.store.postgres.reads import PostgresReads
from engine.store.postgres.sql import execute, fetch, fetchrow
from engine.store.shared_sql import alarms, tournaments
from engine.store.shared_sql.clock_records import ClockRecords
from engine.store.shared_sql.daily_puzzle_records import DailyPuzzleRecords
from engine.store.shared_sql.puzzle_records import PuzzleRecords, ReadThenWrite
from engine.store.shared_sql.season_records import SeasonRecords
from engine.store.shared_sql.sql import Statement
from engine.store.shared_sql.tournament_records import TournamentRecords
from engine.store.timeouts import DatabaseTimeouts

LOCK_POOL_SIZE = 4
"""Connections that hold :meth:`PostgresMatchStore.exclusive` keys. Apart from the pool
the writes use: a holder writes while others wait on its key, and waiters sharing that
pool could take every connection it needs."""

_LOCK = "SELECT pg_advisory_lock(hashtextextended(:key, 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(:key, 0))"
_LOCK_UNTIL_COMMIT = "SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"


class PostgresMatchStore(
    TournamentRecords,
    SeasonRecords,
    ClockRecords,
    PuzzleRecords,
    DailyPuzzleRecords,
    PostgresReads,
):
    """:class:`~engine.store.match_store.MatchStore` on a PostgreSQL database at ``url``.

    ``origin`` names this process (``"shards 0-3"``): the announcements it writes are its
    own to show, and :meth:`undelivered` returns only those.

    Every call is bounded by ``timeouts``; one that finds the server not answering raises
    :class:`~engine.store.errors.DatabaseUnavailable`, and the log says so once per outage.
    """

    def __init__(
        self,
        url: str,
        *,
        origin: str = "main",
        min_size: int = 2,
        max_size: int = 10,
        timeouts: DatabaseTimeouts | None = None,
    ) -> None:
        self.url = url
        self.origin = origin
        self.timeouts = timeouts or DatabaseTimeouts()
        self.outage = OutageLog(masked(url))
        self._min_size = min_size
        self._max_size = max_size
        self._pool: Any = None
        self._lock_pool: Any = None

    @property
    def shared(self) -> bool:
        return True

    # -- for an operator (engine.store.health.StoreHealth) ---------------------------------

    @property
    def kind(self) -> str:
        return "postgres"

    @property
    def database_down(self) -> bool:
        return self.outage.down

    @property
    def disk_full(self) -> bool:
        return False  # the server's disk: watched on the server, not from here

    @property
    def connections_in_use(self) -> int:
        pool = self._pool
        return 0 if pool is None else int(pool.get_size() - pool.get_idle_size())

    async def ping(self) -> None:
        async with self._call() as call:
            await call.conn.fetchval("SELECT 1")

    # -- opening and closing -------------------------------------------------------------

    async def open(self) -> None:
        timeouts = self.timeouts
        pool = await create_pool(
            self.url, min_size=self._min_size, max_size=self._max_size, timeouts=timeouts
        )
        try:
            async with pool.acquire(timeout=timeouts.acquire_seconds) as conn:
                await migrate(conn, self.url)
            self._lock_pool = await create_pool(
                self.url, min_size=0, max_size=LOCK_POOL_SIZE, timeouts=timeouts
            )
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    async def close(self) -> None:
        # Closing a pool waits for the connections in use: writes under way commit first.
        pools, self._pool, self._lock_pool = (self._pool, self._lock_pool), None, None
        for pool in pools:
            if pool is not None:
                await pool.close()

    @contextlib.asynccontextmanager
    async def exclusive(self, key: str) -> AsyncIterator[None]:
        self._open_pool()
        async with self._call(self._lock_pool) as call:
            await execute(call.conn, _LOCK, {"key": key})
            try:
                yield
            finally:
                # A connection that fails here is dropped, which unlocks too.
                await execute(call.conn, _UNLOCK, {"key": key})

    async def identify_turn(self, bucket: int, spacing: float = IDENTIFY_SPACING_SECONDS) -> None:
        """The Gateway's IDENTIFY turn of `bucket`, shared with every process on this
        database (:class:`~engine.store.identify_gate.IdentifyGate`)."""
        self._open_pool()
        await take_identify_turn(self._lock_pool, bucket, spacing)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Any]:
        """A connection in a transaction, committed when the block ends; if no answer comes
        to the COMMIT, :class:`DatabaseUnavailable` says the outcome is unknown."""
        with storage_errors(self.url):
            async with self._call() as call:
                transaction = call.conn.transaction()
                await transaction.start()
                try:
                    yield call.conn
                except Exception as error:
                    if unavailable_reason(error) is None:  # else the connection is dropped
                        await transaction.rollback()
                    raise
                call.committing = True
                await transaction.commit()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """A connection for one write statement, which is its own transaction (so a lost
        answer leaves its outcome unknown)."""
        with storage_errors(self.url):
            async with self._call() as call:
                call.committing = True
                yield call.conn

    # -- writes --------------------------------------------------------------------------

    async def create_match(
        self, match: MatchInfo, announcements: Sequence[Announcement] = ()
    ) -> MatchInfo:
        async with self._transaction() as conn:
            row = await fetchrow(conn, matches.INSERT_MATCH, shared_sql.matches.match_params(match))
            await outbox.insert(conn, announcements, self.origin, row["id"])
        return replace(match, match_id=row["id"])

    async def start_match(
        self,
        match_id: int,
        *,
        seed: int,
        first_player: int,
        started_at: float,
        turn_deadline: float | None,
        announcements: Sequence[Announcement] = (),
        opponent_id: int | None = None,
        paused_until: float | None = None,
    ) -> None:
        params = shared_sql.matches.start_params(
            match_id, seed, first_player, started_at, turn_deadline, opponent_id, paused_until
        )
        async with self._transaction() as conn:
            await matches.expect(conn, match_id, MatchStatus.PENDING, None)
            await execute(conn, shared_sql.matches.START_MATCH, params)
            await outbox.insert(conn, announcements, self.origin)

    async def close_challenge(
        self,
        match_id: int,
        status: MatchStatus,
        at: float,
        announcements: Sequence[Announcement] = (),
    ) -> None:
        params = {"match_id": match_id, "status": str(status), "ended_at": at}
        async with self._transaction() as conn:
            await matches.expect(conn, match_id, MatchStatus.PENDING, None)
            await execute(conn, shared_sql.matches.CLOSE_CHALLENGE, params)
            await outbox.insert(conn, announcements, self.origin)

    async def append_decision(
        self, match_id: int, decision: DecisionRow, announcements: Sequence[Announcement] = ()
    ) -> None:
        async with self._transaction() as conn:
            await matches.expect(conn, match_id, MatchStatus.ACTIVE, decision.seq - 1)
            await matches.append_decision(conn, match_id, decision)
            await outbox.insert(conn, announcements, self.origin)

    async def finish_match(
        self,
        result: FinishedMatch,
        last_decision: DecisionRow | None,
        rate: Rater | None = None,
        announcements: Sequence[Announcement] = (),
        *,
        version: int,
    ) -> None:
        if last_decision is not None and last_decision.seq != version + 1:
            raise ValueError(
                f"the last decision of match {result.match_id} is seq {last_decision.seq},"
                f" not the one after the version seen ({version})"
            )
        match_id = result.match_id
        after = version if last_decision is None else last_decision.seq
        params = {"match_id": match_id, "version": after, "ended_at": result.finished_at}
        async with self._transaction() as conn:
            await matches.expect(conn, match_id, MatchStatus.ACTIVE, version)
            if last_decision is not None:
                await matches.insert_decision(conn, match_id, last_decision)
            await execute(conn, matches.FINISH_MATCH, params)
            await results.insert_result(conn, result)
            if rate is not None:
                await results.insert_ratings(conn, rate(await _standings_before(conn, result)))
            await outbox.insert(conn, announcements, self.origin)

    async def mark_broken(self, match_id: int, reason: str, at: float) -> None:
        params = {"match_id": match_id, "reason": reason, "ended_at": at}
        async with self._connection() as conn:
            await execute(conn, shared_sql.matches.MARK_BROKEN, params)

    async def abandon_match(self, match_id: int, status: MatchStatus, at: float) -> None:
        params = {"match_id": match_id, "ended_at": at}
        async with self._transaction() as conn:
            await matches.expect(conn, match_id, status, None)
            await execute(conn, shared_sql.matches.ABANDON_MATCH, params)

    async def set_reminded(
        self, match_id: int, version: int, announcements: Sequence[Announcement] = ()
    ) -> None:
        async with self._transaction() as conn:
            found = await matches.expect(conn, match_id, MatchStatus.ACTIVE, version)
            if found.reminded_version == version:
                expected = f"version {version} (active) not yet reminded"
                raise MatchConflict(match_id, expected, f"{found} reminded already")
            await execute(
                conn, shared_sql.matches.SET_REMINDED, {"match_id": match_id, "version": version}
            )
            await outbox.insert(conn, announcements, self.origin)

    async def claim(self, match_id: int, version: int, until: float, now: float) -> bool:
        async with self._connection() as conn:
            return await claims.claim(conn, match_id, version, until, now)

    async def claim_due(
        self, now: float, reminder_lead: float, until: float, limit: int
    ) -> list[int]:
        async with self._connection() as conn:
            return await claims.claim_due(conn, now, reminder_lead, until, limit)

    async def announced(self, delivered: Sequence[tuple[int | None, str]]) -> None:
        if delivered:
            async with self._transaction() as conn:
                await outbox.delete(conn, delivered)

    async def set_location(
        self, match_id: int, thread_id: int | None, board_message_id: int | None
    ) -> None:
        params = {
            "match_id": match_id,
            "thread_id": thread_id,
            "board_message_id": board_message_id,
        }
        async with self._connection() as conn:
            await execute(conn, shared_sql.matches.SET_LOCATION, params)

    async def set_challenge_message(self, match_id: int, message_id: int) -> None:
        params = {"match_id": match_id, "board_message_id": message_id}
        async with self._connection() as conn:
            await execute(conn, shared_sql.matches.SET_CHALLENGE_MESSAGE, params)

    async def press_rematch(self, match_id: int, user_id: int, at: float) -> None:
        params = {"match_id": match_id, "user_id": user_id, "pressed_at": at}
        async with self._connection() as conn:
            await execute(conn, rematches.PRESS, params)

    async def save_guild_settings(self, settings_: GuildSettings) -> None:
        async with self._connection() as conn:
            await settings.save_guild(conn, settings_)

    async def save_user_settings(self, settings_: UserSettings) -> None:
        async with self._connection() as conn:
            await settings.save_user(conn, settings_)

    async def save_review(self, match_id: int, body: str, at: float) -> None:
        async with self._connection() as conn:
            await reviews.save(conn, match_id, body, at)

    # -- seasons and alarms --------------------------------------------------------------

    async def season_podium_shown(self, guild_id: int, number: int) -> None:
        params = {"guild_id": guild_id, "number": number, "shown": True}
        async with self._connection() as conn:
            await execute(conn, shared_sql.seasons.PODIUM_SHOWN, params)

    async def claim_due_alarms(self, now: float, until: float, limit: int) -> list[Alarm]:
        params = {"now": now, "until": until, "limit": limit}
        async with self._connection() as conn:
            rows = await fetch(conn, _CLAIM_DUE_ALARMS, params)
        # RETURNING keeps no order: earliest due first again.
        due = [alarms.alarm_from_row(row) for row in rows]
        return sorted(due, key=lambda a: (a.due_at, a.kind, a.subject))

    # -- the hooks of the shared writes (AlarmRecords and those built on it) ---------------

    async def _write_all(self, statements: Sequence[Statement], what: str) -> None:
        try:
            async with self._transaction() as conn:
                for sql, params in statements:
                    await execute(conn, sql, params)
        except asyncpg.UniqueViolationError as error:
            raise DuplicateKey(what) from error

    async def _write_if(self, check: Statement, statements: Sequence[Statement]) -> bool:
        async with self._transaction() as conn:
            # FOR UPDATE: a second call waits for this one, then finds nothing.
            if await fetchrow(conn, check[0] + " FOR UPDATE", check[1]) is None:
                return False
            for sql, params in statements:
                await execute(conn, sql, params)
        return True

    async def _write_after_reading(
        self, first: Sequence[Statement], locks: Sequence[str], then: ReadThenWrite, what: str
    ) -> None:
        try:
            async with self._transaction() as conn:
                # ``first`` before the locks: a second write of the same key waits here for
                # the first one's commit, then fails, without holding a lock meanwhile.
                for sql, params in first:
                    await execute(conn, sql, params)
                for key in locks:  # held until the commit, as finish_match's ratings key
                    await execute(conn, _LOCK_UNTIL_COMMIT, {"key": key})

                async def fetch_one(sql: str, params: Mapping[str, Any]) -> Any:
                    return await fetchrow(conn, sql, params)

                for sql, params in await then(fetch_one):
                    await execute(conn, sql, params)
        except asyncpg.UniqueViolationError as error:
            raise DuplicateKey(what) from error

    def _announcement_inserts(self, announcements: Sequence[Announcement]) -> list[Statement]:
        return outbox.inserts(announcements, self.origin)

    async def _insert_tournament(
        self, params: dict[str, object], then: Callable[[int], list[Statement]]
    ) -> int:
        async with self._transaction() as conn:
            row = await fetchrow(conn, tournaments.INSERT_WITHOUT_ID + " RETURNING id", params)
            tournament_id = int(row["id"])
            for sql, statement_params in then(tournament_id):
                await execute(conn, sql, statement_params)
        return tournament_id


# Alarms another process is claiming right now are locked: SKIP LOCKED passes them by.
_CLAIM_DUE_ALARMS = (
    "WITH due AS ("
    f" SELECT kind, subject FROM alarms WHERE {alarms.DUE_WHERE}"
    " ORDER BY due_at, kind, subject LIMIT :limit FOR UPDATE SKIP LOCKED)"
    " UPDATE alarms a SET claimed_until = :until FROM due"
    " WHERE a.kind = due.kind AND a.subject = due.subject"
    " RETURNING a.kind AS kind, a.subject AS subject, a.due_at AS due_at, a.attempt AS attempt"
)


async def _standings_before(conn: Any, result: FinishedMatch) -> tuple[Standing, Standing]:
    """Both seats' standings, read under the guild's ratings key, which the transaction
    holds until it commits: the match endings of one server rate one after another, each
    waiting only as long as a commit (a key held across the pool's queue would make it
    wait for every other write)."""
    key = ratings_key(result.guild_id)
    await execute(conn, _LOCK_UNTIL_COMMIT, {"key": f"ratings:{key}"})
    found = []
    for user_id in result.players:
        params = {"guild_id": key, "user_id": user_id}
        row = await fetchrow(conn, shared_sql.results.SELECT_STANDING, params)
        found.append(
            Standing(key, user_id) if row is None else shared_sql.results.standing_from_row(row)
        )
    return found[0], found[1]
