"""What the stats feature needs: the service's queries and the players' names."""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.player_names import PlayerNames
from engine.service import MatchQueries


@dataclass(frozen=True, slots=True)
class StatsDeps:
    queries: MatchQueries
    names: PlayerNames
