"""What the review feature needs: the service's queries, settings (a player's choice to
share) and reviews (the match as each viewer may see it), the names and languages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.review.judgement import MatchReview
from engine.review.seen_match import SeenMatch
from engine.service import MatchPlacements, MatchQueries, MatchSettings
from engine.service.reviews.service import ReviewProgress


class Reviews(Protocol):
    """The match service's reviews (``service.reviews``): what this feature asks of them."""

    async def seen(self, match_id: int, viewer_id: int, guild_id: int | None) -> SeenMatch:
        """The finished match as the viewer may see it, with its judgement once stored."""
        ...

    async def review(
        self, match_id: int, viewer_id: int, progress: ReviewProgress | None = None
    ) -> MatchReview:
        """The finished match's review for a viewer who may see it: the stored one at
        once, else analysed and stored."""
        ...


@dataclass(frozen=True, slots=True)
class ReviewDeps:
    queries: MatchQueries
    placements: MatchPlacements
    settings: MatchSettings
    reviews: Reviews
    names: PlayerNames
    languages: ServerLanguages
