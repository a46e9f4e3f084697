"""What a season is and what it shows: plain frozen values for the store, service and bot."""

from __future__ import annotations

from dataclasses import dataclass

from engine.model import SeasonLength
from engine.ratings import Glicko2Rating

DEFAULT_MIN_GAMES = 5
"""Rated matches a member plays in a season before they are ranked in it (the service's
``season_min_games`` may set another)."""
PODIUM_PLACES = 3


@dataclass(frozen=True, slots=True)
class Season:
    """One season of one server; ``number`` counts the server's seasons from 1."""

    guild_id: int
    number: int
    started_at: float
    ends_at: float | None
    """When it ends by itself (its length's boundary), or None: it ends only by hand."""
    length: SeasonLength = SeasonLength.OFF
    ended_at: float | None = None
    """When it ended; None while it runs."""
    podium_shown: bool = False
    """Its end was announced (or there was nowhere to announce it)."""

    @property
    def running(self) -> bool:
        return self.ended_at is None

    def holds(self, finished_at: float) -> bool:
        """Whether a match finished at ``finished_at`` counts in this season."""
        return self.started_at <= finished_at and (
            self.ended_at is None or finished_at < self.ended_at
        )


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """A rated match as a season counts it (a row of the store's rated results)."""

    match_id: int
    players: tuple[int, int]
    winner_seat: int | None
    """None for a draw."""
    finished_at: float


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """A member's season so far: a rating started anew, and their games."""

    user_id: int
    rating: Glicko2Rating
    games: int
    wins: int
    losses: int
    draws: int
    rank: int | None
    """1 for the best; None until the member played the season's minimum of games."""


@dataclass(frozen=True, slots=True)
class SeasonPage:
    """One page of a season's ranking: ``entries[i]`` is ranked ``offset + i + 1``."""

    season: Season
    entries: tuple[SeasonStanding, ...]
    offset: int
    total: int
    """How many members are ranked (the top only, for a season that ended)."""
    min_games: int


@dataclass(frozen=True, slots=True)
class BestSeason:
    """A member's best finish in a season that ended: the lowest rank, then the newest."""

    number: int
    rank: int
    rating: float


@dataclass(frozen=True, slots=True)
class MemberSeasons:
    """What `/hanamikoji stats` shows of seasons: the running one and the best past one."""

    current: Season | None
    standing: SeasonStanding | None
    """The member's line in the running season; None before their first game in it."""
    min_games: int
    best: BestSeason | None


@dataclass(frozen=True, slots=True)
class SeasonEnded:
    """A season ended: its podium, where to announce it, and the season that followed."""

    season: Season
    podium: tuple[SeasonStanding, ...]
    """Up to three ranked members, best first (fewer when fewer were ranked)."""
    channel_id: int | None
    """Where to announce it (:func:`~engine.seasons.announcement_channel`); None: nowhere."""
    next_season: Season | None
