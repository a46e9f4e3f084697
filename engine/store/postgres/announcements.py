"""SQL of the ``announcements`` table: the outbox of what the public must still be told.

Each announcement carries the process that wrote it (``origin``): that process shows it,
and on restart picks up only its own leftovers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.store.announcement import Announcement
from engine.store.postgres.sql import execute_many

# A key is unique per match: recording the same announcement again (a retried write)
# replaces it, and like SQLite's INSERT OR REPLACE it takes a new place in the order.
INSERT = (
    "INSERT INTO announcements (match_id, key, body, created_at, origin)"
    " VALUES (:match_id, :key, :body, :created_at, :origin)"
    " ON CONFLICT (match_id, key) DO UPDATE SET id = DEFAULT, body = EXCLUDED.body,"
    " created_at = EXCLUDED.created_at, origin = EXCLUDED.origin"
)
DELETE = "DELETE FROM announcements WHERE match_id = :match_id AND key = :key"
SELECT_UNDELIVERED = (
    "SELECT match_id, key, body, created_at FROM announcements WHERE origin = :origin ORDER BY id"
)
SELECT_UNDELIVERED_OF_MATCH = (
    "SELECT match_id, key, body, created_at FROM announcements"
    " WHERE origin = :origin AND match_id = :match_id ORDER BY id"
)


async def insert(
    conn: Any, announcements: Sequence[Announcement], origin: str, match_id: int | None = None
) -> None:
    """Record ``announcements`` as written by ``origin`` (for ``match_id`` when given)."""
    rows = [
        {
            "match_id": a.match_id if match_id is None else match_id,
            "key": a.key,
            "body": a.body,
            "created_at": a.created_at,
            "origin": origin,
        }
        for a in announcements
    ]
    await execute_many(conn, INSERT, rows)


async def delete(conn: Any, delivered: Sequence[tuple[int, str]]) -> None:
    rows = [{"match_id": match_id, "key": key} for match_id, key in delivered]
    await execute_many(conn, DELETE, rows)


def from_row(row: Any) -> Announcement:
    return Announcement(row["match_id"], row["key"], row["body"], row["created_at"])
