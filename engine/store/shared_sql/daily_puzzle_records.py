"""The daily puzzle's rows, alike in both stores, on the hooks of
:class:`~engine.store.shared_sql.alarm_records.AlarmRecords`: a day's puzzle is recorded
with its announcement and the next day's alarm in one commit."""

from __future__ import annotations

from collections.abc import Sequence

from engine.model.daily_puzzle import DailyPuzzle
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.errors import DuplicateKey
from engine.store.shared_sql import daily_puzzles as sql
from engine.store.shared_sql.alarm_records import AlarmRecords
from engine.store.shared_sql.sql import Statement


class DailyPuzzleRecords(AlarmRecords):
    """The daily puzzle's part of :class:`~engine.store.match_store.MatchStore`."""

    async def record_daily_puzzle(
        self,
        daily: DailyPuzzle,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
    ) -> bool:
        statements: list[Statement] = [(sql.INSERT_DAILY, sql.daily_params(daily))]
        statements += self._outbox_and_alarms(announcements, alarms, ())
        try:
            await self._write_all(statements, f"daily puzzle of {daily.guild_id} on {daily.day}")
        except DuplicateKey:
            return False
        return True

    async def daily_puzzle(self, guild_id: int, day: int) -> DailyPuzzle | None:
        row = await self._fetch_one(sql.SELECT_DAILY, {"guild_id": guild_id, "day": day})
        return None if row is None else sql.daily_from_row(row)

    async def recent_daily_puzzles(self, guild_id: int, since_day: int) -> list[DailyPuzzle]:
        rows = await self._fetch(sql.SELECT_RECENT, {"guild_id": guild_id, "since": since_day})
        return [sql.daily_from_row(row) for row in rows]

    async def puzzle_keys(self, guild_id: int) -> list[str]:
        return [row["key"] for row in await self._fetch(sql.SELECT_KEYS, {"guild_id": guild_id})]

    async def puzzle_solvers(
        self, guild_id: int, key: str, since: float, limit: int
    ) -> tuple[list[int], int]:
        params = {"guild_id": guild_id, "key": key, "solved": True, "since": since}
        rows = await self._fetch(sql.SELECT_SOLVERS, {**params, "limit": limit})
        return [row["user_id"] for row in rows], (rows[0]["total"] if rows else 0)
