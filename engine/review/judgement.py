"""What a review says: each decision's judgement and the match's, as values and as JSON.

Chances are the mover's chance of winning the match, between 0 and 1, estimated from
what the mover could see when deciding (never from cards they could not know).
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

from engine.rules.errors import RecordError

REVIEW_FORMAT = 1
"""Bumped when the stored JSON changes shape; a stored review of another format is redone."""


class Verdict(enum.StrEnum):
    """How much of the mover's chance a decision gave away (thresholds: ``verdicts``)."""

    FORCED = "forced"
    """The only legal decision: nothing to judge."""
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def flagged(self) -> bool:
        """Whether the review points the player to it (the "next mistake" button stops here)."""
        return self in (Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER)


@dataclass(frozen=True, slots=True)
class StepJudgement:
    """One decision judged from its mover's view."""

    step: int
    """1-based index of the decision in the match (see :mod:`engine.review.steps`)."""
    round_number: int
    player: int
    """The mover's seat."""
    move: str
    """The decision in notation (``3ABC``, ``-A``...)."""
    chance_before: float
    """The mover's chance before deciding: the chance of the best decision found."""
    chance_after: float
    """The mover's chance after the decision played."""
    best: str
    """The best decision found, in notation (equal to ``move`` when it was played)."""
    best_chance: float
    verdict: Verdict

    @property
    def loss(self) -> float:
        """How much chance the decision gave away (0 for the best one)."""
        return max(0.0, self.chance_before - self.chance_after)


@dataclass(frozen=True, slots=True)
class MatchReview:
    """Every decision of a finished match judged, in order."""

    steps: tuple[StepJudgement, ...]
    iterations: int
    """The search's play-outs per decision: what the chances were estimated with."""

    def flagged(self, player: int | None = None) -> tuple[StepJudgement, ...]:
        """The flagged decisions (of ``player`` when given), in match order."""
        return tuple(
            s for s in self.steps if s.verdict.flagged and (player is None or s.player == player)
        )

    def worst(self, player: int, count: int = 3) -> tuple[StepJudgement, ...]:
        """The ``count`` flagged decisions of ``player`` that gave away most: shown first."""
        ranked = sorted(self.flagged(player), key=lambda s: (-s.loss, s.step))
        return tuple(ranked[:count])

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "iterations": self.iterations,
            "steps": [
                {
                    "step": s.step,
                    "round": s.round_number,
                    "player": s.player,
                    "move": s.move,
                    "chance_before": round(s.chance_before, 4),
                    "chance_after": round(s.chance_after, 4),
                    "best": s.best,
                    "best_chance": round(s.best_chance, 4),
                    "verdict": str(s.verdict),
                }
                for s in self.steps
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> MatchReview:
        """Read a stored review; raises :class:`RecordError` for another format or a fault."""
        try:
            data = json.loads(text)
            if data.get("format") != REVIEW_FORMAT:
                raise RecordError(f"review format {data.get('format')!r}, expected {REVIEW_FORMAT}")
            steps = tuple(
                StepJudgement(
                    step=int(s["step"]),
                    round_number=int(s["round"]),
                    player=int(s["player"]),
                    move=str(s["move"]),
                    chance_before=float(s["chance_before"]),
                    chance_after=float(s["chance_after"]),
                    best=str(s["best"]),
                    best_chance=float(s["best_chance"]),
                    verdict=Verdict(s["verdict"]),
                )
                for s in data["steps"]
            )
            return cls(steps, int(data["iterations"]))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise RecordError(f"not a stored review: {error}") from None
