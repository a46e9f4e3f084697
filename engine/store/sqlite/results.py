"""SQLite's own SQL of the ``results``, ``ratings`` and ``rating_changes`` tables (the rest
is in :mod:`engine.store.shared_sql.results`)."""

from __future__ import annotations

import aiosqlite

from engine.model import FinishedMatch
from engine.ratings import RatedMatch, Standing
from engine.store import shared_sql
from engine.store.shared_sql.results import (
    FROM_AI_MATCHES,
    INSERT_CHANGE,
    INSERT_RESULT,
    INSERT_STANDING,
)
from engine.store.sqlite.writer import Statement

# A comparison is 0 or 1 in SQLite, so the wins are a sum.
AI_RECORD = f"SELECT COUNT(*) AS games, COALESCE(SUM(winner_seat = 0), 0) AS wins {FROM_AI_MATCHES}"
# A player's standing is one row per guild, replaced by each rated match.
REPLACE_STANDING = INSERT_STANDING.replace("INSERT", "INSERT OR REPLACE", 1)


def insert_result(r: FinishedMatch) -> Statement:
    return INSERT_RESULT, shared_sql.results.result_params(r)


async def standing_or_new(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> Standing:
    """A player's standing as ``conn`` sees it (mid-batch: with the batch's writes so far);
    a player with none is new."""
    params = {"guild_id": guild_id, "user_id": user_id}
    rows = list(await conn.execute_fetchall(shared_sql.results.SELECT_STANDING, params))
    if not rows:
        return Standing(guild_id, user_id)
    return shared_sql.results.standing_from_row(rows[0])


def rating_statements(rated: RatedMatch) -> list[Statement]:
    """Both players' new standings and the match's rating changes."""
    statements: list[Statement] = [
        (REPLACE_STANDING, shared_sql.results.standing_params(s)) for s in rated.standings
    ]
    statements += [(INSERT_CHANGE, shared_sql.results.change_params(c)) for c in rated.changes]
    return statements
