"""What the seasons feature's commands and podium need."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.discord_plumbing.places import Places
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.service import Event, MatchSeasons


@dataclass(frozen=True, slots=True)
class SeasonDeps:
    seasons: MatchSeasons
    places: Places
    names: PlayerNames
    languages: ServerLanguages
    """The podium is public: the server's language."""
    announced: Callable[[Event], None]
    """Tells the service a podium was posted (or refused for good): never posted again."""
