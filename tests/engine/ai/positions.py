"""Test helpers: positions reached by random play, and small-budget agents for tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.ai import IsmctsAgent, agent_for_level
from engine.ai.agent import Agent
from engine.ai.levels import hard_agent
from engine.rules import GameState
from engine.rules.state import Variant


def positions(
    seed: int, games: int = 1, *, variant: Variant = Variant.STANDARD
) -> Iterator[GameState]:
    """Every decision point of ``games`` random games, as states (do not mutate them)."""
    rng = random.Random(seed)
    for game in range(games):
        state = GameState(seed=seed * 1000 + game, first_player=game % 2, variant=variant)
        while not state.is_over:
            yield state
            state.apply(rng.choice(state.legal_decisions()))


def quick_hard() -> IsmctsAgent:
    """The hard agent on a small iteration budget and no clock, so tests are fast and exact."""
    agent = hard_agent()
    agent.iterations, agent.time_limit = 60, None
    return agent


def agents_for_tests() -> list[Agent]:
    """One agent of each level, hard on a test budget."""
    return [
        agent_for_level("random"),
        agent_for_level("easy"),
        agent_for_level("normal"),
        quick_hard(),
    ]
