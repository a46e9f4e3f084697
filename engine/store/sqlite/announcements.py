"""SQL of the ``announcements`` table: the outbox of what the public must still be told."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from engine.store.announcement import Announcement
from engine.store.sqlite.writer import Statement

# A key is unique per match (or among those of no match), so recording the same
# announcement again (a write retried after its batch failed) replaces it rather than
# failing the commit it belongs to.
INSERT = (
    "INSERT OR REPLACE INTO announcements (match_id, key, body, created_at)"
    " VALUES (:match_id, :key, :body, :created_at)"
)
# IS: an announcement of no match has a NULL match id, which = never matches.
DELETE = "DELETE FROM announcements WHERE match_id IS :match_id AND key = :key"
SELECT_UNDELIVERED = "SELECT match_id, key, body, created_at FROM announcements ORDER BY id"
SELECT_UNDELIVERED_OF_MATCH = (
    "SELECT match_id, key, body, created_at FROM announcements"
    " WHERE match_id = :match_id ORDER BY id"
)


def inserts(announcements: Iterable[Announcement], match_id: int | None = None) -> list[Statement]:
    """The statements recording ``announcements`` (for ``match_id`` when given)."""
    return [
        (
            INSERT,
            {
                "match_id": a.match_id if match_id is None else match_id,
                "key": a.key,
                "body": a.body,
                "created_at": a.created_at,
            },
        )
        for a in announcements
    ]


def deletes(delivered: Sequence[tuple[int | None, str]]) -> list[Statement]:
    return [(DELETE, {"match_id": match_id, "key": key}) for match_id, key in delivered]


def from_row(row: sqlite3.Row) -> Announcement:
    return Announcement(row["match_id"], row["key"], row["body"], row["created_at"])
