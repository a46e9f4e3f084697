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


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """A member's puzzles in one server."""

    guild_id: int
    user_id: int
    rating: Glicko2Rating = field(default_factory=Glicko2Rating)
    attempts: int = 0
    solved: int = 0
    streak: int = 0
    """Solved in a row since the last miss."""
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    guild_id: int
    user_id: int
    key: str
    choice: str
    """The decision chosen, in notation."""
    solved: bool
    at: float
