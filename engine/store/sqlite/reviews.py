"""SQLite's own SQL of the ``match_reviews`` table (the rest is in
:mod:`engine.store.tables.reviews`)."""

from __future__ import annotations

from engine.store import tables
from engine.store.sqlite.writer import Statement
from engine.store.tables.reviews import INSERT_REVIEW

# A match has one review: a second save replaces the first.
REPLACE_REVIEW = INSERT_REVIEW.replace("INSERT", "INSERT OR REPLACE", 1)


def save(match_id: int, body: str, at: float) -> Statement:
    return REPLACE_REVIEW, tables.reviews.review_params(match_id, body, at)
