"""The ``puzzles``, ``puzzle_standings`` and ``puzzle_attempts`` tables: columns, the SQL
both stores run alike (SQLite's upsert is PostgreSQL's ``ON CONFLICT``), and the conversions
between their rows and :mod:`engine.model.puzzles`."""

from __future__ import annotations

from typing import Any

from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle
from engine.ratings import Glicko2Rating
from engine.store.shared_sql.sql import Row, insert, select

PUZZLE_COLUMNS = (
    "key",
    "guild_id",
    "match_id",
    "body",
    "rating",
    "deviation",
    "volatility",
    "attempts",
    "solves",
)
STANDING_COLUMNS = (
    "guild_id",
    "user_id",
    "rating",
    "deviation",
    "volatility",
    "attempts",
    "solved",
    "streak",
    "best_streak",
)
ATTEMPT_COLUMNS = ("guild_id", "user_id", "key", "choice", "solved", "at")

_SELECT_PUZZLE = select("puzzles", PUZZLE_COLUMNS)
SELECT_PUZZLE = f"{_SELECT_PUZZLE} WHERE key = :key"
# Saving a puzzle again keeps the stored one: its rating and counts are the attempts'.
INSERT_PUZZLE = f"{insert('puzzles', PUZZLE_COLUMNS)} ON CONFLICT (key) DO NOTHING"
# The server's own puzzles and the built-in ones (guild_id NULL) the member never tried,
# nearest the rating first; the attempts' key answers the NOT EXISTS, the
# (guild_id, rating) index the rest.
SELECT_CANDIDATES = (
    f"SELECT {', '.join(f'p.{c} AS {c}' for c in PUZZLE_COLUMNS)} FROM puzzles p"
    " WHERE (p.guild_id = :guild_id OR p.guild_id IS NULL)"
    " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
    " WHERE a.guild_id = :guild_id AND a.user_id = :user_id AND a.key = p.key)"
    " ORDER BY ABS(p.rating - :around), p.key LIMIT :limit"
)
# An attempt's consequence for the puzzle: its new rating, one more attempt, and a solve.
RATE_PUZZLE = (
    "UPDATE puzzles SET rating = :rating, deviation = :deviation, volatility = :volatility,"
    " attempts = attempts + 1, solves = solves + :solves WHERE key = :key"
)

SELECT_STANDING = (
    f"{select('puzzle_standings', STANDING_COLUMNS)}"
    " WHERE guild_id = :guild_id AND user_id = :user_id"
)
# Ties in rating are broken by more solved, then by user id, so pages never overlap.
SELECT_LEADERBOARD = (
    f"{select('puzzle_standings', STANDING_COLUMNS)} WHERE guild_id = :guild_id"
    " ORDER BY rating DESC, solved DESC, user_id LIMIT :limit OFFSET :offset"
)
# A member's standing is one row per server, replaced by each attempt.
_UPDATES = ", ".join(f"{c} = EXCLUDED.{c}" for c in STANDING_COLUMNS[2:])
UPSERT_STANDING = (
    f"{insert('puzzle_standings', STANDING_COLUMNS)}"
    f" ON CONFLICT (guild_id, user_id) DO UPDATE SET {_UPDATES}"
)

INSERT_ATTEMPT = insert("puzzle_attempts", ATTEMPT_COLUMNS)


def _rating_params(rating: Glicko2Rating) -> dict[str, Any]:
    return {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
    }


def _rating_from_row(row: Row) -> Glicko2Rating:
    return Glicko2Rating(row["rating"], row["deviation"], row["volatility"])


def puzzle_params(p: StoredPuzzle) -> dict[str, Any]:
    return {
        "key": p.key,
        "guild_id": p.guild_id,
        "match_id": p.match_id,
        "body": p.body,
        **_rating_params(p.rating),
        "attempts": p.attempts,
        "solves": p.solves,
    }


def puzzle_from_row(row: Row) -> StoredPuzzle:
    return StoredPuzzle(
        key=row["key"],
        guild_id=row["guild_id"],
        match_id=row["match_id"],
        body=row["body"],
        rating=_rating_from_row(row),
        attempts=row["attempts"],
        solves=row["solves"],
    )


def rated_params(attempt: PuzzleAttempt, rating: Glicko2Rating) -> dict[str, Any]:
    """For :data:`RATE_PUZZLE`: the puzzle's rating after ``attempt``."""
    return {"key": attempt.key, **_rating_params(rating), "solves": int(attempt.solved)}


def standing_params(s: PuzzleStanding) -> dict[str, Any]:
    return {
        "guild_id": s.guild_id,
        "user_id": s.user_id,
        **_rating_params(s.rating),
        "attempts": s.attempts,
        "solved": s.solved,
        "streak": s.streak,
        "best_streak": s.best_streak,
    }


def standing_from_row(row: Row) -> PuzzleStanding:
    return PuzzleStanding(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        rating=_rating_from_row(row),
        attempts=row["attempts"],
        solved=row["solved"],
        streak=row["streak"],
        best_streak=row["best_streak"],
    )


def attempt_params(a: PuzzleAttempt) -> dict[str, Any]:
    return {
        "guild_id": a.guild_id,
        "user_id": a.user_id,
        "key": a.key,
        "choice": a.choice,
        "solved": a.solved,
        "at": a.at,
    }
