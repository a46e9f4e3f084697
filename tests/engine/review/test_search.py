"""The evaluation search: the decision played is always searched and well visited."""

from __future__ import annotations

import pytest

from engine.ai.ismcts import IsmctsAgent
from engine.review.search import MIN_VISITS_SHARE, evaluate
from engine.rules import GameState, view

ITERATIONS = 100


def test_a_decision_outside_the_usual_candidates_is_searched_when_played() -> None:
    state = GameState(seed=12, first_player=0)
    seen = view(state, 0)
    usual = IsmctsAgent().root_decisions(seen)
    unusual = next(d for d in seen.legal if d not in usual)
    evaluation = evaluate(seen, iterations=ITERATIONS, seed="t", include=unusual)
    played = evaluation.of(unusual)
    minimum = round(ITERATIONS * MIN_VISITS_SHARE)
    assert played.visits >= minimum
    assert evaluation.best.visits >= minimum
    assert evaluation.best.chance == max(
        e.chance for e in evaluation.estimates if e.visits >= minimum
    )


def test_one_seed_always_gives_the_same_evaluation() -> None:
    seen = view(GameState(seed=12, first_player=0), 0)
    first = evaluate(seen, iterations=ITERATIONS, seed="a")
    assert first == evaluate(seen, iterations=ITERATIONS, seed="a")


def test_an_illegal_played_decision_is_refused() -> None:
    state = GameState(seed=12, first_player=0)
    other = GameState(seed=13, first_player=0)
    foreign = next(d for d in other.legal_decisions() if d not in state.legal_decisions())
    with pytest.raises(ValueError, match="not legal"):
        evaluate(view(state, 0), iterations=ITERATIONS, seed="t", include=foreign)
