"""PostgreSQL's own SQL of the ``match_reviews`` table (the rest is in
:mod:`engine.store.shared_sql.reviews`)."""

from __future__ import annotations

from typing import Any

from engine.store import shared_sql
from engine.store.postgres.sql import execute, replacing
from engine.store.shared_sql.reviews import INSERT_REVIEW, REVIEW_COLUMNS

# A match has one review: a second save replaces the first.
UPSERT_REVIEW = INSERT_REVIEW + replacing(("match_id",), REVIEW_COLUMNS)


async def save(conn: Any, match_id: int, body: str, at: float) -> None:
    await execute(conn, UPSERT_REVIEW, shared_sql.reviews.review_params(match_id, body, at))
