"""PostgreSQL's own SQL of the ``matches`` and ``decisions`` tables (the rest is in
:mod:`engine.store.shared_sql.matches`): ids from the table's identity, and the row lock under
which a write checks the match is still as its caller saw it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.model import DecisionRow, MatchStatus
from engine.store import shared_sql
from engine.store.errors import MatchConflict
from engine.store.postgres.sql import execute, fetchrow
from engine.store.shared_sql.matches import INSERT_DECISION, MATCH_COLUMNS, OPEN, SELECT
from engine.store.shared_sql.sql import insert

SELECT_OPEN_OF = (
    f"{SELECT} WHERE {OPEN} AND (player0_id = :user_id OR player1_id = :user_id)"
    " ORDER BY created_at, id"
)

# The id comes from the table's identity, so it is left out.
INSERT_MATCH = f"{insert('matches', MATCH_COLUMNS[1:])} RETURNING id"
# Every write that moves a match on is preceded by the lock of its match (expect).
FINISH_MATCH = (
    "UPDATE matches SET status = 'finished', version = :version, ended_at = :ended_at,"
    " turn_deadline = NULL, to_move_id = NULL, claimed_until = NULL WHERE id = :match_id"
)
# Held until the transaction ends: writers of one match take turns from here on.
LOCK_MATCH = "SELECT status, version, reminded_version FROM matches WHERE id = :match_id FOR UPDATE"
# The decision and the match's move to it, in one statement (one trip to the server).
APPEND_DECISION = (
    "WITH advanced AS (UPDATE matches SET version = :seq, turn_deadline = :next_deadline,"
    " to_move_id = :next_to_move_id, paused_until = :paused_until, overdue_since = NULL,"
    " claimed_until = NULL WHERE id = :match_id) " + INSERT_DECISION
)


@dataclass(frozen=True, slots=True)
class Locked:
    """A match's row as its write found it, locked until the write commits."""

    status: MatchStatus
    version: int
    reminded_version: int | None

    def __str__(self) -> str:
        return f"version {self.version} ({self.status})"


async def lock(conn: Any, match_id: int) -> Locked | None:
    row = await fetchrow(conn, LOCK_MATCH, {"match_id": match_id})
    if row is None:
        return None
    return Locked(MatchStatus(row["status"]), row["version"], row["reminded_version"])


async def expect(conn: Any, match_id: int, status: MatchStatus, version: int | None) -> Locked:
    """Lock the match; :class:`MatchConflict` unless it has ``status`` (and ``version``)."""
    found = await lock(conn, match_id)
    if (
        found is None
        or found.status != status
        or (version is not None and found.version != version)
    ):
        expected = str(status) if version is None else f"version {version} ({status})"
        raise MatchConflict(match_id, expected, "no such match" if found is None else str(found))
    return found


async def insert_decision(conn: Any, match_id: int, d: DecisionRow) -> None:
    """Add ``d`` to the log (the caller moves the match on)."""
    await execute(conn, INSERT_DECISION, shared_sql.matches.decision_params(match_id, d))


async def append_decision(conn: Any, match_id: int, d: DecisionRow) -> None:
    """Add ``d`` to the log and make it current: version, turn deadline, no claim."""
    await execute(conn, APPEND_DECISION, shared_sql.matches.decision_params(match_id, d))
