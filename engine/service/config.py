"""The match service's settings; per-guild overrides live in the store (GuildSettings)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.store.rows import ExpiryPolicy


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    turn_timer_seconds: float = 24 * 3600
    """Default turn timer when neither the challenge nor the guild sets one."""
    min_turn_seconds: float = 10
    max_turn_seconds: float = 7 * 24 * 3600
    reminder_before_seconds: float = 3600
    """The reminder goes out this long before the deadline (at most half the turn timer)."""
    challenge_expiry_seconds: float = 14 * 60
    """How long a challenge waits for an answer before it expires."""
    expiry_policy: ExpiryPolicy = ExpiryPolicy.AI
    expiry_ai_level: str = "normal"
    """The AI level that plays for an absent player under :attr:`ExpiryPolicy.AI`."""
    max_active_matches: int = 5
    thread_per_match: bool = True
    """Whether a server that never chose opens a thread per match."""
    three_rounds: bool = False
    """Whether a server that never chose plays the three-round variant by default."""
    """Open matches (pending challenges included) one user may hold at once."""
    ai_levels: tuple[str, ...] = ("easy", "normal", "hard")
    ai_move_delay_seconds: float = 1.0
    """Pause before the AI plays, so its move does not land before the board updates."""
    event_queue_warn: int = 1000
    """Log a warning when a subscriber falls this many events behind."""
