"""The result of a finished match, kept for ratings, stats and history."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.outcome import Termination
from engine.rules.state import Variant


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """The result of a finished match, kept for ratings, stats and history."""

    match_id: int
    guild_id: int | None
    variant: Variant
    players: tuple[int, int]
    ai_level: str | None
    winner_seat: int | None
    """None for a draw (three-round variant only)."""
    winner_id: int | None
    reason: Termination
    rounds: int
    started_at: float
    finished_at: float
    record: str
    """The full match record as JSON (docs/record-format.md; engine.rules.record.MatchRecord)."""

    @property
    def duration_seconds(self) -> float:
        return self.finished_at - self.started_at
