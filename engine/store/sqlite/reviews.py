"""SQLite's own SQL of the ``match_reviews`` table (the rest is in
:mod:`engine.store.shared_sql.reviews`)."""

from __future__ import annotations

from engine.store import shared_sql
from engine.store.shared_sql.reviews import INSERT_REVIEW
from engine.store.sqlite.writer import Statement

# A match has one review: a second save replaces the first.
REPLACE_REVIEW = INSERT_REVIEW.replace("INSERT", "INSERT OR REPLACE", 1)


def save(match_id: int, body: str, at: float) -> Statement:
    return REPLACE_REVIEW, shared_sql.reviews.review_params(match_id, body, at)
