"""The time controls' rows, alike in both stores (on the hooks of
:class:`~engine.store.shared_sql.alarm_records.AlarmRecords`): a turn's clock moved without
a decision, members' vacations, and their reliability."""

from __future__ import annotations

from collections.abc import Sequence

from engine.clocks import Vacation
from engine.ratings import Reliability
from engine.store.announcement import Announcement
from engine.store.errors import MatchConflict
from engine.store.shared_sql import results
from engine.store.shared_sql.alarm_records import AlarmRecords
from engine.store.shared_sql.matches import SET_TURN_CLOCK

_ACTIVE_AT = (
    "SELECT id FROM matches WHERE id = :match_id AND status = 'active' AND version = :version"
)
_VACATION_COLUMNS = "guild_id, user_id, starts_at, ends_at"
SELECT_VACATIONS = (
    f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE guild_id = :guild_id AND user_id = :user_id"
    " ORDER BY starts_at"
)
DELETE_VACATION = (
    "DELETE FROM vacations WHERE guild_id = :guild_id AND user_id = :user_id"
    " AND starts_at = :starts_at"
)
INSERT_VACATION = (
    f"INSERT INTO vacations ({_VACATION_COLUMNS})"
    " VALUES (:guild_id, :user_id, :starts_at, :ends_at)"
)


class ClockRecords(AlarmRecords):
    async def set_turn_clock(
        self,
        match_id: int,
        version: int,
        *,
        turn_deadline: float | None,
        overdue_since: float | None,
        paused_until: float | None,
        reminded_version: int | None,
        announcements: Sequence[Announcement] = (),
    ) -> None:
        params = {
            "match_id": match_id,
            "version": version,
            "turn_deadline": turn_deadline,
            "overdue_since": overdue_since,
            "paused_until": paused_until,
            "reminded_version": reminded_version,
        }
        check = (_ACTIVE_AT, {"match_id": match_id, "version": version})
        writes = [(SET_TURN_CLOCK, params), *self._announcement_inserts(announcements)]
        if not await self._write_if(check, writes):
            raise MatchConflict(match_id, f"version {version} (active)", "another state")

    async def save_vacation(self, guild_id: int, user_id: int, vacation: Vacation) -> None:
        params = {
            "guild_id": guild_id,
            "user_id": user_id,
            "starts_at": vacation.starts_at,
            "ends_at": vacation.ends_at,
        }
        await self._write_all([(DELETE_VACATION, params), (INSERT_VACATION, params)], "vacation")

    async def vacations(self, guild_id: int, user_id: int) -> list[Vacation]:
        rows = await self._fetch(SELECT_VACATIONS, {"guild_id": guild_id, "user_id": user_id})
        return [Vacation(row["starts_at"], row["ends_at"]) for row in rows]

    async def reliability(self, guild_id: int, user_id: int) -> Reliability:
        params = {"guild_id": guild_id, "user_id": user_id}
        row = await self._fetch_one(results.RELIABILITY, params)
        assert row is not None  # an aggregate always has its row
        return results.reliability_from_row(row)
