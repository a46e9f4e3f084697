"""The match-end rating line everyone sees: both players' rating changes."""

from __future__ import annotations

from bot.stats.stats_text import rating_changes_text
from engine.service import MatchQueries


async def rating_change_line(
    queries: MatchQueries, match_id: int, names: tuple[str, str], lang: str
) -> str | None:
    """``Ratings: ana 1662 (+162) · ben 1338 (−162)`` for a rated match, else None."""
    changes = await queries.rating_changes(match_id)
    return None if changes is None else rating_changes_text(lang, changes, names)
