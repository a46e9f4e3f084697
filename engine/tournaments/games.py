"""The facts a tournament is made of: who entered, who meets whom, and how it ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Format(enum.StrEnum):
    """How players are paired; the value is the word stored and typed in commands."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    KNOCKOUT = "knockout"


class Result(enum.StrEnum):
    """How one tournament game ended; the value is the word stored."""

    FIRST_WON = "first"
    SECOND_WON = "second"
    DRAW = "draw"
    """Three-round variant only; a knockout game that ends so is replayed."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: the Discord user and the rating that seeds them."""

    player: int
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: ``first`` starts the match (seat 0); no ``second`` is a bye."""

    table: int
    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Game:
    """A pairing of a round and, once known, its result (a bye has none and scores 1)."""

    round: int
    pairing: Pairing
    result: Result | None = None

    @property
    def first(self) -> int:
        return self.pairing.first

    @property
    def second(self) -> int | None:
        return self.pairing.second

    @property
    def is_bye(self) -> bool:
        return self.pairing.is_bye

    @property
    def is_over(self) -> bool:
        return self.is_bye or self.result is not None

    @property
    def winner(self) -> int | None:
        """The winner; for a bye the player who had it; None for a draw or an open game."""
        if self.pairing.second is None:
            return self.pairing.first
        if self.result is Result.FIRST_WON:
            return self.pairing.first
        if self.result is Result.SECOND_WON:
            return self.pairing.second
        return None

    @property
    def loser(self) -> int | None:
        if self.pairing.second is None or self.result is None or self.result is Result.DRAW:
            return None
        return self.pairing.second if self.result is Result.FIRST_WON else self.pairing.first


@dataclass(frozen=True, slots=True)
class Round:
    """The pairings of one round, in table order."""

    number: int
    pairings: tuple[Pairing, ...]

    def games(self) -> tuple[Game, ...]:
        return tuple(Game(self.number, pairing) for pairing in self.pairings)


@dataclass(frozen=True, slots=True)
class Finished:
    """No round follows: the tournament is over."""


def seeded(entrants: list[Entrant] | tuple[Entrant, ...]) -> tuple[Entrant, ...]:
    """Entrants best rating first; equal ratings keep their registration order.

    >>> [e.player for e in seeded([Entrant(1, 1500.0), Entrant(2, 1600.0), Entrant(3, 1500.0)])]
    [2, 1, 3]
    """
    return tuple(sorted(entrants, key=lambda entrant: -entrant.rating))
