"""What happens to a challenge or an open seat before its match starts (an open seat is a
challenge whose opponent is anyone)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.state import Variant


@dataclass(frozen=True, slots=True)
class ChallengeIssued:
    match_id: int
    challenger_id: int
    opponent_id: int
    guild_id: int | None
    channel_id: int | None
    variant: Variant
    expires_at: float


@dataclass(frozen=True, slots=True)
class ChallengeAccepted:
    match_id: int
    challenger_id: int
    opponent_id: int


@dataclass(frozen=True, slots=True)
class ChallengeDeclined:
    match_id: int
    challenger_id: int
    opponent_id: int


@dataclass(frozen=True, slots=True)
class ChallengeCancelled:
    match_id: int
    challenger_id: int
    opponent_id: int


@dataclass(frozen=True, slots=True)
class ChallengeExpired:
    match_id: int
    challenger_id: int
    opponent_id: int
