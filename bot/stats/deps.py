"""What the stats feature needs: the service's queries, the players' settings (whether
they share their finished matches: :mod:`engine.service.sight`), names, and the seasons."""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.player_names import PlayerNames
from engine.service import MatchQueries, MatchSeasons, MatchSettings


@dataclass(frozen=True, slots=True)
class StatsDeps:
    queries: MatchQueries
    settings: MatchSettings
    names: PlayerNames
    seasons: MatchSeasons
