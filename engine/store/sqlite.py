"""The embedded store: SQLite through aiosqlite, WAL mode, group commit.

One aiosqlite connection runs every statement on one thread, so writes are serialised
anyway. Rather than one transaction per decision, writes queue up while the previous
batch commits and then go out together in one transaction (group commit); each caller
is answered only after the commit that holds its write. A batch that fails is rolled
back and its writes retried one transaction each, so one bad write fails alone.

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
import functools
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiosqlite

from engine.ratings import (
    Glicko2Rating,
    LeaderboardPage,
    PlayerStats,
    RatedMatch,
    RatingChange,
    Standing,
)
from engine.rules.outcome import Termination
from engine.rules.state import Variant
from engine.store.errors import CorruptDatabase, SchemaTooNew, StoreError
from engine.store.migration_files import load_migrations
from engine.store.rows import (
    DecisionRow,
    ExpiryPolicy,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    Placement,
    UserSettings,
)

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]

_MAX_BATCH = 1000

_MATCH_COLUMNS = (
    "id, status, variant, player0_id, player1_id, ai_level, guild_id, channel_id, thread_id, "
    "board_message_id, turn_seconds, expiry_policy, created_at, challenge_expires_at, seed, "
    "first_player, started_at, turn_deadline, version, reminded_version, ended_at, broken_reason"
)
_RESULT_COLUMNS = (
    "match_id, guild_id, variant, player0_id, player1_id, ai_level, winner_seat, winner_id, "
    "reason, rounds, started_at, finished_at, record"
)
_DECISION_COLUMNS = "seq, seat, decision, decided_at, automatic, next_deadline"
_STANDING_COLUMNS = (
    "guild_id, user_id, rating, deviation, volatility, games, wins, losses, draws, streak,"
    " last_change, last_match_id, updated_at"
)
_CHANGE_COLUMNS = "match_id, seat, guild_id, user_id, score, before, after"

_INSERT_DECISION = (
    "INSERT INTO decisions (match_id, seq, seat, decision, decided_at, automatic, next_deadline)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(slots=True)
class _Write:
    statements: list[Statement]
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SqliteMatchStore:
    """:class:`~engine.store.match_store.MatchStore` on a SQLite file (or ``:memory:``)."""

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        check_integrity: bool = True,
        checkpoint_seconds: float = 1.0,
    ) -> None:
        self.path = str(path)
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        self._synchronous = synchronous.upper()
        self._check_integrity = check_integrity
        self._checkpoint_seconds = checkpoint_seconds
        self._checkpointer: asyncio.Task[None] | None = None
        self._conn: aiosqlite.Connection | None = None
        self._queue: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        """Held while a batch transaction is open, so reads never see half a batch."""
        self._next_id = 1
        self._closing = False
        self.batches = 0
        """How many transactions the writer committed (for benchmarks)."""

    # -- opening -------------------------------------------------------------------------

    async def open(self) -> None:
        migrations = load_migrations()
        latest = migrations[-1].version
        in_memory = self.path == ":memory:" or self.path.startswith("file::memory:")
        if not in_memory and _has_content(self.path):
            await self._preflight(latest)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA foreign_keys = ON")
            if not in_memory:
                await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute(f"PRAGMA synchronous = {self._synchronous}")
            version = await _user_version(conn)
            pending = [m for m in migrations if m.version > version]
            if pending:
                script = "\n".join(m.sql for m in pending)
                try:
                    await conn.executescript(
                        f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {latest};\nCOMMIT;"
                    )
                except sqlite3.Error:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
                log.info("database %s migrated from version %d to %d", self.path, version, latest)
            rows = await conn.execute_fetchall("SELECT COALESCE(MAX(id), 0) FROM matches")
            self._next_id = int(next(iter(rows))[0]) + 1
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        if not in_memory:
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
            self._checkpointer = asyncio.create_task(self._checkpoint_loop())

    async def _preflight(self, latest: int) -> None:
        """Refuse a newer or corrupt database through a read-only connection (changes nothing)."""
        uri = _read_only_uri(self.path)
        try:
            async with aiosqlite.connect(uri, uri=True) as conn:
                found = await _user_version(conn)
                if found > latest:
                    raise SchemaTooNew(self.path, found, latest)
                if self._check_integrity:
                    rows = list(await conn.execute_fetchall("PRAGMA quick_check"))
                    problems = [str(row[0]) for row in rows if row[0] != "ok"]
                    if problems:
                        raise CorruptDatabase(self.path, "; ".join(problems[:3]))
        except sqlite3.DatabaseError as error:
            raise CorruptDatabase(self.path, str(error)) from None

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            await asyncio.shield(self._writer)
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _checkpoint_loop(self) -> None:
        """Checkpoint the WAL now and then from a connection of its own (see module doc)."""
        async with aiosqlite.connect(self.path, isolation_level=None) as conn:
            await conn.execute("PRAGMA busy_timeout = 5000")
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

    # -- the writer ----------------------------------------------------------------------

    async def _write(self, statements: list[Statement]) -> None:
        """Queue statements as one atomic write; return once they are committed."""
        if self._conn is None or self._closing:
            raise StoreError(f"the store for {self.path!r} is not open")
        write = _Write(statements)
        self._queue.append(write)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        await write.done

    async def _write_loop(self) -> None:
        while self._queue:
            batch = self._queue[:_MAX_BATCH]
            del self._queue[:_MAX_BATCH]
            try:
                await self._commit(batch)
            except Exception:
                log.warning("a batch of %d writes failed; retrying one by one", len(batch))
                for write in batch:
                    try:
                        await self._commit([write])
                    except Exception as error:
                        _settle(write.done, error)
                    else:
                        _settle(write.done, None)
            else:
                for write in batch:
                    _settle(write.done, None)

    async def _commit(self, batch: list[_Write]) -> None:
        conn = self._connection()
        groups = _group(s for write in batch for s in write.statements)
        async with self._lock:
            if len(groups) == 1 and groups[0][0] == _INSERT_DECISION:
                # The usual batch is appends only. As one multi-row INSERT it is a single
                # statement, hence its own atomic transaction: one trip to the database
                # thread instead of three (BEGIN, INSERT, COMMIT).
                rows = groups[0][1]
                await conn.execute(_insert_decisions(len(rows)), [v for r in rows for v in r])
                self.batches += 1
                return
            await conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, rows in groups:
                    if len(rows) == 1:
                        await conn.execute(sql, rows[0])
                    else:
                        await conn.executemany(sql, rows)
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
        self.batches += 1

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError(f"the store for {self.path!r} is not open")
        return self._conn

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        conn = self._connection()
        async with self._lock:
            return list(await conn.execute_fetchall(sql, params))

    # -- writes --------------------------------------------------------------------------

    async def create_match(self, match: MatchInfo) -> MatchInfo:
        # Ids come from a counter, not the INSERT, so creation can join a group commit.
        match_id = self._next_id
        self._next_id += 1
        m = match
        await self._write(
            [
                (
                    f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES ({', '.join('?' * 22)})",
                    (
                        match_id,
                        str(m.status),
                        str(m.variant),
                        m.players[0],
                        m.players[1],
                        m.ai_level,
                        m.guild_id,
                        m.channel_id,
                        m.placement.thread_id,
                        m.placement.board_message_id,
                        m.turn_seconds,
                        str(m.expiry_policy),
                        m.created_at,
                        m.challenge_expires_at,
                        m.seed,
                        m.first_player,
                        m.started_at,
                        m.turn_deadline,
                        m.version,
                        m.reminded_version,
                        m.ended_at,
                        m.broken_reason,
                    ),
                )
            ]
        )
        return replace(match, match_id=match_id)

    async def start_match(
        self,
        match_id: int,
        *,
        seed: int,
        first_player: int,
        started_at: float,
        turn_deadline: float | None,
    ) -> None:
        await self._write(
            [
                (
                    "UPDATE matches SET status = 'active', seed = ?, first_player = ?,"
                    " started_at = ?, turn_deadline = ? WHERE id = ?",
                    (seed, first_player, started_at, turn_deadline, match_id),
                )
            ]
        )

    async def close_challenge(self, match_id: int, status: MatchStatus, at: float) -> None:
        await self._write(
            [
                (
                    "UPDATE matches SET status = ?, ended_at = ? WHERE id = ?",
                    (str(status), at, match_id),
                )
            ]
        )

    async def append_decision(self, match_id: int, decision: DecisionRow) -> None:
        await self._write([(_INSERT_DECISION, _decision_params(match_id, decision))])

    async def finish_match(
        self,
        result: FinishedMatch,
        last_decision: DecisionRow | None,
        rated: RatedMatch | None = None,
    ) -> None:
        r = result
        statements: list[Statement] = []
        if last_decision is not None:
            statements.append((_INSERT_DECISION, _decision_params(r.match_id, last_decision)))
        statements.append(
            (
                "UPDATE matches SET status = 'finished', ended_at = ?, turn_deadline = NULL"
                " WHERE id = ?",
                (r.finished_at, r.match_id),
            )
        )
        statements.append(
            (
                f"INSERT INTO results ({_RESULT_COLUMNS}, duration) VALUES ({', '.join('?' * 14)})",
                (
                    r.match_id,
                    r.guild_id,
                    str(r.variant),
                    r.players[0],
                    r.players[1],
                    r.ai_level,
                    r.winner_seat,
                    r.winner_id,
                    str(r.reason),
                    r.rounds,
                    r.started_at,
                    r.finished_at,
                    r.record,
                    r.duration_seconds,
                ),
            )
        )
        if rated is not None:
            statements += _rating_statements(rated)
        await self._write(statements)

    async def mark_broken(self, match_id: int, reason: str, at: float) -> None:
        await self._write(
            [
                (
                    "UPDATE matches SET status = 'broken', broken_reason = ?, ended_at = ?"
                    " WHERE id = ?",
                    (reason, at, match_id),
                )
            ]
        )

    async def set_reminded(self, match_id: int, version: int) -> None:
        await self._write(
            [("UPDATE matches SET reminded_version = ? WHERE id = ?", (version, match_id))]
        )

    async def set_location(
        self, match_id: int, thread_id: int | None, board_message_id: int | None
    ) -> None:
        await self._write(
            [
                (
                    "UPDATE matches SET thread_id = ?, board_message_id = ? WHERE id = ?",
                    (thread_id, board_message_id, match_id),
                )
            ]
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        s = settings
        policy = None if s.expiry_policy is None else str(s.expiry_policy)
        await self._write(
            [
                (
                    "INSERT OR REPLACE INTO guild_settings (guild_id, turn_seconds, expiry_policy,"
                    " thread_per_match, three_rounds_default, language) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        s.guild_id,
                        s.turn_seconds,
                        policy,
                        s.thread_per_match,
                        s.three_rounds_default,
                        s.language,
                    ),
                )
            ]
        )

    async def save_user_settings(self, settings: UserSettings) -> None:
        await self._write(
            [
                (
                    "INSERT OR REPLACE INTO user_settings (user_id, dm_notifications)"
                    " VALUES (?, ?)",
                    (settings.user_id, settings.dm_notifications),
                )
            ]
        )

    # -- reads ---------------------------------------------------------------------------

    async def open_matches(self) -> list[tuple[MatchInfo, list[DecisionRow]]]:
        matches = [
            _match(row)
            for row in await self._fetch(
                f"SELECT {_MATCH_COLUMNS} FROM matches"
                " WHERE status IN ('pending', 'active') ORDER BY id"
            )
        ]
        decisions: dict[int, list[DecisionRow]] = {m.match_id: [] for m in matches}
        for row in await self._fetch(
            f"SELECT d.match_id, {', '.join('d.' + c for c in _DECISION_COLUMNS.split(', '))}"
            " FROM decisions d JOIN matches m ON m.id = d.match_id"
            " WHERE m.status = 'active' ORDER BY d.match_id, d.seq"
        ):
            decisions[row[0]].append(_decision(row[1:]))
        return [(m, decisions[m.match_id]) for m in matches]

    async def get_match(self, match_id: int) -> MatchInfo | None:
        rows = await self._fetch(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return _match(rows[0]) if rows else None

    async def decisions(self, match_id: int) -> list[DecisionRow]:
        rows = await self._fetch(
            f"SELECT {_DECISION_COLUMNS} FROM decisions WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [_decision(row) for row in rows]

    async def finished_match(self, match_id: int) -> FinishedMatch | None:
        rows = await self._fetch(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE match_id = ?", (match_id,)
        )
        return _result(rows[0]) if rows else None

    async def finished_matches(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        before: float | None = None,
        limit: int = 20,
    ) -> list[FinishedMatch]:
        where: list[str] = []
        params: list[object] = []
        if user_id is not None:
            where.append("(player0_id = ? OR player1_id = ?)")
            params += [user_id, user_id]
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if before is not None:
            where.append("finished_at < ?")
            params.append(before)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await self._fetch(
            f"SELECT {_RESULT_COLUMNS} FROM results{clause}"
            " ORDER BY finished_at DESC, match_id DESC LIMIT ?",
            (*params, limit),
        )
        return [_result(row) for row in rows]

    async def standing(self, guild_id: int, user_id: int) -> Standing | None:
        rows = await self._fetch(
            f"SELECT {_STANDING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return _standing(rows[0]) if rows else None

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int, limit: int
    ) -> LeaderboardPage:
        # Ties in rating are broken by more games, then by user id, so pages never overlap.
        rows = await self._fetch(
            f"SELECT {_STANDING_COLUMNS} FROM ratings WHERE guild_id = ? AND games >= ?"
            " ORDER BY rating DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, min_games, limit, offset),
        )
        total = await self._fetch(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND games >= ?",
            (guild_id, min_games),
        )
        return LeaderboardPage(tuple(_standing(row) for row in rows), offset, int(total[0][0]))

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await self._fetch(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [
            RatingChange(
                match_id=row[0],
                seat=row[1],
                guild_id=row[2],
                user_id=row[3],
                score=row[4],
                before=row[5],
                after=row[6],
            )
            for row in rows
        ]

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        standing = await self.standing(guild_id, user_id) or Standing(guild_id, user_id)
        wins_by: dict[Termination, int] = {}
        losses_by: dict[Termination, int] = {}
        for score, reason, count in await self._fetch(
            "SELECT c.score, r.reason, COUNT(*) FROM rating_changes c"
            " JOIN results r ON r.match_id = c.match_id"
            " WHERE c.guild_id = ? AND c.user_id = ? AND c.score IN (0, 1)"
            " GROUP BY c.score, r.reason",
            (guild_id, user_id),
        ):
            (wins_by if score == 1 else losses_by)[Termination(reason)] = int(count)
        # The human always sits in seat 0 of a match against the AI.
        ai = await self._fetch(
            "SELECT COUNT(*), COALESCE(SUM(winner_seat = 0), 0) FROM results"
            " WHERE guild_id = ? AND player0_id = ? AND ai_level IS NOT NULL",
            (guild_id, user_id),
        )
        return PlayerStats(
            standing, wins_by, losses_by, ai_games=int(ai[0][0]), ai_wins=int(ai[0][1])
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        rows = await self._fetch(
            "SELECT turn_seconds, expiry_policy, thread_per_match, three_rounds_default, language"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return None
        turn, policy, thread, three, language = rows[0]
        return GuildSettings(
            guild_id,
            turn_seconds=turn,
            expiry_policy=None if policy is None else ExpiryPolicy(policy),
            thread_per_match=bool(thread),
            three_rounds_default=bool(three),
            language=language,
        )

    async def user_settings(self, user_id: int) -> UserSettings | None:
        rows = await self._fetch(
            "SELECT dm_notifications FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return UserSettings(user_id, dm_notifications=bool(rows[0][0])) if rows else None


def _rating_statements(rated: RatedMatch) -> list[Statement]:
    statements: list[Statement] = [
        (
            f"INSERT OR REPLACE INTO ratings ({_STANDING_COLUMNS}) VALUES ({', '.join('?' * 13)})",
            (
                s.guild_id,
                s.user_id,
                s.rating.rating,
                s.rating.deviation,
                s.rating.volatility,
                s.games,
                s.wins,
                s.losses,
                s.draws,
                s.streak,
                s.last_change,
                s.last_match_id,
                s.updated_at,
            ),
        )
        for s in rated.standings
    ]
    statements += [
        (
            f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES ({', '.join('?' * 7)})",
            (c.match_id, c.seat, c.guild_id, c.user_id, c.score, c.before, c.after),
        )
        for c in rated.changes
    ]
    return statements


def _standing(row: Sequence[Any]) -> Standing:
    (
        guild_id,
        user_id,
        rating,
        deviation,
        volatility,
        games,
        wins,
        losses,
        draws,
        streak,
        last_change,
        last_match_id,
        updated_at,
    ) = row
    return Standing(
        guild_id=guild_id,
        user_id=user_id,
        rating=Glicko2Rating(rating, deviation, volatility),
        games=games,
        wins=wins,
        losses=losses,
        draws=draws,
        streak=streak,
        last_change=last_change,
        last_match_id=last_match_id,
        updated_at=updated_at,
    )


def _has_content(path: str) -> bool:
    """An existing, non-empty file: a database to check before touching it."""
    file = Path(path)
    return file.exists() and file.stat().st_size > 0


def _read_only_uri(path: str) -> str:
    return Path(path).resolve().as_uri() + "?mode=ro"


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # the caller gave up waiting; the outcome stands anyway
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _group(statements: Iterable[Statement]) -> list[tuple[str, list[Sequence[Any]]]]:
    """Runs of the same SQL, so a batch of appends becomes one ``executemany``."""
    groups: list[tuple[str, list[Sequence[Any]]]] = []
    for sql, params in statements:
        if groups and groups[-1][0] == sql:
            groups[-1][1].append(params)
        else:
            groups.append((sql, [params]))
    return groups


@functools.lru_cache(maxsize=256)
def _insert_decisions(rows: int) -> str:
    values = "(?, ?, ?, ?, ?, ?, ?)"
    return _INSERT_DECISION.replace(values, ", ".join([values] * rows))


def _decision_params(match_id: int, d: DecisionRow) -> tuple[Any, ...]:
    return (match_id, d.seq, d.seat, d.decision, d.decided_at, d.automatic, d.next_deadline)


def _decision(row: Sequence[Any]) -> DecisionRow:
    seq, seat, decision, decided_at, automatic, next_deadline = row
    return DecisionRow(seq, seat, decision, decided_at, bool(automatic), next_deadline)


def _match(row: Sequence[Any]) -> MatchInfo:
    (
        match_id,
        status,
        variant,
        player0,
        player1,
        ai_level,
        guild_id,
        channel_id,
        thread_id,
        board_message_id,
        turn_seconds,
        expiry_policy,
        created_at,
        challenge_expires_at,
        seed,
        first_player,
        started_at,
        turn_deadline,
        version,
        reminded_version,
        ended_at,
        broken_reason,
    ) = row
    return MatchInfo(
        match_id=match_id,
        status=MatchStatus(status),
        variant=Variant(variant),
        players=(player0, player1),
        guild_id=guild_id,
        channel_id=channel_id,
        turn_seconds=turn_seconds,
        expiry_policy=ExpiryPolicy(expiry_policy),
        created_at=created_at,
        ai_level=ai_level,
        placement=Placement(thread_id, board_message_id),
        challenge_expires_at=challenge_expires_at,
        seed=seed,
        first_player=first_player,
        started_at=started_at,
        turn_deadline=turn_deadline,
        version=version,
        reminded_version=reminded_version,
        ended_at=ended_at,
        broken_reason=broken_reason,
    )


def _result(row: Sequence[Any]) -> FinishedMatch:
    (
        match_id,
        guild_id,
        variant,
        player0,
        player1,
        ai_level,
        winner_seat,
        winner_id,
        reason,
        rounds,
        started_at,
        finished_at,
        record,
    ) = row
    return FinishedMatch(
        match_id=match_id,
        guild_id=guild_id,
        variant=Variant(variant),
        players=(player0, player1),
        ai_level=ai_level,
        winner_seat=winner_seat,
        winner_id=winner_id,
        reason=Termination(reason),
        rounds=rounds,
        started_at=started_at,
        finished_at=finished_at,
        record=record,
    )
