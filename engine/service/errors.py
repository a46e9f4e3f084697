"""Typed refusals of the match service; ``message`` is short, user-facing, and quotes the input.

:class:`engine.rules.errors.IllegalDecision` passes through the service unchanged. A
feature's own refusals are its ``errors.py`` (:mod:`engine.service.challenges.errors`,
:mod:`engine.service.tournaments.errors`), each built on :class:`ServiceError`.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every refusal; show ``message`` to the user as it is."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


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


class InvalidRequest(ServiceError):
    """An argument out of range, e.g. a turn timer of ``-5`` seconds or an unknown AI level."""


class ServiceClosed(ServiceError):
    def __init__(self) -> None:
        super().__init__("the match service is shutting down; try again in a moment")


class ReviewUnavailable(ServiceError):
    """A review asked of a match that has none to give: unknown, or not finished (a review
    shows every hidden card, so only a finished match has one)."""

    def __init__(self, match_id: int, reason: str) -> None:
        self.match_id = match_id
        self.reason = reason
        super().__init__(f"match {match_id} cannot be reviewed: {reason}")


class ReviewFailed(ServiceError):
    """The analysis could not be finished or kept (the AI's worker process died, or the
    database refused); nothing was stored, so asking again starts afresh."""

    def __init__(self, match_id: int, reason: str) -> None:
        self.match_id = match_id
        self.reason = reason
        super().__init__(f"the review of match {match_id} failed: {reason}; try again later")


class HintFailed(ServiceError):
    """The AI's worker process could not work out a hint; asking again tries afresh."""

    def __init__(self, match_id: int, reason: str) -> None:
        self.match_id = match_id
        self.reason = reason
        super().__init__(f"no hint for match {match_id}: {reason}; try again in a moment")


class NoSeasonRunning(ServiceError):
    """A season ended (by hand) in a server where none runs: never started, or ended."""

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        super().__init__(f"no season is running in server {guild_id}")


class SeasonAlreadyRunning(ServiceError):
    def __init__(self, guild_id: int, number: int) -> None:
        self.guild_id = guild_id
        self.number = number
        super().__init__(f"season {number} is already running in server {guild_id}")


class SeasonNotFound(ServiceError):
    def __init__(self, guild_id: int, number: int | None) -> None:
        self.guild_id = guild_id
        self.number = number
        what = "no season yet" if number is None else f"no season {number}"
        super().__init__(f"server {guild_id} has {what}")
