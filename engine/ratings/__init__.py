"""Ratings per player per server: Glicko-2 maths, which matches count, and standings.

Pure and synchronous like the rules: the match service reads and writes standings through
its store, in the same transaction as the finished match.
"""

from engine.ratings.glicko2 import (
    PROVISIONAL_DEVIATION,
    Game,
    Glicko2Rating,
    RatingError,
    rate,
    rate_match,
)
from engine.ratings.leaderboard import (
    LEADERBOARD_MIN_GAMES,
    AllTimePage,
    RankedStanding,
    ranked_page,
)
from engine.ratings.rated_match import (
    GLOBAL_RATINGS,
    is_rated,
    rate_finished_match,
    ratings_key,
    seat_scores,
)
from engine.ratings.reliability import Reliability
from engine.ratings.standing import (
    LeaderboardPage,
    PlayerStats,
    RatedMatch,
    RatingChange,
    Standing,
)

__all__ = [
    "GLOBAL_RATINGS",
    "LEADERBOARD_MIN_GAMES",
    "PROVISIONAL_DEVIATION",
    "AllTimePage",
    "Game",
    "Glicko2Rating",
    "LeaderboardPage",
    "PlayerStats",
    "RankedStanding",
    "RatedMatch",
    "RatingChange",
    "RatingError",
    "Reliability",
    "Standing",
    "is_rated",
    "ranked_page",
    "rate",
    "rate_finished_match",
    "rate_match",
    "ratings_key",
    "seat_scores",
]
