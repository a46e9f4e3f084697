"""SQL of the ``announcements`` table: the outbox of what the public must still be told.

Each announcement carries the process that wrote it (``origin``): that process shows it,
and on restart picks up only its own leftovers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from engine.store.announcement import Announcement
from engine.store.postgres.sql import execute_many
from engine.store.shared_sql.sql import Statement

# A key is unique per match: recording the same announcement again (a retried write)
# replaces it, and like SQLite's INSERT OR REPLACE it takes a new place in the order.
_REPLACE = (
    " DO UPDATE SET id = DEFAULT, body = EXCLUDED.body,"
    " created_at = EXCLUDED.created_at, origin = EXCLUDED.origin"
)
_INSERT = (
    "INSERT INTO announcements (match_id, key, body, created_at, origin)"
    " VALUES (:match_id, :key, :body, :created_at, :origin)"
)
INSERT = f"{_INSERT} ON CONFLICT (match_id, key){_REPLACE}"
# Of no match, unique by key alone (a partial index: NULL match ids are all distinct).
INSERT_OF_NO_MATCH = f"{_INSERT} ON CONFLICT (key) WHERE match_id IS NULL{_REPLACE}"
DELETE = "DELETE FROM announcements WHERE match_id = :match_id AND key = :key"
# Apart from DELETE rather than one IS NOT DISTINCT FROM, which no index serves.
DELETE_OF_NO_MATCH = "DELETE FROM announcements WHERE match_id IS NULL AND key = :key"
SELECT_UNDELIVERED = (
    "SELECT match_id, key, body, created_at FROM announcements WHERE origin = :origin ORDER BY id"
)
SELECT_UNDELIVERED_OF_MATCH = (
    "SELECT match_id, key, body, created_at FROM announcements"
    " WHERE origin = :origin AND match_id = :match_id ORDER BY id"
)


def inserts(
    announcements: Sequence[Announcement], origin: str, match_id: int | None = None
) -> list[Statement]:
    """The statements recording ``announcements`` as written by ``origin`` (for
    ``match_id`` when given), in order."""
    statements: list[Statement] = []
    for a in announcements:
        owner = a.match_id if match_id is None else match_id
        params = {
            "match_id": owner,
            "key": a.key,
            "body": a.body,
            "created_at": a.created_at,
            "origin": origin,
        }
        statements.append((INSERT if owner is not None else INSERT_OF_NO_MATCH, params))
    return statements


async def insert(
    conn: Any, announcements: Sequence[Announcement], origin: str, match_id: int | None = None
) -> None:
    """Record ``announcements`` as written by ``origin`` (for ``match_id`` when given)."""
    await _run(conn, inserts(announcements, origin, match_id))


async def delete(conn: Any, delivered: Sequence[tuple[int | None, str]]) -> None:
    await _run(
        conn,
        [
            (DELETE, {"match_id": match_id, "key": key})
            if match_id is not None
            else (DELETE_OF_NO_MATCH, {"key": key})
            for match_id, key in delivered
        ],
    )


async def _run(conn: Any, statements: Sequence[Statement]) -> None:
    """Each run of one statement in one trip, in order (the order is the outbox's)."""
    for sql, run in itertools.groupby(statements, key=lambda statement: statement[0]):
        await execute_many(conn, sql, [params for _, params in run])


def from_row(row: Any) -> Announcement:
    return Announcement(row["match_id"], row["key"], row["body"], row["created_at"])
