"""Puzzle ratings: each attempt is one Glicko-2 game between the member and the puzzle,
a solve a win for the member, a miss a win for the puzzle (lichess rates its puzzles so).

>>> from engine.ratings import Glicko2Rating
>>> member, puzzle = rate_attempt(Glicko2Rating(), Glicko2Rating(), solved=True)
>>> round(member.rating), round(puzzle.rating)
(1662, 1338)
"""

from __future__ import annotations

from engine.ratings.glicko2 import Game, Glicko2Rating, rate


def rate_attempt(
    member: Glicko2Rating, puzzle: Glicko2Rating, *, solved: bool
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Both ratings after one attempt, each rated against the other's rating before it."""
    score = 1.0 if solved else 0.0
    return (
        rate(member, [Game(puzzle, score)]),
        rate(puzzle, [Game(member, 1.0 - score)]),
    )
