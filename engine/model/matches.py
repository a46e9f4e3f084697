"""A match as the service knows it: who plays, where it is shown, how far it got.

Ids (users, guilds, channels, threads, messages) are opaque integers. Seat 0 is the
challenger (or the human in a match against the AI, or the host of an open seat), seat 1
the opponent; ``first_player`` says which seat started.

An open seat is a pending match whose seat 1 is :data:`OPEN_SEAT`: a challenge to anyone,
nobody named; the first member to accept it takes it (``engine.service.challenges``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.clocks import ChessClock, Pace, TimeControl
from engine.model.settings import ExpiryPolicy
from engine.rules.state import Variant

AI_USER_ID = 0
"""The user id that stands for the AI in a seat (Discord never uses 0 for a user)."""

OPEN_SEAT = -1
"""The user id in seat 1 of an open seat nobody has taken yet (Discord ids are positive)."""


class MatchStatus(enum.StrEnum):
    PENDING = "pending"
    """A challenge waiting for the opponent's answer, or an open seat waiting for anyone."""
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"
    """A challenge nobody answered in time."""
    BROKEN = "broken"
    """Stored decisions that no longer replay through the engine; kept for inspection."""
    ABANDONED = "abandoned"
    """Its place is gone (its channel deleted, or the bot removed from its server) before
    it ended: unrated, no result, its decisions kept."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the Discord layer shows a match; the service only stores and returns it."""

    thread_id: int | None = None
    """The match's own thread, when it has one (else it is played in its channel)."""
    board_message_id: int | None = None
    """The public board message, edited in place as the match goes on."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match as stored: who, where, which settings, and how far it got."""

    match_id: int
    status: MatchStatus
    variant: Variant
    players: tuple[int, int]
    """User ids of seat 0 (challenger) and seat 1; :data:`AI_USER_ID` for the AI."""
    guild_id: int | None
    channel_id: int | None
    turn_seconds: float
    expiry_policy: ExpiryPolicy
    created_at: float
    ai_level: str | None = None
    """The AI's level when seat 1 is the AI."""
    placement: Placement = Placement()
    challenge_expires_at: float | None = None
    seed: int | None = None
    """Set when the match starts; with the variant and first player it fixes every deal."""
    first_player: int | None = None
    started_at: float | None = None
    turn_deadline: float | None = None
    """Absolute time (clock seconds) by which the player to move must decide."""
    version: int = 0
    """How many decisions have been applied (the version players see in their views)."""
    reminded_version: int | None = None
    """The version for which the turn reminder was already sent."""
    ended_at: float | None = None
    broken_reason: str | None = None
    rematch_of: int | None = None
    """The finished match this one is a rematch of, if any."""
    rated: bool = True
    """Whether its result changes ratings (if it is a match that can be rated at all:
    :func:`engine.ratings.is_rated`); an open seat may be opened unrated."""
    hints: bool = False
    """Its player sees the AI's suggestion for their seat; only ever set on a match against
    the AI (a challenge between members is created without it and cannot gain it)."""
    pace: Pace = Pace.PER_TURN
    """With ``turn_seconds`` and ``increment_seconds``, its time control (:attr:`time_control`)."""
    increment_seconds: float = 0.0
    to_move: int | None = None
    """The user id of the player to move (:data:`AI_USER_ID` for the AI) while it is active,
    kept with each decision so a member's matches say whose turn it is in one read."""
    overdue_since: float | None = None
    """Turn-based: when the player to move ran out of days (None while they have time);
    ``turn_deadline`` is then when their opponent is offered to claim the win, and None
    once offered."""
    paused_until: float | None = None
    """Turn-based: the player to move is on vacation until then (their days start after)."""
    min_reliability: int | None = None
    """An open seat: the reliability (percent) a member needs to take it."""
    banks: tuple[float, float] | None = None
    """A clock match: each seat's bank as of the last decision (worked out from the
    decisions, not stored; None as read from the store, and for the other paces)."""

    def __post_init__(self) -> None:
        # Hints are the AI's play: a match between two members must never carry them.
        if self.hints and not self.is_ai_match:
            raise ValueError(
                f"hints are only for a match against the AI, not between {self.players!r}"
            )

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.pace, self.turn_seconds, self.increment_seconds)

    @property
    def claim_offered(self) -> bool:
        """Turn-based: the player to move is past their days and the grace, and their
        opponent may claim the win, let the AI play the turn or keep waiting (never the AI:
        against it the match only waits)."""
        return (
            self.pace is Pace.DAYS
            and self.overdue_since is not None
            and self.turn_deadline is None
            and not self.is_ai_match
        )

    @property
    def seat_to_move(self) -> int | None:
        """The seat of :attr:`to_move`, if the match is waiting on one."""
        if self.status is not MatchStatus.ACTIVE or self.to_move is None:
            return None
        return 0 if self.to_move == self.players[0] else 1

    def chess_clock(self, decisions: list[DecisionRow]) -> ChessClock | None:
        """A clock match's banks after ``decisions`` (all of them, in order); None for the
        other paces."""
        if self.pace is not Pace.CLOCK or self.started_at is None:
            return None
        return ChessClock.replay(
            self.turn_seconds,
            self.increment_seconds,
            self.started_at,
            ((row.seat, row.decided_at) for row in decisions),
        )

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays in, or None for an outsider."""
        if user_id == OPEN_SEAT:
            return None
        if user_id == self.players[0]:
            return 0
        if user_id == self.players[1]:
            return 1
        return None

    @property
    def is_open_seat(self) -> bool:
        """An open seat nobody has taken yet (whoever takes it is seat 1 from then on)."""
        return self.players[1] == OPEN_SEAT

    @property
    def is_ai_match(self) -> bool:
        return AI_USER_ID in self.players

    def is_ai_seat(self, seat: int) -> bool:
        return self.players[seat] == AI_USER_ID


@dataclass(frozen=True, slots=True)
class DecisionRow:
    """One accepted decision, as appended to a match's log."""

    seq: int
    """1 for the first decision; equals the match version once it is applied."""
    seat: int
    decision: str
    """docs/rules.md notation of the decision alone (``3EEG``, then ``-E``)."""
    decided_at: float
    automatic: bool = False
    """True when the turn timer ran out and the AI played for the absent player."""
    next_deadline: float | None = None
    """The turn deadline this decision set for the next decision."""
    next_to_move: int | None = None
    """The user id who decides next (None once the match is over)."""
    paused_until: float | None = None
    """Turn-based: the next player is on vacation until then (``next_deadline`` after it)."""
