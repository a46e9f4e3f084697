"""The season writes of both stores, alike in each, on the hooks of :class:`AlarmRecords`.
(The season reads are one query each: :class:`~engine.store.shared_sql.reads.OneQueryReads`.)"""

from __future__ import annotations

from collections.abc import Sequence

from engine.seasons import Season, SeasonStanding
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.shared_sql import seasons as sql
from engine.store.shared_sql.alarm_records import AlarmRecords
from engine.store.shared_sql.sql import Statement


class SeasonRecords(AlarmRecords):
    """The season writes of :class:`~engine.store.match_store.MatchStore`."""

    async def start_season(
        self,
        season: Season,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        statements: list[Statement] = [(sql.INSERT_SEASON, sql.season_params(season))]
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        what = f"season {season.number} or a running season of server {season.guild_id}"
        await self._write_all(statements, what)

    async def set_season_end(
        self,
        season: Season,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        params = sql.season_params(season)
        statements: list[Statement] = [(sql.SET_END, params)]
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        await self._write_if((sql.SELECT_STILL_RUNNING, params), statements)

    async def end_season(
        self,
        season: Season,
        ranking: Sequence[SeasonStanding],
        next_season: Season | None,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        params = sql.end_params(season)
        statements: list[Statement] = [(sql.END_SEASON, params)]
        statements += [(sql.INSERT_STANDING, p) for p in sql.ranked_params(season, ranking)]
        if next_season is not None:
            statements.append((sql.INSERT_SEASON, sql.season_params(next_season)))
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        await self._write_if((sql.SELECT_STILL_RUNNING, params), statements)
