"""The match service's settings; per-guild overrides live in the store (GuildSettings).

The bot reads these from the ``[matches]`` table of its TOML file, key for field, so a
field added here is a setting at once (and must be documented in config.example.toml).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from engine.ai.levels import LEVELS
from engine.clocks.vacation import DEFAULT_DAYS_PER_YEAR
from engine.model import ExpiryPolicy
from engine.ratings.leaderboard import LEADERBOARD_MIN_GAMES
from engine.review.hint import HINT_ITERATIONS
from engine.review.judge import REVIEW_ITERATIONS
from engine.review.search import MOST_ITERATIONS
from engine.seasons.season import DEFAULT_MIN_GAMES


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    turn_timer_seconds: float = 24 * 3600
    """Default turn timer when neither the challenge nor the guild sets one."""
    min_turn_seconds: float = 10
    """The shortest turn timer a challenge or a server may choose."""
    max_turn_seconds: float = 7 * 24 * 3600
    """The longest turn timer a challenge or a server may choose."""
    vacation_days: int = DEFAULT_DAYS_PER_YEAR
    """The vacation days a year a member of a server that never chose may take."""
    reminder_before_seconds: float = 3600
    """The reminder goes out this long before the deadline (at most half the turn timer)."""
    challenge_expiry_seconds: float = 14 * 60
    """How long a challenge waits for an answer before it expires."""
    expiry_policy: ExpiryPolicy = ExpiryPolicy.AI
    expiry_ai_level: str = "normal"
    """The AI level that plays for an absent player under :attr:`ExpiryPolicy.AI`."""
    max_active_matches: int = 5
    """Open matches one user may hold at once: the matches they play and the challenges they
    sent (a challenge they received counts once they accept it)."""
    max_new_matches_per_hour: int = 20
    """Matches one user may start in any hour (challenges sent, matches against the AI and
    rematches alike), counted from the store so a restart does not reset it."""
    challenge_cooldown_seconds: float = 600
    """After a challenge to a member is declined, withdrawn or expires, the challenger waits
    this long before challenging that member again (0: no wait)."""
    thread_per_match: bool = True
    """Whether a server that never chose opens a thread per match."""
    three_rounds: bool = False
    """Whether a server that never chose plays the three-round variant by default."""
    ai_levels: tuple[str, ...] = ("easy", "normal", "hard")
    """The AI levels a player may challenge."""
    ai_move_delay_seconds: float = 1.5
    """Pause before the AI plays, so its move does not land before the board updates."""
    event_queue_warn: int = 1000
    """Log a warning when a subscriber falls this many events behind."""
    review_iterations: int = REVIEW_ITERATIONS
    """The search's play-outs per decision when a finished match is reviewed."""
    hint_iterations: int = HINT_ITERATIONS
    """The search's play-outs behind one hint in a match against the AI."""
    leaderboard_min_games: int = LEADERBOARD_MIN_GAMES
    """Rated matches a player plays in a server before the all-time leaderboard ranks them."""
    season_min_games: int = DEFAULT_MIN_GAMES
    """Rated matches a member plays in a season before they are ranked in it."""
    season_seconds: float | None = None
    """For tests only: a season with a length (monthly, quarterly) ends this many seconds
    after it starts instead of at the calendar boundary. Unset in production."""

    def __post_init__(self) -> None:
        for setting in fields(self):
            value = getattr(self, setting.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{setting.name} must be a finite number, got {value!r}")
        # Bounds only, no floors a person would pick: tests run matches on sub-second timers.
        if not 0 < self.min_turn_seconds <= self.turn_timer_seconds <= self.max_turn_seconds:
            raise ValueError(
                "need 0 < min_turn_seconds <= turn_timer_seconds <= max_turn_seconds, got "
                f"{self.min_turn_seconds!r}, {self.turn_timer_seconds!r}, "
                f"{self.max_turn_seconds!r}"
            )
        for name in (
            "reminder_before_seconds",
            "ai_move_delay_seconds",
            "challenge_cooldown_seconds",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)!r}")
        for name in (
            "challenge_expiry_seconds",
            "max_active_matches",
            "max_new_matches_per_hour",
            "event_queue_warn",
            "review_iterations",
            "hint_iterations",
            "leaderboard_min_games",
            "season_min_games",
        ):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("review_iterations", "hint_iterations"):
            if getattr(self, name) > MOST_ITERATIONS:
                raise ValueError(
                    f"{name} must be at most {MOST_ITERATIONS:,} play-outs per decision, "
                    f"got {getattr(self, name)!r}"
                )
        if self.season_seconds is not None and self.season_seconds <= 0:
            raise ValueError(f"season_seconds must be positive, got {self.season_seconds!r}")
        if not self.ai_levels:
            raise ValueError("ai_levels must name at least one level")
        unknown = [level for level in self.ai_levels if level not in LEVELS]
        if unknown:
            raise ValueError(f"ai_levels must be among {LEVELS!r}, got {unknown[0]!r}")
        if self.expiry_ai_level not in self.ai_levels:
            raise ValueError(
                f"expiry_ai_level must be one of ai_levels {self.ai_levels!r}, "
                f"got {self.expiry_ai_level!r}"
            )
