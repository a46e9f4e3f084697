"""Every kind of event the service publishes, one union over every feature's events.

Each feature declares its own facts (``<feature>/events.py``); this module only gathers
them, so the bus, the outbox and its codec, and whoever subscribes know every kind. An
event the public must see is committed with the write that causes it and delivered once
through the one bus (:mod:`engine.service.announcing`); a feature never calls anyone back
by itself.
"""

from __future__ import annotations

from engine.seasons import SeasonEnded
from engine.service.challenges.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeIssued,
)
from engine.service.matches.events import (
    ChoiceNeeded,
    ClaimOffered,
    DecisionApplied,
    MatchAbandoned,
    MatchBroken,
    MatchEnded,
    MatchResumed,
    MatchStarted,
    NextTurn,
    PlaceLost,
    Reminder,
    RoundScored,
    TurnClockChanged,
    TurnOverdue,
)
from engine.service.puzzles.events import DailyPuzzlePosted
from engine.service.tournaments.events import (
    PlayerWithdrawn,
    RoundPaired,
    TournamentEnded,
    TournamentStarted,
)

__all__ = [
    "ChallengeAccepted",
    "ChallengeCancelled",
    "ChallengeDeclined",
    "ChallengeExpired",
    "ChallengeIssued",
    "ChoiceNeeded",
    "ClaimOffered",
    "DailyPuzzlePosted",
    "DecisionApplied",
    "Event",
    "MatchAbandoned",
    "MatchBroken",
    "MatchEnded",
    "MatchEvent",
    "MatchResumed",
    "MatchStarted",
    "NextTurn",
    "PlaceLost",
    "PlayerWithdrawn",
    "Reminder",
    "RoundPaired",
    "RoundScored",
    "SeasonEnded",
    "TournamentEnded",
    "TournamentEvent",
    "TournamentStarted",
    "TurnClockChanged",
    "TurnOverdue",
]

MatchEvent = (
    ChallengeIssued
    | ChallengeAccepted
    | ChallengeDeclined
    | ChallengeCancelled
    | ChallengeExpired
    | MatchStarted
    | DecisionApplied
    | ChoiceNeeded
    | RoundScored
    | Reminder
    | TurnOverdue
    | ClaimOffered
    | TurnClockChanged
    | MatchEnded
    | MatchResumed
    | MatchBroken
    | MatchAbandoned
)
"""What happens to one match (each has its ``match_id``), a challenge's included."""

TournamentEvent = TournamentStarted | RoundPaired | PlayerWithdrawn | TournamentEnded

Event = MatchEvent | SeasonEnded | TournamentEvent | DailyPuzzlePosted
"""Every kind the bus carries; tests/engine/service/test_one_shape.py lists them."""
