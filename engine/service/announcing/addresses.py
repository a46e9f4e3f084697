"""Where each announced event lives in the outbox: its match (None for a server-level
feature's fact) and its key there. An event with no address is only published."""

from __future__ import annotations

from engine.seasons import SeasonEnded
from engine.service.events import (
    ChallengeExpired,
    ChoiceNeeded,
    ClaimOffered,
    DailyPuzzlePosted,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchStarted,
    PlayerWithdrawn,
    Reminder,
    RoundPaired,
    RoundScored,
    TournamentEnded,
    TournamentStarted,
    TurnOverdue,
)

Address = tuple[int | None, str]
"""(match id or None, key): unique in the outbox."""

ANNOUNCED = (
    MatchStarted,
    DecisionApplied,
    ChoiceNeeded,
    RoundScored,
    Reminder,
    TurnOverdue,
    ClaimOffered,
    MatchEnded,
    ChallengeExpired,
    SeasonEnded,
    TournamentStarted,
    RoundPaired,
    PlayerWithdrawn,
    TournamentEnded,
    DailyPuzzlePosted,
)
"""The kinds of event kept in the outbox until shown; the others are only published."""


def announcement_key(event: Event) -> str | None:
    """The event's key in the outbox (None for a kind that is only published). A match's
    keys are unique within the match; the others' keys name their season, their tournament
    or their server's day."""
    if isinstance(event, DecisionApplied):
        return f"decision@{event.version}"
    if isinstance(event, ChoiceNeeded):
        return f"choice@{event.version}"
    if isinstance(event, RoundScored):
        return f"round@{event.version}"
    if isinstance(event, Reminder):
        return f"reminder@{event.version}"
    if isinstance(event, TurnOverdue):
        return f"overdue@{event.version}"
    if isinstance(event, ClaimOffered):
        return f"claim@{event.version}"
    if isinstance(event, MatchStarted):
        return "started"
    if isinstance(event, MatchEnded):
        return "ended"
    if isinstance(event, ChallengeExpired):
        return "expired"
    if isinstance(event, SeasonEnded):
        # Nowhere to announce it: a fact for subscribers, nothing to keep.
        if event.channel_id is None:
            return None
        return f"season@{event.season.guild_id}:{event.season.number}"
    if isinstance(event, DailyPuzzlePosted):
        return f"daily-puzzle@{event.guild_id}:{event.day}"
    if isinstance(event, TournamentStarted | RoundPaired | PlayerWithdrawn | TournamentEnded):
        return f"tournament@{event.tournament.tournament_id}:{_tournament_part(event)}"
    return None


def _tournament_part(
    event: TournamentStarted | RoundPaired | PlayerWithdrawn | TournamentEnded,
) -> str:
    if isinstance(event, TournamentStarted):
        return "started"
    if isinstance(event, RoundPaired):
        return f"round@{event.round}"
    if isinstance(event, PlayerWithdrawn):
        return f"withdrawn@{event.user_id}"
    return "ended"


def match_of(event: Event) -> int | None:
    """The match the event belongs to (None for a season's or a tournament's)."""
    return getattr(event, "match_id", None)


def address(event: Event) -> Address | None:
    """The event's place in the outbox, or None when it is only published."""
    key = announcement_key(event)
    return None if key is None else (match_of(event), key)
