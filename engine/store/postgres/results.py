"""PostgreSQL's own SQL of the ``results``, ``ratings`` and ``rating_changes`` tables (the
rest is in :mod:`engine.store.shared_sql.results`)."""

from __future__ import annotations

from typing import Any

from engine.model import FinishedMatch
from engine.ratings import RatedMatch
from engine.store import shared_sql
from engine.store.postgres.sql import execute, execute_many, replacing
from engine.store.shared_sql.results import (
    FROM_AI_MATCHES,
    INSERT_CHANGE,
    INSERT_RESULT,
    INSERT_STANDING,
    STANDING_COLUMNS,
)

AI_RECORD = (
    f"SELECT COUNT(*) AS games, COUNT(*) FILTER (WHERE winner_seat = 0) AS wins {FROM_AI_MATCHES}"
)
# A player's standing is one row per guild, replaced by each rated match.
UPSERT_STANDING = INSERT_STANDING + replacing(("guild_id", "user_id"), STANDING_COLUMNS)


async def insert_result(conn: Any, r: FinishedMatch) -> None:
    await execute(conn, INSERT_RESULT, shared_sql.results.result_params(r))


async def insert_ratings(conn: Any, rated: RatedMatch) -> None:
    """Both players' new standings and the match's rating changes."""
    standings = [shared_sql.results.standing_params(s) for s in rated.standings]
    changes = [shared_sql.results.change_params(c) for c in rated.changes]
    await execute_many(conn, UPSERT_STANDING, standings)
    await execute_many(conn, INSERT_CHANGE, changes)
