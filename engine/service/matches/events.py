"""What happens in a match, from its start to its end, in the order it happened.

Every event is public: it never holds a hand, a Secret or Trade-off card before scoring,
the pile or the removed card. Private information is only reachable through
:meth:`MatchQueries.view_for`. Seats are 0 and 1; ``user_id`` is the seat's user
(:data:`~engine.model.AI_USER_ID` for the AI).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.rules.decisions import Competition, Gift
from engine.rules.notation import Move
from engine.rules.outcome import MatchOutcome, RoundResult
from engine.rules.state import Variant


@dataclass(frozen=True, slots=True)
class MatchStarted:
    match_id: int
    players: tuple[int, int]
    first_player: int
    """The seat that plays first in round 1 (drawn at random and recorded)."""
    variant: Variant
    ai_level: str | None
    guild_id: int | None
    channel_id: int | None
    turn_deadline: float | None
    hints: bool = False
    """Its player sees the AI's suggestion for their seat (only against the AI); the board
    says so."""


@dataclass(frozen=True, slots=True)
class NextTurn:
    """What the rules say follows a decision, so whoever shows it works out no rule."""

    player: int | None
    """The seat that decides next (None once the match is over)."""
    user_id: int | None
    """That seat's user (None once the match is over)."""
    round_ended: bool
    """The decision ended its round (its scoring is announced by RoundScored)."""
    offer_open: bool
    """A Gift or Competition now waits for ``player``'s choice (announced by ChoiceNeeded)."""


@dataclass(frozen=True, slots=True)
class DecisionApplied:
    match_id: int
    player: int
    """The seat that decided."""
    user_id: int
    move: Move
    """As a spectator sees it: ``1X``/``2XX`` for Secret and Trade-off, an offer without
    its choice (``3EEG``), or a completed offer (``3EEG-E``) when ``player`` chose."""
    version: int
    """The match version after this decision."""
    automatic: bool
    """True when the turn timer ran out and the AI played for the absent player."""
    turn_deadline: float | None
    """The deadline for the next decision (None when the match ended)."""
    next: NextTurn | None = None
    """Who decides next and why; None only in an announcement stored by a version before
    this field existed (shown then as a late one: its line, nobody told it is their turn)."""


@dataclass(frozen=True, slots=True)
class ChoiceNeeded:
    """A Gift or Competition waits for ``player`` to take cards."""

    match_id: int
    player: int
    user_id: int
    offer: Gift | Competition
    version: int


@dataclass(frozen=True, slots=True)
class RoundScored:
    match_id: int
    result: RoundResult
    """Includes both revealed Secrets."""
    version: int
    next_starter: int | None = None
    """The seat that starts the next round; None when this round ended the match (or in
    an announcement stored by a version before this field existed)."""


@dataclass(frozen=True, slots=True)
class Reminder:
    """``player``'s turn timer runs out soon (sent once per turn)."""

    match_id: int
    player: int
    user_id: int
    deadline: float
    version: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    match_id: int
    players: tuple[int, int]
    outcome: MatchOutcome
    winner_id: int | None
    """None for a draw."""
    version: int


@dataclass(frozen=True, slots=True)
class MatchResumed:
    """The service started with this match under way. Published once per start, after the
    announcements left undelivered: whoever shows the match brings it up to date (its
    place and board may have missed changes while the bot was down)."""

    match_id: int
    version: int


@dataclass(frozen=True, slots=True)
class MatchBroken:
    """A stored match no longer replays through the engine; it was set aside at start-up."""

    match_id: int
    reason: str


class PlaceLost(enum.StrEnum):
    """Why a match was abandoned: its place is gone."""

    CHANNEL_DELETED = "channel_deleted"
    REMOVED_FROM_SERVER = "removed_from_server"


@dataclass(frozen=True, slots=True)
class MatchAbandoned:
    """The match's place is gone (its channel deleted, or the bot removed from its server)
    and it ended unplayed from here: unrated, no result. Not kept for a restart: its place
    is gone, so only its players can be told, once."""

    match_id: int
    players: tuple[int, int]
    started: bool
    """False for a challenge nobody had accepted yet."""
    guild_id: int | None
    channel_id: int | None
    version: int
    because: PlaceLost
    ai_level: str | None = None
    """The AI's level when it held a seat."""


@dataclass(frozen=True, slots=True)
class TurnOverdue:
    """Turn-based: the player to move ran out of days. Their opponent may choose what
    happens from ``claim_at`` (a grace: nobody loses while asleep)."""

    match_id: int
    player: int
    user_id: int
    claim_at: float
    version: int


@dataclass(frozen=True, slots=True)
class ClaimOffered:
    """Turn-based: the grace of an overdue turn is over; the waiting player (``player``,
    ``user_id``) may claim the win, let the AI play the turn, or keep waiting."""

    match_id: int
    player: int
    user_id: int
    late_user_id: int
    version: int


@dataclass(frozen=True, slots=True)
class TurnClockChanged:
    """The running turn's deadline moved without a decision: its opponent chose to keep
    waiting, or the player's vacation paused or resumed it."""

    match_id: int
    user_id: int
    """The player to move."""
    deadline: float | None
    paused_until: float | None
    version: int
