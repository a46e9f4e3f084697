"""A server's all-time leaderboard as it is shown: who is ranked and how the ranks are
numbered, decided here (as a season's are in :mod:`engine.seasons.standings`), so the bot
only shows a page.

Ranked are the players with at least the minimum of rated games (one lucky first win is
not a ranking), best rating first, then more games, then the lower user id (the store's
order, so pages never overlap). Ranks run on across pages, 1 for the best, one per player.

>>> rows = LeaderboardPage((Standing(1, 10, games=4), Standing(1, 20, games=3)), 10, 12)
>>> page = ranked_page(rows, min_games=3)
>>> [(line.rank, line.standing.user_id) for line in page.entries], page.min_games
([(11, 10), (12, 20)], 3)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ratings.glicko2 import RatingError
from engine.ratings.standing import LeaderboardPage, Standing

LEADERBOARD_MIN_GAMES = 3
"""Rated matches a player plays in a server before the all-time leaderboard ranks them
(the match service's ``leaderboard_min_games`` may set another)."""


@dataclass(frozen=True, slots=True)
class RankedStanding:
    """A ranked player's line: their rank (1 for the best) and their standing."""

    rank: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class AllTimePage:
    """One page of a server's all-time ranking (a season's is
    :class:`engine.seasons.SeasonPage`)."""

    entries: tuple[RankedStanding, ...]
    offset: int
    total: int
    """How many players are ranked."""
    min_games: int
    """The rated games a player needs to be ranked."""


def ranked_page(rows: LeaderboardPage, min_games: int) -> AllTimePage:
    """The page of standings the store read (players with at least ``min_games``, in
    ranking order, from ``rows.offset``), ranked."""
    if min_games < 1:
        raise RatingError(f"a leaderboard ranks players with at least 1 game, not {min_games!r}")
    if any(standing.games < min_games for standing in rows.entries):
        raise RatingError(f"a page of {rows!r} holds a player with fewer than {min_games} games")
    entries = tuple(
        RankedStanding(rank, standing)
        for rank, standing in enumerate(rows.entries, start=rows.offset + 1)
    )
    return AllTimePage(entries, rows.offset, rows.total, min_games)
