"""The ``results``, ``ratings`` and ``rating_changes`` tables: columns, the SQL both stores
run alike, and the conversions between their rows and finished matches and ratings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.model import FinishedMatch
from engine.ratings import (
    Glicko2Rating,
    LeaderboardPage,
    PlayerStats,
    RatingChange,
    Reliability,
    Standing,
)
from engine.rules.outcome import Termination
from engine.rules.state import Variant
from engine.store.shared_sql.sql import Row, insert, select

RESULT_COLUMNS = (
    "match_id",
    "guild_id",
    "variant",
    "player0_id",
    "player1_id",
    "ai_level",
    "winner_seat",
    "winner_id",
    "reason",
    "rounds",
    "started_at",
    "finished_at",
    "record",
)
STANDING_COLUMNS = (
    "guild_id",
    "user_id",
    "rating",
    "deviation",
    "volatility",
    "games",
    "wins",
    "losses",
    "draws",
    "streak",
    "last_change",
    "last_match_id",
    "updated_at",
)
CHANGE_COLUMNS = ("match_id", "seat", "guild_id", "user_id", "score", "before", "after")

_SELECT_RESULT = select("results", RESULT_COLUMNS)
SELECT_RESULT = f"{_SELECT_RESULT} WHERE match_id = :match_id"
SELECT_STANDING = (
    f"{select('ratings', STANDING_COLUMNS)} WHERE guild_id = :guild_id AND user_id = :user_id"
)
# Ties in rating are broken by more games, then by user id, so pages never overlap.
SELECT_LEADERBOARD = (
    f"{select('ratings', STANDING_COLUMNS)} WHERE guild_id = :guild_id AND games >= :min_games"
    " ORDER BY rating DESC, games DESC, user_id LIMIT :limit OFFSET :offset"
)
COUNT_LEADERBOARD = (
    "SELECT COUNT(*) AS total FROM ratings WHERE guild_id = :guild_id AND games >= :min_games"
)
SELECT_CHANGES = (
    f"{select('rating_changes', CHANGE_COLUMNS)} WHERE match_id = :match_id ORDER BY seat"
)
RATED_RECORD = (
    "SELECT c.score AS score, r.reason AS reason, COUNT(*) AS games FROM rating_changes c"
    " JOIN results r ON r.match_id = c.match_id"
    " WHERE c.guild_id = :guild_id AND c.user_id = :user_id AND c.score IN (0, 1)"
    " GROUP BY c.score, r.reason"
)
# A player's matches against the AI, where the human always sits in seat 0; each store
# counts the wins among them its own way (its AI_RECORD).
FROM_AI_MATCHES = (
    "FROM results WHERE guild_id = :guild_id AND player0_id = :user_id AND ai_level IS NOT NULL"
)

# A member's ended matches in a server, and those they lost on time (engine.ratings.reliability).
RELIABILITY = (
    "SELECT COUNT(*) AS ended, COALESCE(SUM(CASE WHEN reason = 'timeout'"
    " AND (winner_id IS NULL OR winner_id <> :user_id) THEN 1 ELSE 0 END), 0) AS abandoned"
    " FROM results WHERE guild_id = :guild_id AND (player0_id = :user_id OR player1_id = :user_id)"
)

INSERT_RESULT = insert("results", (*RESULT_COLUMNS, "duration"))
INSERT_STANDING = insert("ratings", STANDING_COLUMNS)
INSERT_CHANGE = insert("rating_changes", CHANGE_COLUMNS)


def select_finished(*, user_id: int | None, guild_id: int | None, before: float | None) -> str:
    """Finished matches newest first, filtered by whichever of the arguments are set."""
    where: list[str] = []
    if user_id is not None:
        where.append("(player0_id = :user_id OR player1_id = :user_id)")
    if guild_id is not None:
        where.append("guild_id = :guild_id")
    if before is not None:
        where.append("finished_at < :before")
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    return f"{_SELECT_RESULT}{clause} ORDER BY finished_at DESC, match_id DESC LIMIT :limit"


def result_params(r: FinishedMatch) -> dict[str, Any]:
    return {
        "match_id": r.match_id,
        "guild_id": r.guild_id,
        "variant": str(r.variant),
        "player0_id": r.players[0],
        "player1_id": r.players[1],
        "ai_level": r.ai_level,
        "winner_seat": r.winner_seat,
        "winner_id": r.winner_id,
        "reason": str(r.reason),
        "rounds": r.rounds,
        "started_at": r.started_at,
        "finished_at": r.finished_at,
        "record": r.record,
        "duration": r.duration_seconds,
    }


def result_from_row(row: Row) -> FinishedMatch:
    return FinishedMatch(
        match_id=row["match_id"],
        guild_id=row["guild_id"],
        variant=Variant(row["variant"]),
        players=(row["player0_id"], row["player1_id"]),
        ai_level=row["ai_level"],
        winner_seat=row["winner_seat"],
        winner_id=row["winner_id"],
        reason=Termination(row["reason"]),
        rounds=row["rounds"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        record=row["record"],
    )


def standing_params(s: Standing) -> dict[str, Any]:
    return {
        "guild_id": s.guild_id,
        "user_id": s.user_id,
        "rating": s.rating.rating,
        "deviation": s.rating.deviation,
        "volatility": s.rating.volatility,
        "games": s.games,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
        "streak": s.streak,
        "last_change": s.last_change,
        "last_match_id": s.last_match_id,
        "updated_at": s.updated_at,
    }


def standing_from_row(row: Row) -> Standing:
    return Standing(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        rating=Glicko2Rating(row["rating"], row["deviation"], row["volatility"]),
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        streak=row["streak"],
        last_change=row["last_change"],
        last_match_id=row["last_match_id"],
        updated_at=row["updated_at"],
    )


def change_params(c: RatingChange) -> dict[str, Any]:
    return {column: getattr(c, column) for column in CHANGE_COLUMNS}


def change_from_row(row: Row) -> RatingChange:
    return RatingChange(**{column: row[column] for column in CHANGE_COLUMNS})


def leaderboard_page(rows: Iterable[Row], offset: int, count: Row) -> LeaderboardPage:
    """The page from ``SELECT_LEADERBOARD`` and the total from ``COUNT_LEADERBOARD``."""
    standings = tuple(standing_from_row(row) for row in rows)
    return LeaderboardPage(standings, offset, int(count["total"]))


def reliability_from_row(row: Row) -> Reliability:
    abandoned = int(row["abandoned"])
    return Reliability(int(row["ended"]) - abandoned, abandoned)


def player_stats(
    standing: Standing, record: Iterable[Row], ai: Row, reliability: Row
) -> PlayerStats:
    """The stats from ``RATED_RECORD`` (wins and losses by how the match ended) and the
    store's ``AI_RECORD``."""
    wins_by: dict[Termination, int] = {}
    losses_by: dict[Termination, int] = {}
    for row in record:
        tally = wins_by if row["score"] == 1 else losses_by
        tally[Termination(row["reason"])] = int(row["games"])
    return PlayerStats(
        standing,
        wins_by,
        losses_by,
        ai_games=int(ai["games"]),
        ai_wins=int(ai["wins"]),
        reliability=reliability_from_row(reliability),
    )
