"""A tournament as the service keeps it: its format and place, its players and its games.

The pairing and scoring rules are in :mod:`engine.tournaments`; these are the stored
facts they work on (a game becomes an ``engine.tournaments.Game`` to be scored).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.rules.state import Variant
from engine.tournaments import Format, Result


class TournamentStatus(enum.StrEnum):
    REGISTERING = "registering"
    """Open for Join and Leave until it starts."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament: who runs it, its format and match settings, and where it is shown."""

    tournament_id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    format: Format
    status: TournamentStatus
    created_at: float
    rounds: int | None = None
    """Swiss rounds the organiser chose; None for the default (or another format)."""
    variant: Variant | None = None
    """None: the server's default variant."""
    turn_seconds: float | None = None
    """None: the server's default turn timer."""
    time_control: str | None = None
    """The code of its matches' time control (:class:`engine.clocks.TimeControl`); None:
    ``turn_seconds``, or the server's default."""
    min_reliability: int | None = None
    """The reliability (percent) a member needs to join; None: anyone may."""
    max_players: int | None = None
    starts_at: float | None = None
    """Registration closes and the tournament starts at this time (or when the organiser says)."""
    rated: bool = True
    thread_id: int | None = None
    """The tournament's thread: pairings, results, standings."""
    message_id: int | None = None
    """The public registration message (Join / Leave)."""
    started_at: float | None = None
    ended_at: float | None = None


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """A registered player; ``seed`` and ``rating`` are fixed when the tournament starts."""

    user_id: int
    joined_at: float
    seed: int | None = None
    """1 for the best rating at the start."""
    rating: float | None = None
    withdrawn_at: float | None = None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One table of a round: its pairing, the match played for it and the result."""

    round: int
    table: int
    first: int
    """Seat 0 of the match: the player who starts."""
    second: int | None
    """None: a bye."""
    match_id: int | None = None
    result: Result | None = None
