"""Puzzles from real matches: the decisions where a player missed a clearly better move,
posed from that player's view only, each with the reason in data and a Glicko-2 rating.

Pure and synchronous like the review it builds on: :mod:`.generator` finds them in a
reviewed match, :mod:`.reasons` says why the answer is better, :mod:`.rating` rates an
attempt. The match service stores them and hands them out.
"""

from engine.puzzles.generator import (
    MAX_CHOICES,
    PUZZLE_ITERATIONS,
    PUZZLE_LOSS,
    SECOND_GAP,
    SOLVED_MARGIN,
    candidate_steps,
    find_puzzles,
    puzzle_at,
    puzzle_view,
)
from engine.puzzles.puzzle import Choice, Puzzle, PuzzleFormatError
from engine.puzzles.rating import rate_attempt
from engine.puzzles.reasons import Reason, ReasonKind, reason_for

__all__ = [
    "MAX_CHOICES",
    "PUZZLE_ITERATIONS",
    "PUZZLE_LOSS",
    "SECOND_GAP",
    "SOLVED_MARGIN",
    "Choice",
    "Puzzle",
    "PuzzleFormatError",
    "Reason",
    "ReasonKind",
    "candidate_steps",
    "find_puzzles",
    "puzzle_at",
    "puzzle_view",
    "rate_attempt",
    "reason_for",
]
