"""What the clocks feature needs: the member's matches (one read), their vacations, and
names for their opponents."""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.player_names import PlayerNames
from engine.service import MatchQueries
from engine.service.matches.vacations import MatchVacations


@dataclass(frozen=True, slots=True)
class ClocksDeps:
    queries: MatchQueries
    """``games_of``: the member's matches under way in a server, theirs to play first."""
    vacations: MatchVacations
    names: PlayerNames
