"""The levels the service and the bot ask for by name, and their order of strength."""

from __future__ import annotations

import pytest

from engine.ai import LEVELS, HeuristicAgent, IsmctsAgent, RandomAgent, agent_for_level
from engine.ai.arena import play_arena_game


def test_every_level_name_gives_an_agent_of_that_name() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard")
    for level in LEVELS:
        assert agent_for_level(level).name == level
    assert isinstance(agent_for_level("random"), RandomAgent)
    assert isinstance(agent_for_level("easy"), HeuristicAgent)
    assert isinstance(agent_for_level("hard"), IsmctsAgent)


def test_an_unknown_level_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown AI level 'expert'.*random, easy, normal, hard"):
        agent_for_level("expert")


def test_each_call_gives_a_fresh_agent() -> None:
    assert agent_for_level("hard") is not agent_for_level("hard")


def test_the_heuristic_beats_random_play() -> None:
    normal, random_agent = agent_for_level("normal"), agent_for_level("random")
    results = [play_arena_game(normal, random_agent, seed=5, index=i) for i in range(20)]
    assert sum(r.a_won for r in results) >= 18
