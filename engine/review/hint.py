"""A hint during a match against the AI: the decision the search prefers in the player's
seat, and the player's chance of winning the match if they play it.

It is the review's search (:mod:`engine.review.search`) with a budget that fits about a
second, run on the player's own view only, seeded with the table's version (public), so
asking twice for the same position gives the same hint.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.review.search import evaluate
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView

HINT_ITERATIONS = 1000
"""Play-outs per hint: well under a second on this machine (bench/review_figures.py)."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    decision: Decision
    chance: float
    """The player's chance of winning the match if they play ``decision``, 0 to 1."""


def suggest(view: PlayerView, *, iterations: int = HINT_ITERATIONS) -> Suggestion:
    """The search's preferred decision in ``view`` (which must be this player's decision)."""
    best = evaluate(view, iterations=iterations, seed=f"hint/{view.table.version}").best
    return Suggestion(best.decision, best.chance)
