"""What the stats feature needs: the service's queries (which give a match's record only
to whoever may see it: :mod:`engine.service.reviews.sight`), names, and the seasons."""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.player_names import PlayerNames
from engine.service import MatchQueries, MatchSeasons
from engine.service.puzzles.service import MatchPuzzles


@dataclass(frozen=True, slots=True)
class StatsDeps:
    queries: MatchQueries
    names: PlayerNames
    seasons: MatchSeasons
    puzzles: MatchPuzzles | None = None
    """Puzzle standings (None: the stats show none)."""
