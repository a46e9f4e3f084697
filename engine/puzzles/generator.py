"""Finding puzzles in a reviewed match: the decisions whose mover missed a clearly better
move, searched again deeper and posed from the mover's view.

A decision becomes a puzzle when, by its own search (:data:`PUZZLE_ITERATIONS` play-outs,
seeded by the step, so the same match always gives the same puzzles):

- the move played lost at least :data:`PUZZLE_LOSS` of the mover's chance of winning the
  match against the best move (a mistake, by the review's thresholds);
- the best move is ahead of every other choice offered by at least :data:`SECOND_GAP`
  (the search's noise), so exactly one button solves it; a choice within
  :data:`SOLVED_MARGIN` of the best would count as solved.

Only the review's flagged decisions are searched again (a move the review found good is
not a puzzle). The choices are the best move, the move played and the next best ones, up
to :data:`MAX_CHOICES`.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.puzzles.puzzle import Choice, Puzzle
from engine.puzzles.reasons import reason_for
from engine.review.judgement import MatchReview, Verdict
from engine.review.search import MIN_VISITS_SHARE, evaluate
from engine.review.steps import match_steps
from engine.review.verdicts import MISTAKE_LOSS
from engine.rules.decisions import parse_decision
from engine.rules.record import MatchRecord
from engine.rules.views import PlayerView, view

PUZZLE_ITERATIONS = 4000
"""Play-outs of a puzzle's search, with the best's runners-up topped up to a fifth of it
each: bench/puzzle_generation.py measures how often ten times deeper agrees."""
PUZZLE_LOSS = MISTAKE_LOSS
SECOND_GAP = 0.05
SOLVED_MARGIN = 0.02
MAX_CHOICES = 4


def puzzle_view(record: MatchRecord, step: int) -> PlayerView:
    """What the mover of decision ``step`` saw when deciding: the puzzle's position."""
    for current, state in match_steps(record):
        if current.index == step:
            return view(state, current.player)
    raise ValueError(f"the match has no decision {step!r}")


def candidate_steps(review: MatchReview) -> list[int]:
    """The steps worth searching again: the review's mistakes and blunders, in order."""
    return [s.step for s in review.steps if s.verdict in (Verdict.MISTAKE, Verdict.BLUNDER)]


def puzzle_at(
    record: MatchRecord, step: int, *, iterations: int = PUZZLE_ITERATIONS
) -> Puzzle | None:
    """The puzzle of one decision, or None if it is not one (a job for a worker process:
    :func:`find_puzzles` is this for every candidate step)."""
    for current, state in match_steps(record):
        if current.index == step:
            seen = view(state, current.player)
            return _posed(seen, step, current.round_number, str(current.decision), iterations)
    raise ValueError(f"the match has no decision {step!r}")


def find_puzzles(
    record: MatchRecord, review: MatchReview, *, iterations: int = PUZZLE_ITERATIONS
) -> list[Puzzle]:
    """The puzzles of a reviewed match, in match order."""
    wanted = set(candidate_steps(review))
    return [puzzle for puzzle in _search(record, wanted, iterations) if puzzle is not None]


def _search(record: MatchRecord, wanted: set[int], iterations: int) -> Iterator[Puzzle | None]:
    for step, state in match_steps(record):
        if step.index not in wanted:
            continue
        seen = view(state, step.player)
        yield _posed(seen, step.index, step.round_number, str(step.decision), iterations)


def _posed(
    seen: PlayerView, step: int, round_number: int, played_text: str, iterations: int
) -> Puzzle | None:
    played = parse_decision(played_text)
    if len(seen.legal) < 2:
        return None
    evaluation = evaluate(
        seen,
        iterations=iterations,
        seed=f"puzzle/{step}",
        include=played,
        runners_up=MAX_CHOICES - 2,
    )
    best = evaluation.best
    if best.decision == played:
        return None  # searched deeper, the move played was the best after all
    played_chance = evaluation.of(played).chance
    if best.chance - played_chance < PUZZLE_LOSS:
        return None
    # Only choices searched as deeply as the best are offered: a chance from a handful of
    # play-outs could not tell whether it is really behind.
    min_visits = max(1, round(iterations * MIN_VISITS_SHARE))
    others = [
        e for e in evaluation.estimates[1:] if e.decision != played and e.visits >= min_visits
    ][: MAX_CHOICES - 2]
    if any(best.chance - e.chance < SECOND_GAP for e in others):
        return None  # two answers too close to tell apart: not a puzzle
    offered = [best, evaluation.of(played), *others]
    choices = tuple(
        sorted(
            (Choice(str(e.decision), round(e.chance, 4)) for e in offered), key=lambda c: c.decision
        )
    )
    return Puzzle(
        step=step,
        seat=seen.player,
        round_number=round_number,
        choices=choices,
        solution=str(best.decision),
        played=played_text,
        reason=reason_for(seen, best.decision, played),
        iterations=iterations,
        solved_margin=SOLVED_MARGIN,
    )
