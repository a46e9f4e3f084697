"""Judging a finished match's decisions, each from its mover's view.

A decision is judged by the evaluation search (:mod:`engine.review.search`) run on the
view its mover had when deciding: ``chance_before`` is the chance of the best decision the
search found, ``chance_after`` the chance of the decision played, and the verdict follows
from the difference (:mod:`engine.review.verdicts`). The search is seeded with the step
number, which everyone knows, so judging a step again gives the same judgement, and
re-dealing the cards its mover could not see does not change it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.review.judgement import MatchReview, StepJudgement
from engine.review.search import evaluate
from engine.review.steps import Step, match_steps
from engine.review.verdicts import verdict_for
from engine.rules.record import MatchRecord
from engine.rules.state import GameState
from engine.rules.views import view

REVIEW_ITERATIONS = 1500
"""Play-outs per decision: sized so a typical match is analysed well under 30 s on two
cores (bench/review_figures.py measures it)."""


def judge_step(
    record: MatchRecord, step: int, *, iterations: int = REVIEW_ITERATIONS
) -> StepJudgement:
    """The judgement of the ``step``-th decision of ``record`` (1-based)."""
    for current, state in match_steps(record):
        if current.index == step:
            return _judge(current, state, iterations)
    raise ValueError(f"the match has no decision {step!r}")


def review_match(
    record: MatchRecord,
    *,
    iterations: int = REVIEW_ITERATIONS,
    progress: Callable[[int, int], None] | None = None,
) -> MatchReview:
    """Every decision of ``record`` judged in order; ``progress(done, total)`` after each."""
    steps = list(match_steps(record))
    judged: list[StepJudgement] = []
    for current, state in steps:
        judged.append(_judge(current, state, iterations))
        if progress is not None:
            progress(len(judged), len(steps))
    return MatchReview(tuple(judged), iterations)


def _judge(step: Step, state: GameState, iterations: int) -> StepJudgement:
    seen = view(state, step.player)
    evaluation = evaluate(
        seen, iterations=iterations, seed=f"step/{step.index}", include=step.decision
    )
    best = evaluation.best
    played = evaluation.of(step.decision)
    forced = len(seen.legal) == 1
    is_best = best.decision == step.decision
    # The played decision is topped up like the best one, so the best ranks first and is
    # never below it: the chance before is the best's.
    chance_before = best.chance
    loss = chance_before - played.chance
    return StepJudgement(
        step=step.index,
        round_number=step.round_number,
        player=step.player,
        move=str(step.decision),
        chance_before=chance_before,
        chance_after=played.chance,
        best=str(best.decision),
        best_chance=best.chance,
        verdict=verdict_for(loss, forced=forced, best=is_best),
    )
