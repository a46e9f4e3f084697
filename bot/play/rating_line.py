"""The match-end rating line everyone sees under the result: both players' rating changes."""

from __future__ import annotations

from bot.words.ratings import rating_changes_text
from engine.service import MatchQueries


async def rating_change_line(
    queries: MatchQueries, match_id: int, names: tuple[str, str], lang: str
) -> str | None:
    """``Ratings: ana 1662? (+162) · ben 1338? (−162)`` (and the legend of ``?``) for a rated
    match, else None."""
    changes = await queries.rating_changes(match_id)
    if changes is None:
        return None
    # A change keeps the ratings but not the deviations, so whether each rating is still
    # provisional comes from the player's standing, which this match has just written.
    by_seat = sorted(changes, key=lambda c: c.seat)
    standings = [await queries.player_stats(c.guild_id, c.user_id) for c in by_seat]
    provisional = (standings[0].standing.is_provisional, standings[1].standing.is_provisional)
    return rating_changes_text(lang, changes, names, provisional)
