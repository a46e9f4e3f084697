"""The evaluation search: the decision played is always searched and well visited."""

from __future__ import annotations

import pytest

from engine.ai.ismcts import IsmctsAgent
from engine.ai.match_chance import leaf_value
from engine.review import search
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


def test_the_fast_play_out_gives_the_chances_the_slow_one_gave(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The review moved to engine.ai.playout for speed; its chances (and so its verdicts)
    # must be those of finish_round valued by the match chance, from the same seed.
    positions = [GameState(seed=s, first_player=s % 2) for s in (3, 4)]
    for state in positions:
        for _ in range(7):  # into the round, past some offers and hidden cards
            state.apply(state.legal_decisions()[len(state.legal_decisions()) // 2])
    seen = [view(state, state.to_move) for state in positions]
    fast = [evaluate(v, iterations=ITERATIONS, seed="same") for v in seen]

    def slow_agent(name: str, **settings: object) -> IsmctsAgent:
        del settings["play_out"]
        return IsmctsAgent(name, leaf_value=leaf_value, **settings)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "IsmctsAgent", slow_agent)
    assert [evaluate(v, iterations=ITERATIONS, seed="same") for v in seen] == fast
