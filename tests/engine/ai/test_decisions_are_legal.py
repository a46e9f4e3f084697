"""Every decision an agent returns is one of the view's legal decisions, in every phase."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import agent_for_level
from engine.ai.agent import Agent
from engine.rules import GameState, Phase, view
from tests.engine.ai.positions import agents_for_tests, quick_hard


def play_checked(seats: tuple[Agent, Agent], seed: int) -> set[Phase]:
    """Play a game between two agents, asserting each decision is legal; the phases seen."""
    state = GameState(seed=seed, first_player=seed % 2)
    rngs = (random.Random(seed), random.Random(seed + 1))
    phases: set[Phase] = set()
    while not state.is_over:
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        decision = seats[player].decide(seen, rngs[player])
        assert decision in seen.legal, f"{seats[player].name} chose {decision} in {seen}"
        phases.add(state.phase)
        state.apply(decision, player)
    return phases


@pytest.mark.parametrize("agent", agents_for_tests(), ids=lambda a: a.name)
def test_every_decision_is_legal_in_every_phase(agent: Agent) -> None:
    phases: set[Phase] = set()
    opponents = [agent_for_level("random"), agent_for_level("normal")]
    for seed in range(6):
        opponent = opponents[seed % 2]
        seats = (agent, opponent) if seed % 4 < 2 else (opponent, agent)
        phases |= play_checked(seats, seed)
    assert phases == {Phase.ACTION, Phase.GIFT_CHOICE, Phase.COMPETITION_CHOICE}


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(["easy", "normal"]))
def test_heuristic_agents_play_legally_from_any_deal(seed: int, level: str) -> None:
    agent = agent_for_level(level)
    play_checked((agent, agent), seed)


@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_search_agent_plays_legally_from_any_deal(seed: int) -> None:
    play_checked((quick_hard(), agent_for_level("random")), seed)


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_an_agent_refuses_a_view_without_a_decision(level: str) -> None:
    state = GameState(seed=1, first_player=0)
    waiting = view(state, 1)  # player 0 is to act
    with pytest.raises(ValueError, match="no decision"):
        agent_for_level(level).decide(waiting, random.Random(0))
