"""Why a match refused a call: not found, not active or not finished, not the caller's
match or turn, a stale version, hidden from the viewer."""

from __future__ import annotations

from engine.service.errors import ServiceError


class MatchNotFound(ServiceError):
    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(f"there is no match {match_id}")


class MatchNotActive(ServiceError):
    """The match exists but is not being played (still a challenge, over, or broken)."""

    def __init__(self, match_id: int, status: str) -> None:
        self.match_id = match_id
        self.status = status
        super().__init__(f"match {match_id} is {status}, not being played")


class MatchNotFinished(ServiceError):
    """Asked of a match that has not ended: its record (which holds every hidden card), or
    a rematch."""

    def __init__(self, match_id: int, status: str, wanted: str = "its record is available") -> None:
        self.match_id = match_id
        self.status = status
        super().__init__(f"match {match_id} is {status}; {wanted} once it ends")


class HiddenFromViewer(ServiceError):
    """Asked, of a finished match, for what holds its hidden cards (its record, its
    judgement) by a spectator the players do not both share it with
    (:mod:`engine.service.reviews.sight`)."""

    def __init__(self, match_id: int, viewer_id: int, what: str) -> None:
        self.match_id = match_id
        self.viewer_id = viewer_id
        super().__init__(
            f"user {viewer_id} may not see {what} of match {match_id}: they did not play it "
            "and its players do not both share it"
        )


class NotYourMatch(ServiceError):
    """Only the two players may act in a match (and only the right one on a challenge)."""

    def __init__(self, match_id: int, user_id: int, why: str = "you are not playing in it") -> None:
        self.match_id = match_id
        self.user_id = user_id
        super().__init__(f"user {user_id} cannot act in match {match_id}: {why}")


class NotYourTurn(ServiceError):
    def __init__(self, match_id: int, user_id: int, waiting_for: int | None) -> None:
        self.match_id = match_id
        self.user_id = user_id
        self.waiting_for = waiting_for
        super().__init__(f"it is not user {user_id}'s turn in match {match_id}")


class StaleVersion(ServiceError):
    """The submission was made on an older view; nothing was applied."""

    def __init__(self, match_id: int, expected: int, current: int) -> None:
        self.match_id = match_id
        self.expected = expected
        self.current = current
        super().__init__(
            f"match {match_id} has moved on (you saw version {expected}, it is now at "
            f"{current}); look at the board again"
        )


class ClaimNotOffered(ServiceError):
    """Claim, Let the AI play or Keep waiting pressed before an overdue turn-based match's
    grace is over (or in a match that is not turn-based)."""

    def __init__(self, match_id: int, user_id: int) -> None:
        self.match_id = match_id
        self.user_id = user_id
        super().__init__(
            f"user {user_id} cannot choose for match {match_id}: its player to move is not "
            "past their days and the grace"
        )
