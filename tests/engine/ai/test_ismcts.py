"""The search agent: budgets, candidates, the value of a finished round."""

from __future__ import annotations

import random

from engine.ai.heuristic import score_decisions
from engine.ai.ismcts import IsmctsAgent, round_value
from engine.rules import GameState, view
from tests.engine.ai.positions import positions


def first_turn() -> GameState:
    return GameState(seed=12, first_player=0)


def test_every_iteration_backs_up_one_play_out_through_a_candidate() -> None:
    agent = IsmctsAgent(iterations=200, time_limit=None, root_candidates=6)
    seen = view(first_turn(), 0)
    candidates = agent._candidates(seen.legal, score_decisions(seen))
    root = agent.search(seen, candidates, random.Random(1))
    assert set(root.children) == set(candidates)
    assert sum(child.visits for child in root.children.values()) == 200


def test_candidates_are_the_heuristics_best_and_the_best_of_each_kind() -> None:
    agent = IsmctsAgent(root_candidates=5)
    seen = view(first_turn(), 0)
    scores = score_decisions(seen)
    candidates = agent._candidates(seen.legal, scores)
    best = max(range(len(seen.legal)), key=scores.__getitem__)
    assert seen.legal[best] in candidates
    assert {type(d) for d in candidates} == {type(d) for d in seen.legal}
    assert 5 <= len(candidates) <= 5 + 4 * 2


def test_a_spent_time_budget_still_gives_a_legal_decision() -> None:
    agent = IsmctsAgent(iterations=10_000, time_limit=0.0)
    for index, state in enumerate(positions(31)):
        player = state.current_player
        assert player is not None
        seen = view(state, player)
        assert agent.decide(seen, random.Random(index)) in seen.legal


def test_a_won_match_is_worth_one_and_an_even_table_nothing() -> None:
    state = first_turn()
    assert round_value(state) == 0.0  # no favor anywhere yet
    state.favor = [0, 0, 0, None, None, None, 1]  # 3 geishas against 1
    assert 0 < round_value(state) < 1
    state.resign(1)
    assert round_value(state) == 1.0
