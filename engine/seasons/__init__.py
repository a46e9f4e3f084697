"""Seasons: a server's standings that start over each month or quarter, or by hand.

Pure like the ratings: when a season ends (:mod:`.calendar`), who is ranked and how
(:mod:`.standings`), and where its podium is announced (:mod:`.announcement`). The match
service stores seasons and reads the rated matches they hold.
"""

from engine.model import SeasonLength
from engine.seasons.announcement import announcement_channel
from engine.seasons.calendar import season_end
from engine.seasons.season import (
    DEFAULT_MIN_GAMES,
    PODIUM_PLACES,
    BestSeason,
    MemberSeasons,
    Season,
    SeasonEnded,
    SeasonPage,
    SeasonResult,
    SeasonStanding,
)
from engine.seasons.standings import SeasonTable

__all__ = [
    "DEFAULT_MIN_GAMES",
    "PODIUM_PLACES",
    "BestSeason",
    "MemberSeasons",
    "Season",
    "SeasonEnded",
    "SeasonLength",
    "SeasonPage",
    "SeasonResult",
    "SeasonStanding",
    "SeasonTable",
    "announcement_channel",
    "season_end",
]
