"""The ``match_reviews`` table: a finished match's review (its JSON), kept once analysed.

Both stores read it alike; each says how a second save replaces the first (the review of
a match is one row, the last one saved).
"""

from __future__ import annotations

import json
from typing import Any

from engine.store.shared_sql.sql import insert

REVIEW_COLUMNS = ("match_id", "format", "body", "created_at")

SELECT_REVIEW = "SELECT body FROM match_reviews WHERE match_id = :match_id"
INSERT_REVIEW = insert("match_reviews", REVIEW_COLUMNS)


def review_params(match_id: int, body: str, at: float) -> dict[str, Any]:
    return {"match_id": match_id, "format": body_format(body), "body": body, "created_at": at}


def body_format(body: str) -> int:
    """The ``format`` a review's JSON names, or 0 when it names none (never a current one):
    the column lets reviews of an old format be found with SQL alone."""
    try:
        found = json.loads(body).get("format")
    except (ValueError, AttributeError):
        return 0
    return found if isinstance(found, int) and not isinstance(found, bool) else 0
