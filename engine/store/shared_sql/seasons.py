"""The ``seasons`` and ``season_standings`` tables, and the rated results a season counts:
columns, the SQL both stores run alike, and the conversions to and from seasons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ratings import Glicko2Rating
from engine.seasons import BestSeason, Season, SeasonLength, SeasonResult, SeasonStanding
from engine.store.shared_sql.sql import Row, insert, select

SEASON_COLUMNS = (
    "guild_id",
    "number",
    "length",
    "started_at",
    "ends_at",
    "ended_at",
    "podium_shown",
)
STANDING_COLUMNS = (
    "guild_id",
    "number",
    "rank",
    "user_id",
    "rating",
    "deviation",
    "volatility",
    "games",
    "wins",
    "losses",
    "draws",
)

_SELECT_SEASON = select("seasons", SEASON_COLUMNS)
SELECT_RUNNING = f"{_SELECT_SEASON} WHERE guild_id = :guild_id AND ended_at IS NULL"
SELECT_SEASON = f"{_SELECT_SEASON} WHERE guild_id = :guild_id AND number = :number"
SELECT_SEASONS = f"{_SELECT_SEASON} WHERE guild_id = :guild_id ORDER BY number DESC LIMIT :limit"
INSERT_SEASON = insert("seasons", SEASON_COLUMNS)
SET_END = (
    "UPDATE seasons SET ends_at = :ends_at, length = :length"
    " WHERE guild_id = :guild_id AND number = :number AND ended_at IS NULL"
)
END_SEASON = (
    "UPDATE seasons SET ended_at = :ended_at"
    " WHERE guild_id = :guild_id AND number = :number AND ended_at IS NULL"
)
# What a change to a running season checks first (the season may have ended meanwhile).
SELECT_STILL_RUNNING = (
    "SELECT number FROM seasons"
    " WHERE guild_id = :guild_id AND number = :number AND ended_at IS NULL"
)
PODIUM_SHOWN = (
    "UPDATE seasons SET podium_shown = :shown WHERE guild_id = :guild_id AND number = :number"
)
INSERT_STANDING = insert("season_standings", STANDING_COLUMNS)

# A season's rated matches: rated ones alone have rating changes. Read in the order they
# are counted; the (guild_id, finished_at) index of results serves it.
SELECT_RESULTS = (
    "SELECT r.match_id AS match_id, r.player0_id AS player0_id, r.player1_id AS player1_id,"
    " r.winner_seat AS winner_seat, r.finished_at AS finished_at FROM results r"
    " WHERE r.guild_id = :guild_id AND r.finished_at >= :since AND r.finished_at < :until"
    " AND EXISTS (SELECT 1 FROM rating_changes c WHERE c.match_id = r.match_id AND c.seat = 0)"
    " ORDER BY r.finished_at, r.match_id"
)

# How many there are up to a time: a running season's table checks it counted them all.
COUNT_RESULTS = (
    "SELECT COUNT(*) AS total FROM results r"
    " WHERE r.guild_id = :guild_id AND r.finished_at >= :since AND r.finished_at <= :until"
    " AND EXISTS (SELECT 1 FROM rating_changes c WHERE c.match_id = r.match_id AND c.seat = 0)"
)

_SELECT_STANDING = select("season_standings", STANDING_COLUMNS)
SELECT_PAGE = (
    f"{_SELECT_STANDING} WHERE guild_id = :guild_id AND number = :number"
    " ORDER BY rank LIMIT :limit OFFSET :offset"
)
COUNT_RANKED = (
    "SELECT COUNT(*) AS total FROM season_standings WHERE guild_id = :guild_id AND number = :number"
)
# Best: the lowest rank, then the newest season.
SELECT_BEST = (
    "SELECT number, rank, rating FROM season_standings"
    " WHERE guild_id = :guild_id AND user_id = :user_id ORDER BY rank, number DESC LIMIT 1"
)


def season_params(s: Season) -> dict[str, Any]:
    return {
        "guild_id": s.guild_id,
        "number": s.number,
        "length": str(s.length),
        "started_at": s.started_at,
        "ends_at": s.ends_at,
        "ended_at": s.ended_at,
        "podium_shown": s.podium_shown,
    }


def season_from_row(row: Row) -> Season:
    return Season(
        guild_id=row["guild_id"],
        number=row["number"],
        started_at=row["started_at"],
        ends_at=row["ends_at"],
        length=SeasonLength(row["length"]),
        ended_at=row["ended_at"],
        podium_shown=bool(row["podium_shown"]),
    )


def standing_params(guild_id: int, number: int, s: SeasonStanding) -> dict[str, Any]:
    if s.rank is None:
        raise ValueError(f"only ranked members are kept when a season ends: {s!r}")
    return {
        "guild_id": guild_id,
        "number": number,
        "rank": s.rank,
        "user_id": s.user_id,
        "rating": s.rating.rating,
        "deviation": s.rating.deviation,
        "volatility": s.rating.volatility,
        "games": s.games,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
    }


def standing_from_row(row: Row) -> SeasonStanding:
    return SeasonStanding(
        user_id=row["user_id"],
        rating=Glicko2Rating(row["rating"], row["deviation"], row["volatility"]),
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        rank=row["rank"],
    )


def result_from_row(row: Row) -> SeasonResult:
    return SeasonResult(
        match_id=row["match_id"],
        players=(row["player0_id"], row["player1_id"]),
        winner_seat=row["winner_seat"],
        finished_at=row["finished_at"],
    )


def best_from_row(row: Row) -> BestSeason:
    return BestSeason(number=row["number"], rank=row["rank"], rating=row["rating"])


def end_params(season: Season) -> dict[str, Any]:
    return {"guild_id": season.guild_id, "number": season.number, "ended_at": season.ended_at}


def ranked_params(season: Season, ranking: Sequence[SeasonStanding]) -> list[dict[str, Any]]:
    return [standing_params(season.guild_id, season.number, s) for s in ranking]
