"""Why a review or a hint could not be given."""

from __future__ import annotations

from engine.service.errors import ServiceError


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
