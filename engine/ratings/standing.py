"""What the ratings keep per player and per match: plain frozen values for store and service."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.ratings.glicko2 import Glicko2Rating
from engine.ratings.reliability import Reliability
from engine.rules.outcome import Termination


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating and rated record in one server (ratings are per guild and user)."""

    guild_id: int
    user_id: int
    rating: Glicko2Rating = field(default_factory=Glicko2Rating)
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    """Consecutive results ending with the last: +3 is three wins, -2 two losses, 0 a draw."""
    last_change: float = 0.0
    """How much the last rated match moved the rating."""
    last_match_id: int | None = None
    updated_at: float | None = None

    @property
    def win_rate(self) -> float:
        """Wins over games (0 before any game); a draw counts as not won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def is_provisional(self) -> bool:
        """Whether the rating is still provisional (its deviation is high, as before any game)."""
        return self.rating.is_provisional


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one rated match moved one player's rating."""

    match_id: int
    guild_id: int
    user_id: int
    seat: int
    score: float
    """1 won, 0.5 drew, 0 lost."""
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """Everything a rated match writes, committed with its result: new standings, changes."""

    standings: tuple[Standing, Standing]
    """Both seats' standings after the match, seat 0 first."""
    changes: tuple[RatingChange, RatingChange]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's numbers in one server, for `/hanamikoji stats`."""

    standing: Standing
    """Their rated record (all zero and the starting rating before any rated match)."""
    wins_by: dict[Termination, int]
    """Rated wins by how they were won (charm, geishas, resignation, ...); absent means 0."""
    losses_by: dict[Termination, int]
    ai_games: int = 0
    """Finished matches against the AI in this server (never rated)."""
    ai_wins: int = 0
    reliability: Reliability = field(default_factory=lambda: Reliability(0, 0))


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a server's standings as the store reads them, in ranking order; the
    service ranks it (:func:`engine.ratings.leaderboard.ranked_page`)."""

    entries: tuple[Standing, ...]
    offset: int
    total: int
    """How many players qualify (have played at least the minimum number of games)."""
