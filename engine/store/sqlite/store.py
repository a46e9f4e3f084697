"""The embedded store: SQLite through aiosqlite, WAL mode, group commit.

With WAL and ``synchronous=NORMAL`` a commit survives the process being killed; only an
OS crash or power cut can lose the last commits. Pass ``synchronous="FULL"`` to trade
throughput for that too.

Checkpoints (copying the WAL back into the database, with fsyncs) would otherwise run
inside whichever commit crosses the WAL size threshold and stall every caller waiting on
it; a second connection on its own thread runs them in the background instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import aiosqlite

from engine.model import (
    DecisionRow,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    UserSettings,
)
from engine.ratings import LeaderboardPage, PlayerStats, Standing, ratings_key
from engine.store import shared_sql
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.errors import DuplicateKey, MatchConflict, StoreError
from engine.store.match_store import Rater
from engine.store.outage import OutageLog
from engine.store.shared_sql import alarms, tournaments
from engine.store.shared_sql.clock_records import ClockRecords
from engine.store.shared_sql.daily_puzzle_records import DailyPuzzleRecords
from engine.store.shared_sql.puzzle_records import PuzzleRecords, ReadThenWrite
from engine.store.shared_sql.season_records import SeasonRecords
from engine.store.shared_sql.tournament_records import TournamentRecords
from engine.store.sqlite import announcements as outbox
from engine.store.sqlite import matches, rematches, results, reviews, settings
from engine.store.sqlite.connection import SYNCHRONOUS_MODES, connect_and_migrate, is_in_memory
from engine.store.sqlite.writer import GroupCommitWriter, Params, Prepare, Statement
from engine.store.timeouts import DatabaseTimeouts

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Held:
    """A key's lock and how many callers hold it or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class SqliteMatchStore(
    TournamentRecords, SeasonRecords, ClockRecords, PuzzleRecords, DailyPuzzleRecords
):
    """:class:`~engine.store.match_store.MatchStore` on a SQLite file (or ``:memory:``).

    A write waits at most ``timeouts.busy_seconds`` for a lock another connection holds,
    then fails with :class:`~engine.store.errors.DatabaseUnavailable`, writing nothing.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        check_integrity: bool = True,
        checkpoint_seconds: float = 1.0,
        timeouts: DatabaseTimeouts | None = None,
    ) -> None:
        self.path = str(path)
        self.timeouts = timeouts or DatabaseTimeouts()
        self.outage = OutageLog(self.path)
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        self._synchronous = synchronous.upper()
        self._check_integrity = check_integrity
        self._checkpoint_seconds = checkpoint_seconds
        self._checkpointer: asyncio.Task[None] | None = None
        self._checkpoints: aiosqlite.Connection | None = None
        self._conn: aiosqlite.Connection | None = None
        self._writer: GroupCommitWriter | None = None
        self._next_id = 1
        self._next_tournament_id: int | None = None
        self._closing = False
        self._held: dict[str, _Held] = {}

    @property
    def shared(self) -> bool:
        """Never: one process owns the file, so its memory is the authority."""
        return False

    @contextlib.asynccontextmanager
    async def exclusive(self, key: str) -> AsyncIterator[None]:
        """Hold ``key`` against the other tasks of this process (the only one there is)."""
        held = self._held.setdefault(key, _Held())
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if not held.users:  # forgotten once nobody holds or waits for it
                del self._held[key]

    # -- for an operator (engine.store.health.StoreHealth) ---------------------------------

    @property
    def kind(self) -> str:
        return "sqlite"

    @property
    def database_down(self) -> bool:
        return self.outage.down

    @property
    def disk_full(self) -> bool:
        return self._writer is not None and self._writer.disk_full

    @property
    def connections_in_use(self) -> int:
        return 0 if self._writer is None else int(self._writer.busy)

    async def ping(self) -> None:
        """An empty write transaction: it needs the write lock, which a database frozen by
        another connection (a backup, a script) refuses past the busy timeout."""
        await self._open_writer().write([])

    @property
    def _busy_milliseconds(self) -> int:
        return max(1, round(self.timeouts.busy_seconds * 1000))

    @property
    def batches(self) -> int:
        """How many transactions the writer committed (for benchmarks)."""
        return 0 if self._writer is None else self._writer.batches

    # -- opening and closing -------------------------------------------------------------

    async def open(self) -> None:
        conn = await connect_and_migrate(
            self.path,
            synchronous=self._synchronous,
            check_integrity=self._check_integrity,
            busy_seconds=self.timeouts.busy_seconds,
        )
        self._conn = conn
        self._writer = GroupCommitWriter(
            conn,
            fast_path=matches.appends_as_one_statement,
            last=frozenset({outbox.INSERT}),
            outage=self.outage,
        )
        # Ids come from a counter, not the INSERT, so creation can join a group commit.
        [row] = await self._fetch(matches.SELECT_MAX_ID)
        self._next_id = int(row["max_id"]) + 1
        if not is_in_memory(self.path):
            # Connected here, not in the task: a task cancelled while aiosqlite is still
            # connecting would leave that connection's thread to report to a closed loop
            # ("Event loop is closed", omnilib/aiosqlite#241) when the store closes at once.
            try:
                self._checkpoints = await aiosqlite.connect(self.path, isolation_level=None)
            except BaseException:
                await self.close()
                raise
            self._checkpointer = asyncio.create_task(self._checkpoint_loop(self._checkpoints))

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            await self._writer.drain()
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._checkpoints is not None:
            # Closed here even when the task never ran: the connection's thread ends now.
            await self._checkpoints.close()
            self._checkpoints = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _checkpoint_loop(self, conn: aiosqlite.Connection) -> None:
        """Checkpoint the WAL now and then from a connection of its own (see module doc)."""
        await conn.execute(f"PRAGMA busy_timeout = {self._busy_milliseconds}")
        done = self.batches
        while True:
            # Housekeeping, not game time: the real clock on purpose.
            await asyncio.sleep(self._checkpoint_seconds)
            if self.batches == done:
                continue
            done = self.batches
            try:
                await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                log.exception("background checkpoint of %s failed", self.path)

    def _open_writer(self) -> GroupCommitWriter:
        if self._writer is None or self._conn is None:
            raise StoreError(f"the store for {self.path!r} is not open")
        return self._writer

    async def _write(self, statements: list[Statement], prepare: Prepare | None = None) -> None:
        if self._closing:
            raise StoreError(f"the store for {self.path!r} is not open")
        await self._open_writer().write(statements, prepare)

    async def _write_expecting(
        self,
        expected: matches.Expected,
        statements: list[Statement],
        prepare: Prepare | None = None,
    ) -> None:
        """Write ``statements``, or raise MatchConflict if one of their checks fails.

        The checks' error cannot say what they found, so the match is read after it.
        """
        try:
            await self._write(statements, prepare)
        except sqlite3.IntegrityError as error:
            if not matches.is_conflict(error):
                raise
            match_id = expected.match_id
            rows = await self._fetch(matches.SELECT_STATE, {"match_id": match_id})
            found = expected.found(rows[0] if rows else None)
            raise MatchConflict(match_id, str(expected), found) from error

    async def _fetch(self, sql: str, params: Params | None = None) -> list[sqlite3.Row]:
        return await self._open_writer().fetch(sql, params)

    # -- writes --------------------------------------------------------------------------

    async def create_match(
        self, match: MatchInfo, announcements: Sequence[Announcement] = ()
    ) -> MatchInfo:
        match_id = self._next_id
        self._next_id += 1
        insert = (matches.INSERT_MATCH, matches.match_params(match_id, match))
        await self._write([insert, *outbox.inserts(announcements, match_id)])
        return replace(match, match_id=match_id)

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
        expected = matches.Expected(match_id, MatchStatus.PENDING)
        statements = [expected.check(), (shared_sql.matches.START_MATCH, params)]
        await self._write_expecting(expected, statements + outbox.inserts(announcements))

    async def close_challenge(
        self,
        match_id: int,
        status: MatchStatus,
        at: float,
        announcements: Sequence[Announcement] = (),
    ) -> None:
        params = {"match_id": match_id, "status": str(status), "ended_at": at}
        expected = matches.Expected(match_id, MatchStatus.PENDING)
        statements = [expected.check(), (shared_sql.matches.CLOSE_CHALLENGE, params)]
        await self._write_expecting(expected, statements + outbox.inserts(announcements))

    async def append_decision(
        self, match_id: int, decision: DecisionRow, announcements: Sequence[Announcement] = ()
    ) -> None:
        # The append checks itself (trigger decisions_in_order), so appends still batch
        # into one statement.
        expected = matches.Expected(match_id, MatchStatus.ACTIVE, version=decision.seq - 1)
        statements = [matches.append_decision(match_id, decision)]
        await self._write_expecting(expected, statements + outbox.inserts(announcements))

    async def finish_match(
        self,
        result: FinishedMatch,
        last_decision: DecisionRow | None,
        rate: Rater | None = None,
        announcements: Sequence[Announcement] = (),
        *,
        version: int,
    ) -> None:
        if rate is None:
            await self._finish(result, last_decision, None, announcements, version)
            return
        guild_id = ratings_key(result.guild_id)
        players = result.players

        async def rated(conn: aiosqlite.Connection) -> list[Statement]:
            # In the batch's transaction (the writer is the only writer and runs writes in
            # order): the standings include every earlier ending of the batch, and nothing
            # comes between this read and the write, so no lock is needed.
            before = (
                await results.standing_or_new(conn, guild_id, players[0]),
                await results.standing_or_new(conn, guild_id, players[1]),
            )
            return results.rating_statements(rate(before))

        await self._finish(result, last_decision, rated, announcements, version)

    async def _finish(
        self,
        result: FinishedMatch,
        last_decision: DecisionRow | None,
        rated: Prepare | None,
        announcements: Sequence[Announcement],
        version: int,
    ) -> None:
        match_id = result.match_id
        if last_decision is not None and last_decision.seq != version + 1:
            raise ValueError(
                f"the last decision of match {match_id} is number {last_decision.seq},"
                f" not the one after the version seen ({version})"
            )
        expected = matches.Expected(match_id, MatchStatus.ACTIVE, version=version)
        statements = [expected.check()]
        if last_decision is not None:
            statements.append(matches.append_decision(match_id, last_decision))
        ended = {"match_id": result.match_id, "ended_at": result.finished_at}
        statements.append((matches.FINISH_MATCH, ended))
        statements.append(results.insert_result(result))
        await self._write_expecting(expected, statements + outbox.inserts(announcements), rated)

    async def mark_broken(self, match_id: int, reason: str, at: float) -> None:
        params = {"match_id": match_id, "reason": reason, "ended_at": at}
        await self._write([(shared_sql.matches.MARK_BROKEN, params)])

    async def abandon_match(self, match_id: int, status: MatchStatus, at: float) -> None:
        expected = matches.Expected(match_id, status)
        params = {"match_id": match_id, "ended_at": at}
        await self._write_expecting(
            expected, [expected.check(), (shared_sql.matches.ABANDON_MATCH, params)]
        )

    async def set_reminded(
        self, match_id: int, version: int, announcements: Sequence[Announcement] = ()
    ) -> None:
        params = {"match_id": match_id, "version": version}
        expected = matches.Expected(match_id, MatchStatus.ACTIVE, version=version, unreminded=True)
        statements = [expected.check(), (shared_sql.matches.SET_REMINDED, params)]
        await self._write_expecting(expected, statements + outbox.inserts(announcements))

    async def claim(self, match_id: int, version: int, until: float, now: float) -> bool:
        return await self._claim(match_id, MatchStatus.ACTIVE, version, until, now)

    async def claim_due(
        self, now: float, reminder_lead: float, until: float, limit: int
    ) -> list[int]:
        params = {"now": now, "reminder_lead": reminder_lead, "limit": limit}
        due = await self._fetch(matches.SELECT_DUE, params)
        # Each claim checks the match again, as its own write (they share a commit): one
        # moved on since the read is left out, and does not fail the others.
        claimed = await asyncio.gather(
            *(
                self._claim(row["id"], MatchStatus(row["status"]), row["version"], until, now)
                for row in due
            )
        )
        return [row["id"] for row, taken in zip(due, claimed, strict=True) if taken]

    async def _claim(
        self, match_id: int, status: MatchStatus, version: int, until: float, now: float
    ) -> bool:
        """Claim the match if it is still ``status`` at ``version`` and unclaimed at ``now``."""
        unclaimed = matches.Expected(match_id, status, version=version, free_at=now)
        claim = (matches.CLAIM, {"match_id": match_id, "until": until})
        try:
            await self._write([unclaimed.check(), claim])
        except sqlite3.IntegrityError as error:
            if not matches.is_conflict(error):
                raise
            return False
        return True

    async def announced(self, delivered: Sequence[tuple[int | None, str]]) -> None:
        if delivered:
            await self._write(outbox.deletes(delivered))

    async def set_location(
        self, match_id: int, thread_id: int | None, board_message_id: int | None
    ) -> None:
        params = {
            "match_id": match_id,
            "thread_id": thread_id,
            "board_message_id": board_message_id,
        }
        await self._write([(shared_sql.matches.SET_LOCATION, params)])

    async def set_challenge_message(self, match_id: int, message_id: int) -> None:
        params = {"match_id": match_id, "board_message_id": message_id}
        await self._write([(shared_sql.matches.SET_CHALLENGE_MESSAGE, params)])

    async def press_rematch(self, match_id: int, user_id: int, at: float) -> None:
        params = {"match_id": match_id, "user_id": user_id, "pressed_at": at}
        await self._write([(rematches.PRESS, params)])

    async def save_guild_settings(self, settings_: GuildSettings) -> None:
        await self._write([settings.save_guild(settings_)])

    async def save_user_settings(self, settings_: UserSettings) -> None:
        await self._write([settings.save_user(settings_)])

    async def save_review(self, match_id: int, body: str, at: float) -> None:
        await self._write([reviews.save(match_id, body, at)])

    # -- seasons and alarms (the writer is the only writer: a read then a write is not raced)

    async def season_podium_shown(self, guild_id: int, number: int) -> None:
        params = {"guild_id": guild_id, "number": number, "shown": True}
        await self._write([(shared_sql.seasons.PODIUM_SHOWN, params)])

    async def claim_due_alarms(self, now: float, until: float, limit: int) -> list[Alarm]:
        due: list[Alarm] = []

        async def claim(conn: aiosqlite.Connection) -> list[Statement]:
            # In the write's own transaction: no other claim comes between the read and it.
            nonlocal due
            params = {"now": now, "limit": limit}
            async with conn.execute(alarms.SELECT_DUE, params) as cursor:
                due = [alarms.alarm_from_row(row) for row in await cursor.fetchall()]
            return [(alarms.CLAIM, {**alarms.key_params(a.key), "until": until}) for a in due]

        await self._write([], claim)
        return due

    # -- the hooks of the shared writes (AlarmRecords and those built on it) ---------------

    async def _write_all(self, statements: Sequence[Statement], what: str) -> None:
        try:
            await self._write(list(statements))
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error):
                raise
            raise DuplicateKey(what) from error

    async def _write_if(self, check: Statement, statements: Sequence[Statement]) -> bool:
        found = False

        async def prepare(conn: aiosqlite.Connection) -> list[Statement]:
            # In the write's own transaction: nothing commits between the check and them.
            nonlocal found
            async with conn.execute(*check) as cursor:
                found = await cursor.fetchone() is not None
            return list(statements) if found else []

        await self._write([], prepare)
        return found

    async def _write_after_reading(
        self, first: Sequence[Statement], locks: Sequence[str], then: ReadThenWrite, what: str
    ) -> None:
        # No lock: the writer is the only writer, and ``then`` reads in the write's own
        # transaction, after every earlier write of the batch (see finish_match).
        async def prepare(conn: aiosqlite.Connection) -> list[Statement]:
            async def fetch_one(sql: str, params: Params) -> sqlite3.Row | None:
                async with conn.execute(sql, params) as cursor:
                    row: sqlite3.Row | None = await cursor.fetchone()
                    return row

            return await then(fetch_one)

        try:
            await self._write(list(first), prepare)
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error):
                raise
            raise DuplicateKey(what) from error

    def _announcement_inserts(self, announcements: Sequence[Announcement]) -> list[Statement]:
        return outbox.inserts(announcements)

    async def _insert_tournament(
        self, params: dict[str, object], then: Callable[[int], list[Statement]]
    ) -> int:
        # One process owns the file: ids from a counter, as for matches.
        async with self.exclusive("tournament-ids"):
            if self._next_tournament_id is None:
                [row] = await self._fetch(tournaments.SELECT_MAX_ID)
                self._next_tournament_id = int(row["max_id"]) + 1
            tournament_id = self._next_tournament_id
            self._next_tournament_id += 1
        insert = (tournaments.INSERT_TOURNAMENT, {**params, "id": tournament_id})
        await self._write([insert, *then(tournament_id)])
        return tournament_id

    # -- reads (those of one query come from OneQueryReads) -------------------------------

    async def open_matches(self) -> list[tuple[MatchInfo, list[DecisionRow]]]:
        match_rows, decision_rows = await self._open_writer().fetch_together(
            [
                (shared_sql.matches.SELECT_OPEN_MATCHES, {}),
                (shared_sql.matches.SELECT_OPEN_DECISIONS, {}),
            ]
        )
        return shared_sql.matches.with_decisions(match_rows, decision_rows)

    async def undelivered(self, match_id: int | None = None) -> list[Announcement]:
        if match_id is None:
            rows = await self._fetch(outbox.SELECT_UNDELIVERED)
        else:
            rows = await self._fetch(outbox.SELECT_UNDELIVERED_OF_MATCH, {"match_id": match_id})
        return [outbox.from_row(row) for row in rows]

    async def match_since(
        self, match_id: int, version: int
    ) -> tuple[MatchInfo, list[DecisionRow]] | None:
        params = {"match_id": match_id, "version": version}
        match_rows, decision_rows = await self._open_writer().fetch_together(
            [
                (shared_sql.matches.SELECT_MATCH, params),
                (shared_sql.matches.SELECT_DECISIONS_SINCE, params),
            ]
        )
        if not match_rows:
            return None
        decisions = [shared_sql.matches.decision_from_row(row) for row in decision_rows]
        return shared_sql.matches.match_from_row(match_rows[0]), decisions

    async def open_matches_of(self, user_id: int) -> list[MatchInfo]:
        rows = await self._fetch(matches.SELECT_OF_PLAYER, {"user_id": user_id})
        return [shared_sql.matches.match_from_row(row) for row in rows]

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> LeaderboardPage:
        params = {"guild_id": guild_id, "min_games": min_games, "offset": offset, "limit": limit}
        rows = await self._fetch(shared_sql.results.SELECT_LEADERBOARD, params)
        [total] = await self._fetch(shared_sql.results.COUNT_LEADERBOARD, params)
        return shared_sql.results.leaderboard_page(rows, offset, total)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        standing = await self.standing(guild_id, user_id) or Standing(guild_id, user_id)
        params = {"guild_id": guild_id, "user_id": user_id}
        record = await self._fetch(shared_sql.results.RATED_RECORD, params)
        [ai] = await self._fetch(results.AI_RECORD, params)
        [reliability] = await self._fetch(shared_sql.results.RELIABILITY, params)
        return shared_sql.results.player_stats(standing, record, ai, reliability)
