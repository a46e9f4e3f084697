"""Typed refusals of challenges, open seats and rematches; each ``message`` quotes the input.

A challenge and an open seat are refused on one path (:mod:`.service`); the seat's words
(:class:`SeatTaken`, :class:`SeatClosed`) are those a member pressing Join or Cancel reads.
"""

from __future__ import annotations

from engine.model import MatchStatus
from engine.service.errors import ServiceError

STARTED = frozenset({MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.BROKEN})
"""What a challenge nobody can answer any more became once someone did: a match."""


class ChallengeNotPending(ServiceError):
    """Accept, decline or cancel on a challenge that was already answered."""

    def __init__(self, match_id: int, status: str) -> None:
        self.match_id = match_id
        self.status = status
        super().__init__(f"challenge {match_id} is no longer open (it is {status})")


class ChallengeExpired(ServiceError):
    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(f"challenge {match_id} has expired")


class ChallengeCooldown(ServiceError):
    """A challenge to a member soon after the challenger's last one to them went unanswered
    (declined, withdrawn or expired), or while it still waits."""

    def __init__(self, challenger_id: int, opponent_id: int, retry_at: float | None) -> None:
        self.challenger_id = challenger_id
        self.opponent_id = opponent_id
        self.retry_at = retry_at
        """When they may challenge that member again; None while a challenge still waits."""
        when = "once it is answered" if retry_at is None else f"at {retry_at:.0f}"
        super().__init__(
            f"user {challenger_id} challenged user {opponent_id} too recently; "
            f"they may challenge them again {when}"
        )


class CannotChallengeSelf(ServiceError):
    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(f"user {user_id} cannot challenge themselves")


class RematchAlreadyStarted(ServiceError):
    """Rematch pressed under a match whose rematch already began."""

    def __init__(self, match_id: int, rematch_id: int) -> None:
        self.match_id = match_id
        self.rematch_id = rematch_id
        super().__init__(f"the rematch of match {match_id} already started (match {rematch_id})")


class CannotJoinOwnSeat(ServiceError):
    """The host of an open seat pressed Join on it."""

    def __init__(self, match_id: int, user_id: int) -> None:
        self.match_id = match_id
        self.user_id = user_id
        super().__init__(f"user {user_id} opened seat {match_id}; someone else must join it")


class SeatTaken(ServiceError):
    """Join on an open seat someone else (or this member, a moment ago) took first."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(f"seat {match_id} is already taken")


class SeatClosed(ServiceError):
    """Join or Cancel on an open seat that expired, was cancelled, or lost its channel."""

    def __init__(self, match_id: int, status: str) -> None:
        self.match_id = match_id
        self.status = status
        super().__init__(f"seat {match_id} is no longer open (it is {status})")


class SeatAlreadyOpen(ServiceError):
    """A member opened a second seat in a channel where their first still waits."""

    def __init__(self, user_id: int, channel_id: int | None, match_id: int) -> None:
        self.user_id = user_id
        self.channel_id = channel_id
        self.match_id = match_id
        """The seat already open there."""
        super().__init__(f"user {user_id} already has seat {match_id} open in channel {channel_id}")


def no_longer_open(match_id: int, status: str) -> ChallengeExpired | ChallengeNotPending:
    """Why a challenge in ``status`` can no longer be answered or withdrawn."""
    if status == MatchStatus.EXPIRED:
        return ChallengeExpired(match_id)
    return ChallengeNotPending(match_id, status)


def seat_no_longer_open(error: ChallengeExpired | ChallengeNotPending) -> SeatTaken | SeatClosed:
    """``error`` in the words of an open seat: taken once it became a match, else closed.
    (Once a seat is taken its match names both players: only the press says it was a seat.)"""
    if isinstance(error, ChallengeExpired):
        return SeatClosed(error.match_id, MatchStatus.EXPIRED)
    if error.status in STARTED:
        return SeatTaken(error.match_id)
    return SeatClosed(error.match_id, error.status)


class TooManyActiveMatches(ServiceError):
    def __init__(self, user_id: int, limit: int) -> None:
        self.user_id = user_id
        self.limit = limit
        super().__init__(f"user {user_id} already has {limit} open matches, the most allowed")


class TooManyNewMatches(ServiceError):
    """The user started the most matches an hour allows (pending challenges included)."""

    def __init__(self, user_id: int, limit: int, retry_at: float) -> None:
        self.user_id = user_id
        self.limit = limit
        self.retry_at = retry_at
        super().__init__(
            f"user {user_id} already started {limit} matches in the last hour, the most "
            f"allowed; the next may start at {retry_at:.0f}"
        )


class NotReliableEnough(ServiceError):
    """Join on an open seat (or a tournament) that asks a reliability the member is below."""

    def __init__(self, user_id: int, percent: int | None, minimum: int) -> None:
        self.user_id = user_id
        self.percent = percent
        self.minimum = minimum
        super().__init__(f"user {user_id} is {percent}% reliable; {minimum}% is asked")
