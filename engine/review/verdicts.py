"""From a decision's loss of match chance to its verdict; the thresholds come from data.

The loss is ``chance_before - chance_after``: how much of the mover's chance of winning
the match the decision gave away compared with the best decision the search found. How
the thresholds were picked (the search's own noise, and the losses of the AI levels'
decisions) is in docs/review.md; ``python -m bench.review_losses`` re-measures them.
"""

from __future__ import annotations

from engine.review.judgement import Verdict

INACCURACY_LOSS = 0.05
"""Below this a loss is within the search's noise: GOOD, never flagged."""
MISTAKE_LOSS = 0.10
BLUNDER_LOSS = 0.20


def verdict_for(loss: float, *, forced: bool, best: bool) -> Verdict:
    """The verdict of a decision that lost ``loss`` of the mover's chance (0 to 1)."""
    if forced:
        return Verdict.FORCED
    if best:
        return Verdict.BEST
    if loss >= BLUNDER_LOSS:
        return Verdict.BLUNDER
    if loss >= MISTAKE_LOSS:
        return Verdict.MISTAKE
    if loss >= INACCURACY_LOSS:
        return Verdict.INACCURACY
    return Verdict.GOOD
