"""A puzzle: a decision of a finished match posed again to its mover, with the choices
offered (as buttons), the answer, and why; and its JSON, as the store keeps it.

It holds no card at all: the position is the mover's view at that step of the match's
record (:func:`engine.puzzles.generator.puzzle_view`), so nothing the mover could not see
can be shown from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.puzzles.reasons import Reason, ReasonKind

PUZZLE_FORMAT = 1


class PuzzleFormatError(ValueError):
    """Stored puzzle JSON that does not read back (quoted)."""


@dataclass(frozen=True, slots=True)
class Choice:
    decision: str
    """In notation (``3CDE``)."""
    chance: float
    """The mover's chance of winning the match after it, by the puzzle's search (to four
    decimals, as stored)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    step: int
    """The decision's index in its match (1-based, as the review counts)."""
    seat: int
    """The mover's seat."""
    round_number: int
    choices: tuple[Choice, ...]
    """The choices offered, in notation order (their order says nothing of the answer)."""
    solution: str
    played: str
    """What the player chose in the match (always among the choices, never the answer)."""
    reason: Reason
    iterations: int
    solved_margin: float

    @property
    def best_chance(self) -> float:
        return self.chance_of(self.solution)

    @property
    def ease(self) -> float:
        """How far the best move stands out: its chance less the best other choice's that
        does not solve it (the larger, the easier to see; 0 with no such choice)."""
        others = [c.chance for c in self.choices if not self.solved_by(c.decision)]
        return round(self.best_chance - max(others), 4) if others else 0.0

    def chance_of(self, decision: str) -> float:
        for choice in self.choices:
            if choice.decision == decision:
                return choice.chance
        raise KeyError(f"{decision!r} is not a choice of this puzzle")

    def solved_by(self, decision: str) -> bool:
        """Whether choosing ``decision`` solves it: within the margin of the best."""
        return self.chance_of(decision) >= self.best_chance - self.solved_margin

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": PUZZLE_FORMAT,
                "step": self.step,
                "seat": self.seat,
                "round": self.round_number,
                "choices": [[c.decision, c.chance] for c in self.choices],
                "solution": self.solution,
                "played": self.played,
                "reason": [str(self.reason.kind), list(self.reason.geishas)],
                "iterations": self.iterations,
                "margin": self.solved_margin,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Puzzle:
        try:
            data: dict[str, Any] = json.loads(text)
            if data["format"] != PUZZLE_FORMAT:
                raise ValueError(f"format {data['format']!r}")
            kind, geishas = data["reason"]
            puzzle = cls(
                step=int(data["step"]),
                seat=int(data["seat"]),
                round_number=int(data["round"]),
                choices=tuple(Choice(str(d), float(c)) for d, c in data["choices"]),
                solution=str(data["solution"]),
                played=str(data["played"]),
                reason=Reason(ReasonKind(kind), tuple(int(g) for g in geishas)),
                iterations=int(data["iterations"]),
                solved_margin=float(data["margin"]),
            )
            offered = {c.decision for c in puzzle.choices}
            if puzzle.solution not in offered or puzzle.played not in offered:
                raise ValueError("the solution and the move played must be among the choices")
            return puzzle
        # A deep nesting of arrays makes json.loads run out of stack (RecursionError).
        except (KeyError, TypeError, ValueError, RecursionError) as error:
            raise PuzzleFormatError(f"puzzle {text[:120]!r} does not read: {error}") from None
