"""Hints: a legal decision of the player's own view, the same for the same view."""

from __future__ import annotations

import random

import pytest

from engine.review.hint import Suggestion, suggest
from engine.rules import GameState, view
from engine.rules.decisions import Competition, GiftChoice

FEW = 80


def positions(seed: int, count: int) -> list[GameState]:
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=0)
    found: list[GameState] = []
    while not state.is_over and len(found) < count:
        found.append(state.clone())
        state.apply(rng.choice(state.legal_decisions()))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_a_hint_is_a_legal_decision_of_the_view_with_a_chance(seed: int) -> None:
    for state in positions(seed, 10):
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        hint = suggest(seen, iterations=FEW)
        assert isinstance(hint, Suggestion)
        assert hint.decision in seen.legal
        assert 0.0 <= hint.chance <= 1.0


def test_the_same_view_gets_the_same_hint() -> None:
    state = GameState(seed=4, first_player=1)
    seen = view(state, 1)
    assert suggest(seen, iterations=FEW) == suggest(seen, iterations=FEW)


def test_a_hint_answers_an_offer_with_a_choice() -> None:
    state = GameState(seed=4, first_player=0)
    offer = next(d for d in state.legal_decisions() if isinstance(d, Competition))
    state.apply(offer)
    hint = suggest(view(state, 1), iterations=FEW)
    assert hint.decision in state.legal_decisions()
    assert not isinstance(hint.decision, GiftChoice)


def test_no_hint_when_it_is_not_the_players_decision() -> None:
    state = GameState(seed=4, first_player=0)
    with pytest.raises(ValueError, match="no decision"):
        suggest(view(state, 1), iterations=FEW)
