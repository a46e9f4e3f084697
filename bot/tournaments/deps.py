"""What the tournament feature's commands, buttons and thread need."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_plumbing.places import Places
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.service.tournaments.service import TournamentService


@dataclass(frozen=True, slots=True)
class TournamentDeps:
    tournaments: TournamentService
    names: PlayerNames
    languages: ServerLanguages
    """The registration message and the tournament's thread are public: the server's language."""
    places: Places
