"""What the review feature needs: the service's queries, settings and reviews, the stored
decisions (for the turn deadlines the thread's board showed), the names and languages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import DecisionRow
from engine.review.judgement import MatchReview
from engine.service import MatchPlacements, MatchQueries, MatchSettings
from engine.service.reviews import ReviewProgress


class Reviews(Protocol):
    """The match service's reviews (``service.reviews``): what this feature asks of them."""

    async def review(self, match_id: int, progress: ReviewProgress | None = None) -> MatchReview:
        """The finished match's review: the stored one at once, else analysed and stored."""
        ...

    async def stored(self, match_id: int) -> MatchReview | None:
        """The stored review, or None before the first analysis."""
        ...


@dataclass(frozen=True, slots=True)
class ReviewDeps:
    queries: MatchQueries
    placements: MatchPlacements
    settings: MatchSettings
    reviews: Reviews
    decisions: Callable[[int], Awaitable[list[DecisionRow]]]
    """A match's stored decisions, oldest first (the store's ``decisions``)."""
    names: PlayerNames
    languages: ServerLanguages
