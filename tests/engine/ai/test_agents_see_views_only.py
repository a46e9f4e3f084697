"""Agents decide from a player's view: hidden cards they cannot see change nothing."""

from __future__ import annotations

import random

import pytest

from engine.ai.agent import Agent
from engine.ai.determinize import determinize
from engine.rules import view
from engine.rules.state import GameState
from tests.engine.ai.positions import agents_for_tests, positions
from tests.engine.ai.test_determinize import hidden_cards


def other_hidden_cards(state: GameState, player: int, rng: random.Random) -> GameState:
    """The same game with the opponent's hand, Secret, Trade-off, pile and removed card
    dealt again from the cards ``player`` cannot see."""
    for _ in range(50):
        other = determinize(view(state, player), rng)
        if hidden_cards(other, player) != hidden_cards(state, player):
            return other
    raise AssertionError("no other arrangement of the hidden cards exists")


@pytest.mark.parametrize("agent", agents_for_tests(), ids=lambda a: a.name)
def test_hidden_cards_do_not_change_the_decision(agent: Agent) -> None:
    rng = random.Random(21)
    checked = 0
    for index, state in enumerate(positions(21, games=2)):
        player = state.current_player
        assert player is not None
        if index % 3 or len(state.legal_decisions()) < 2:
            continue
        try:
            other = other_hidden_cards(state, player, rng)
        except AssertionError:
            continue  # the last turns of a round can leave no other arrangement
        assert other.hands[1 - player] != state.hands[1 - player] or (
            other.pile[other.pile_pos :] != state.pile[state.pile_pos :]
            or other.removed != state.removed
        )
        seed = 1000 + index
        mine = agent.decide(view(state, player), random.Random(seed))
        theirs = agent.decide(view(other, player), random.Random(seed))
        assert mine == theirs
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("agent", agents_for_tests(), ids=lambda a: a.name)
def test_the_same_seed_gives_the_same_decision(agent: Agent) -> None:
    for index, state in enumerate(positions(4)):
        if index % 4:
            continue
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        assert agent.decide(seen, random.Random(index)) == agent.decide(seen, random.Random(index))
