"""Outcomes as data: what a scored round revealed and how a match ended."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.StrEnum):
    """Why a match ended; the value is the word used in replay output and storage."""

    CHARM = "charm"
    """A player reached 11 charm points."""
    GEISHAS = "geishas"
    """A player won the favor of 4 geishas."""
    ROUND_LIMIT = "round-limit"
    """Three-round variant: nobody reached the goal, the better score after round 3 won."""
    DRAW = "draw"
    """Three-round variant: equal geishas and charm after round 3."""
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What one round's scoring revealed and changed (all of it public once scored)."""

    round_number: int
    """1 for the first round."""
    starting_player: int
    secrets: tuple[int, int]
    """Each player's Secret card, revealed at scoring."""
    items: tuple[tuple[int, ...], tuple[int, ...]]
    """``items[p][g]``: player p's item cards at geisha g, Secrets included."""
    favor_before: tuple[int | None, ...]
    favor: tuple[int | None, ...]
    """``favor[g]``: the player whose side geisha g's marker is on after scoring, or None."""
    geishas: tuple[int, int]
    charm: tuple[int, int]

    @property
    def moved(self) -> tuple[int, ...]:
        """Geishas whose favor marker changed side this round."""
        return tuple(g for g in range(7) if self.favor[g] != self.favor_before[g])


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a match ended: the winner (None for a draw) and why."""

    winner: int | None
    termination: Termination
    rounds_played: int
