"""The reads that are one query each, alike in both stores: a store supplies only how a
query runs (:meth:`OneQueryReads._fetch`). Reads of several queries that must see one
state of the database stay with each store, which alone knows how to get that."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.model import (
    DecisionRow,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    UserSettings,
)
from engine.ratings import RatingChange, Standing
from engine.seasons import BestSeason, Season, SeasonResult, SeasonStanding
from engine.store.shared_sql import matches, rematches, results, reviews, seasons, settings
from engine.store.shared_sql.sql import Row


class OneQueryReads:
    """The one-query reads of the ``MatchStore`` protocol."""

    async def _fetch(self, sql: str, params: Mapping[str, Any] | None = None) -> Sequence[Row]:
        """The rows of a query."""
        raise NotImplementedError

    async def _fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row of a query, or None."""
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def get_match(self, match_id: int) -> MatchInfo | None:
        row = await self._fetch_one(matches.SELECT_MATCH, {"match_id": match_id})
        return None if row is None else matches.match_from_row(row)

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        row = await self._fetch_one(matches.SELECT_IN_THREAD, {"thread_id": thread_id})
        return None if row is None else matches.match_from_row(row)

    async def open_matches_in(self, guild_id: int, channel_id: int | None) -> list[MatchInfo]:
        if channel_id is None:
            rows = await self._fetch(matches.SELECT_OPEN_IN_GUILD, {"guild_id": guild_id})
        else:
            params = {"guild_id": guild_id, "channel_id": channel_id}
            rows = await self._fetch(matches.SELECT_OPEN_IN_CHANNEL, params)
        return [matches.match_from_row(row) for row in rows]

    async def waiting_seats_in(
        self, guild_id: int, now: float, *, offset: int, limit: int
    ) -> tuple[list[MatchInfo], int]:
        params = {"guild_id": guild_id, "now": now, "offset": offset, "limit": limit}
        rows = await self._fetch(matches.SELECT_WAITING_SEATS, params)
        total = await self._fetch_one(matches.COUNT_WAITING_SEATS, params)
        seats = [matches.match_from_row(row) for row in rows]
        return seats, 0 if total is None else int(total["total"])

    async def match_of_thread(self, thread_id: int) -> MatchInfo | None:
        row = await self._fetch_one(matches.SELECT_OF_THREAD, {"thread_id": thread_id})
        return None if row is None else matches.match_from_row(row)

    async def decisions(self, match_id: int) -> list[DecisionRow]:
        rows = await self._fetch(matches.SELECT_DECISIONS, {"match_id": match_id})
        return [matches.decision_from_row(row) for row in rows]

    async def rematch_presses(self, match_id: int) -> frozenset[int]:
        rows = await self._fetch(rematches.SELECT_PRESSES, {"match_id": match_id})
        return frozenset(row["user_id"] for row in rows)

    async def rematches_of(self, match_id: int) -> list[MatchInfo]:
        rows = await self._fetch(matches.SELECT_REMATCHES, {"match_id": match_id})
        return [matches.match_from_row(row) for row in rows]

    async def matches_started_by(self, user_id: int, since: float) -> list[MatchInfo]:
        params = {"user_id": user_id, "since": since}
        rows = await self._fetch(matches.SELECT_STARTED_BY, params)
        return [matches.match_from_row(row) for row in rows]

    async def finished_match(self, match_id: int) -> FinishedMatch | None:
        row = await self._fetch_one(results.SELECT_RESULT, {"match_id": match_id})
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
        return [results.result_from_row(row) for row in await self._fetch(sql, params)]

    async def standing(self, guild_id: int, user_id: int) -> Standing | None:
        params = {"guild_id": guild_id, "user_id": user_id}
        row = await self._fetch_one(results.SELECT_STANDING, params)
        return None if row is None else results.standing_from_row(row)

    async def rating_changes(self, match_id: int) -> list[RatingChange]:
        rows = await self._fetch(results.SELECT_CHANGES, {"match_id": match_id})
        return [results.change_from_row(row) for row in rows]

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._fetch_one(settings.SELECT_GUILD, {"guild_id": guild_id})
        return None if row is None else settings.guild_from_row(row)

    async def user_settings(self, user_id: int) -> UserSettings | None:
        row = await self._fetch_one(settings.SELECT_USER, {"user_id": user_id})
        return None if row is None else settings.user_from_row(row)

    async def review_of(self, match_id: int) -> str | None:
        row = await self._fetch_one(reviews.SELECT_REVIEW, {"match_id": match_id})
        return None if row is None else str(row["body"])

    # -- seasons -------------------------------------------------------------------------

    async def running_season(self, guild_id: int) -> Season | None:
        row = await self._fetch_one(seasons.SELECT_RUNNING, {"guild_id": guild_id})
        return None if row is None else seasons.season_from_row(row)

    async def season(self, guild_id: int, number: int) -> Season | None:
        params = {"guild_id": guild_id, "number": number}
        row = await self._fetch_one(seasons.SELECT_SEASON, params)
        return None if row is None else seasons.season_from_row(row)

    async def seasons_of(self, guild_id: int, limit: int) -> list[Season]:
        rows = await self._fetch(seasons.SELECT_SEASONS, {"guild_id": guild_id, "limit": limit})
        return [seasons.season_from_row(row) for row in rows]

    async def season_results(self, guild_id: int, since: float, until: float) -> list[SeasonResult]:
        params = {"guild_id": guild_id, "since": since, "until": until}
        rows = await self._fetch(seasons.SELECT_RESULTS, params)
        return [seasons.result_from_row(row) for row in rows]

    async def count_season_results(self, guild_id: int, since: float, until: float) -> int:
        params = {"guild_id": guild_id, "since": since, "until": until}
        row = await self._fetch_one(seasons.COUNT_RESULTS, params)
        return 0 if row is None else int(row["total"])

    async def season_ranking(
        self, guild_id: int, number: int, *, offset: int, limit: int
    ) -> tuple[list[SeasonStanding], int]:
        params = {"guild_id": guild_id, "number": number, "offset": offset, "limit": limit}
        rows = await self._fetch(seasons.SELECT_PAGE, params)
        total = await self._fetch_one(seasons.COUNT_RANKED, params)
        return [seasons.standing_from_row(row) for row in rows], (
            0 if total is None else int(total["total"])
        )

    async def best_season(self, guild_id: int, user_id: int) -> BestSeason | None:
        params = {"guild_id": guild_id, "user_id": user_id}
        row = await self._fetch_one(seasons.SELECT_BEST, params)
        return None if row is None else seasons.best_from_row(row)
