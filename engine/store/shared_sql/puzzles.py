"""The ``puzzles``, ``puzzle_standings`` and ``puzzle_attempts`` tables: columns, the SQL
both stores run alike (SQLite's upsert is PostgreSQL's ``ON CONFLICT``), and the conversions
between their rows and :mod:`engine.model.puzzles`."""

from __future__ import annotations

from typing import Any

from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle, StreakRun
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
    "ease",
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
    "run_key",
    "run_rating",
    "run_ease",
    "run_solved",
    "run_answered",
    "run_best",
)
ATTEMPT_COLUMNS = ("guild_id", "user_id", "key", "choice", "solved", "at", "rated")

_SELECT_PUZZLE = select("puzzles", PUZZLE_COLUMNS)
SELECT_PUZZLE = f"{_SELECT_PUZZLE} WHERE key = :key"
# Saving a puzzle again keeps the stored one (its rating and counts are the attempts'), but
# for its ease, which puzzles stored before it was kept learn so.
INSERT_PUZZLE = (
    f"{insert('puzzles', PUZZLE_COLUMNS)} ON CONFLICT (key) DO UPDATE SET ease = EXCLUDED.ease"
)
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
# A streak's ladder: the same puzzles by rating, the easier first, then by key; the first
# rungs, or those after the rung (:rating, :ease, :key).
_LADDER = (
    f"SELECT {', '.join(f'p.{c} AS {c}' for c in PUZZLE_COLUMNS)} FROM puzzles p"
    " WHERE (p.guild_id = :guild_id OR p.guild_id IS NULL)"
    " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a"
    " WHERE a.guild_id = :guild_id AND a.user_id = :user_id AND a.key = p.key)"
)
_LADDER_ORDER = " ORDER BY p.rating, p.ease DESC, p.key LIMIT :limit"
SELECT_LADDER_START = f"{_LADDER}{_LADDER_ORDER}"
SELECT_LADDER_AFTER = (
    f"{_LADDER} AND (p.rating > :rating OR (p.rating = :rating AND (p.ease < :ease"
    f" OR (p.ease = :ease AND p.key > :key)))){_LADDER_ORDER}"
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
        "ease": p.ease,
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
        ease=row["ease"],
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
        "run_key": None if s.run is None else s.run.key,
        "run_rating": None if s.run is None else s.run.rating,
        "run_ease": None if s.run is None else s.run.ease,
        "run_solved": 0 if s.run is None else s.run.solved,
        "run_answered": s.run is not None and s.run.answered,
        "run_best": s.run_best,
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
        run=_run_from_row(row),
        run_best=row["run_best"],
    )


def _run_from_row(row: Row) -> StreakRun | None:
    if row["run_key"] is None:
        return None
    return StreakRun(
        key=row["run_key"],
        rating=row["run_rating"],
        ease=row["run_ease"],
        solved=row["run_solved"],
        answered=bool(row["run_answered"]),
    )


def attempt_params(a: PuzzleAttempt) -> dict[str, Any]:
    return {
        "guild_id": a.guild_id,
        "user_id": a.user_id,
        "key": a.key,
        "choice": a.choice,
        "solved": a.solved,
        "at": a.at,
        "rated": a.rated,
    }
