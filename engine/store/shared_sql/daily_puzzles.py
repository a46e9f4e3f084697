"""The ``daily_puzzles`` table and the daily puzzle's reads of ``puzzles`` and
``puzzle_attempts``: columns, the SQL both stores run alike, and the conversions between
rows and :class:`~engine.model.daily_puzzle.DailyPuzzle`."""

from __future__ import annotations

from typing import Any

from engine.model.daily_puzzle import DailyPuzzle
from engine.store.shared_sql.sql import Row, insert, select

DAILY_COLUMNS = ("guild_id", "day", "key", "channel_id", "posted_at")

# Its key (server, day) makes a second post of the same day fail, writing nothing.
INSERT_DAILY = insert("daily_puzzles", DAILY_COLUMNS)
SELECT_DAILY = f"{select('daily_puzzles', DAILY_COLUMNS)} WHERE guild_id = :guild_id AND day = :day"
SELECT_RECENT = (
    f"{select('daily_puzzles', DAILY_COLUMNS)} WHERE guild_id = :guild_id AND day >= :since"
    " ORDER BY day DESC"
)
# Every puzzle a server's day may pose: its own and the built-in ones, by key.
SELECT_KEYS = "SELECT key FROM puzzles WHERE guild_id = :guild_id OR guild_id IS NULL ORDER BY key"
# Who solved a puzzle in a server since a time, first solver first, with how many did
# (the puzzle_attempts_by_puzzle index answers it).
SELECT_SOLVERS = (
    "SELECT user_id, COUNT(*) OVER () AS total FROM puzzle_attempts"
    " WHERE guild_id = :guild_id AND key = :key AND solved = :solved AND at >= :since"
    " ORDER BY at, user_id LIMIT :limit"
)


def daily_params(d: DailyPuzzle) -> dict[str, Any]:
    return {
        "guild_id": d.guild_id,
        "day": d.day,
        "key": d.key,
        "channel_id": d.channel_id,
        "posted_at": d.posted_at,
    }


def daily_from_row(row: Row) -> DailyPuzzle:
    return DailyPuzzle(
        guild_id=row["guild_id"],
        day=row["day"],
        key=row["key"],
        channel_id=row["channel_id"],
        posted_at=row["posted_at"],
    )
