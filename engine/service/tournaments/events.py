"""What happens in a tournament, for the Discord layer to show in the tournament's thread."""

from __future__ import annotations

from dataclasses import dataclass

from engine.model import Tournament, TournamentGame
from engine.tournaments import Standing


@dataclass(frozen=True, slots=True)
class TournamentStarted:
    tournament: Tournament
    players: tuple[int, ...]
    """In seed order."""


@dataclass(frozen=True, slots=True)
class RoundPaired:
    tournament: Tournament
    round: int
    games: tuple[TournamentGame, ...]
    """The tables as paired, committed before their matches start (so without match ids:
    each match is told by its own ``MatchStarted``, and ``tournaments.games`` links it)."""


@dataclass(frozen=True, slots=True)
class PlayerWithdrawn:
    tournament: Tournament
    user_id: int
    removed_by: int | None
    """The organiser who removed them, or None when they left."""


@dataclass(frozen=True, slots=True)
class TournamentEnded:
    tournament: Tournament
    standings: tuple[Standing, ...]
    """Final standings, best first (empty for a cancelled tournament)."""
