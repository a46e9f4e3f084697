"""The puzzles' rows, alike in both stores, on the hooks of
:class:`~engine.store.shared_sql.alarm_records.AlarmRecords` and one more: how a write reads
in its own transaction what it then writes (``_write_after_reading``), which an attempt
needs to rate the member and the puzzle from what they were just before it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle, StreakRun
from engine.store.match_store import AttemptRater, StandingChange
from engine.store.shared_sql import puzzles as sql
from engine.store.shared_sql.alarm_records import AlarmRecords
from engine.store.shared_sql.sql import Row, Statement

FetchOne = Callable[[str, Mapping[str, Any]], Awaitable[Row | None]]
"""A query run in the write's own transaction -> its first row, or None."""
ReadThenWrite = Callable[[FetchOne], Awaitable[list[Statement]]]
"""Reads (only reads) through the given query -> the statements that end the write."""


def _member_lock(guild_id: int, user_id: int) -> str:
    """The key an attempt or a standing's change holds first (then the puzzle's)."""
    return f"puzzles:{guild_id}:{user_id}"


class PuzzleRecords(AlarmRecords):
    """The puzzle half of :class:`~engine.store.match_store.MatchStore`, over the store hooks."""

    async def _write_after_reading(
        self, first: Sequence[Statement], locks: Sequence[str], then: ReadThenWrite, what: str
    ) -> None:
        """Commit ``first`` and the statements ``then`` returns as one transaction, ``then``
        reading in it while holding ``locks`` until the commit (no other write of those
        keys comes between its reads and the commit). :class:`DuplicateKey` (naming
        ``what``) if a statement breaks a unique key, and whatever ``then`` raises: either
        way nothing is written."""
        raise NotImplementedError

    # -- writes --------------------------------------------------------------------------

    async def save_puzzles(self, puzzles: Sequence[StoredPuzzle]) -> None:
        if puzzles:
            inserts = [(sql.INSERT_PUZZLE, sql.puzzle_params(p)) for p in puzzles]
            await self._write_all(inserts, "puzzles")

    async def record_attempt(self, attempt: PuzzleAttempt, rate: AttemptRater) -> PuzzleStanding:
        member = {"guild_id": attempt.guild_id, "user_id": attempt.user_id}
        after: PuzzleStanding | None = None

        async def rated(fetch_one: FetchOne) -> list[Statement]:
            nonlocal after
            puzzle = await fetch_one(sql.SELECT_PUZZLE, {"key": attempt.key})
            if puzzle is None:
                raise KeyError(f"no puzzle {attempt.key!r}")
            row = await fetch_one(sql.SELECT_STANDING, member)
            before = (
                PuzzleStanding(attempt.guild_id, attempt.user_id)
                if row is None
                else sql.standing_from_row(row)
            )
            after, rating = rate(before, sql.puzzle_from_row(puzzle).rating)
            return [
                (sql.UPSERT_STANDING, sql.standing_params(after)),
                (sql.RATE_PUZZLE, sql.rated_params(attempt, rating)),
            ]

        # The member's key first, then the puzzle's: every attempt takes them in that order.
        locks = (_member_lock(attempt.guild_id, attempt.user_id), f"puzzle:{attempt.key}")
        what = f"attempt of member {attempt.user_id} at puzzle {attempt.key!r}"
        insert = (sql.INSERT_ATTEMPT, sql.attempt_params(attempt))
        await self._write_after_reading([insert], locks, rated, what)
        assert after is not None  # set by the committed write
        return after

    async def change_standing(
        self, guild_id: int, user_id: int, change: StandingChange
    ) -> PuzzleStanding:
        member = {"guild_id": guild_id, "user_id": user_id}
        after: PuzzleStanding | None = None

        async def changed(fetch_one: FetchOne) -> list[Statement]:
            nonlocal after
            row = await fetch_one(sql.SELECT_STANDING, member)
            before = (
                PuzzleStanding(guild_id, user_id) if row is None else sql.standing_from_row(row)
            )
            after = change(before)
            return [(sql.UPSERT_STANDING, sql.standing_params(after))]

        what = f"puzzle standing of member {user_id}"
        await self._write_after_reading([], (_member_lock(guild_id, user_id),), changed, what)
        assert after is not None  # set by the committed write
        return after

    # -- reads ---------------------------------------------------------------------------

    async def puzzle(self, key: str) -> StoredPuzzle | None:
        row = await self._fetch_one(sql.SELECT_PUZZLE, {"key": key})
        return None if row is None else sql.puzzle_from_row(row)

    async def puzzle_candidates(
        self, guild_id: int, user_id: int, around: float, limit: int
    ) -> list[StoredPuzzle]:
        params = {"guild_id": guild_id, "user_id": user_id, "around": around, "limit": limit}
        return [
            sql.puzzle_from_row(row) for row in await self._fetch(sql.SELECT_CANDIDATES, params)
        ]

    async def puzzle_ladder(
        self, guild_id: int, user_id: int, after: StreakRun | None, limit: int
    ) -> list[StoredPuzzle]:
        params: dict[str, Any] = {"guild_id": guild_id, "user_id": user_id, "limit": limit}
        query = sql.SELECT_LADDER_START
        if after is not None:
            query = sql.SELECT_LADDER_AFTER
            params |= {"rating": after.rating, "ease": after.ease, "key": after.key}
        return [sql.puzzle_from_row(row) for row in await self._fetch(query, params)]

    async def puzzle_standing(self, guild_id: int, user_id: int) -> PuzzleStanding | None:
        params = {"guild_id": guild_id, "user_id": user_id}
        row = await self._fetch_one(sql.SELECT_STANDING, params)
        return None if row is None else sql.standing_from_row(row)

    async def puzzle_leaderboard(
        self, guild_id: int, *, offset: int, limit: int
    ) -> list[PuzzleStanding]:
        params = {"guild_id": guild_id, "offset": offset, "limit": limit}
        rows = await self._fetch(sql.SELECT_LEADERBOARD, params)
        return [sql.standing_from_row(row) for row in rows]
