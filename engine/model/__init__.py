"""The service's model: the plain frozen values the store keeps and the service hands out.

The store persists them and the bot reads them; neither owns them. ``engine.service``
re-exports them for the bot.
"""

from engine.model.matches import (
    AI_USER_ID,
    OPEN_SEAT,
    DecisionRow,
    MatchInfo,
    MatchStatus,
    Placement,
)
from engine.model.results import FinishedMatch
from engine.model.settings import ExpiryPolicy, GuildSettings, SeasonLength, UserSettings
from engine.model.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentGame,
    TournamentStatus,
)

__all__ = [
    "AI_USER_ID",
    "OPEN_SEAT",
    "DecisionRow",
    "ExpiryPolicy",
    "FinishedMatch",
    "GuildSettings",
    "MatchInfo",
    "MatchStatus",
    "Placement",
    "SeasonLength",
    "Tournament",
    "TournamentEntry",
    "TournamentGame",
    "TournamentStatus",
    "UserSettings",
]
