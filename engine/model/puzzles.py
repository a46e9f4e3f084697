"""Puzzles as the store keeps them: each puzzle with its rating, each member's puzzle
standing in a server, and one attempt (the puzzle itself is :class:`engine.puzzles.Puzzle`,
kept as its JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.ratings.glicko2 import Glicko2Rating


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    key: str
    """``match/<match id>/<step>`` for a server's own, ``builtin/<n>/<step>`` for the
    built-in set (:mod:`engine.puzzles.builtin`)."""
    guild_id: int | None
    """The server whose match it comes from; None for a built-in one (every server's)."""
    match_id: int | None
    """The finished match it was found in (its record is the position); None: built-in."""
    body: str
    """The :class:`engine.puzzles.Puzzle` as JSON."""
    rating: Glicko2Rating = field(default_factory=Glicko2Rating)
    attempts: int = 0
    solves: int = 0
    ease: float = 0.0
    """How far its best move stands out (:attr:`engine.puzzles.Puzzle.ease`): among puzzles
    of one rating, a streak poses the easier first."""


@dataclass(frozen=True, slots=True)
class StreakRun:
    """A puzzle streak under way: the puzzles solved in a row in it, and the one posed now.

    A streak climbs a ladder of the puzzles the member never attempted, ordered by rating,
    then the easier first (the larger ``ease``), then by key; ``rating``, ``ease`` and
    ``key`` are the posed puzzle's place on it, so the next is the first after it."""

    key: str
    rating: float
    ease: float
    solved: int = 0
    answered: bool = False
    """The posed puzzle was solved: the next press climbs on."""

    @property
    def place(self) -> tuple[float, float, str]:
        return (self.rating, self.ease, self.key)


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """A member's puzzles in one server."""

    guild_id: int
    user_id: int
    rating: Glicko2Rating = field(default_factory=Glicko2Rating)
    attempts: int = 0
    solved: int = 0
    streak: int = 0
    """Solved in a row since the last miss, in the rated puzzles."""
    best_streak: int = 0
    run: StreakRun | None = None
    """The streak mode's run under way (unrated; ends at the first miss), if any."""
    run_best: int = 0
    """The most puzzles solved in one streak run."""


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    guild_id: int
    user_id: int
    key: str
    choice: str
    """The decision chosen, in notation."""
    solved: bool
    at: float
    rated: bool = True
    """False for a streak's attempt: neither rating moves."""
