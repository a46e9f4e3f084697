"""The compact search: the GameState search's statistics from the same seed, much faster."""

from __future__ import annotations

import random

import pytest

from engine.ai.compact_search import Position, decision_of, key_of
from engine.ai.ismcts import IsmctsAgent
from engine.ai.playout import play_out_value
from engine.rules import GameState, view
from tests.engine.ai.positions import positions


def searcher(*, compact: bool, read_opponent: bool) -> IsmctsAgent:
    return IsmctsAgent(
        "hard",
        iterations=150,
        time_limit=None,
        play_out=play_out_value,
        read_opponent=read_opponent,
        compact=compact,
    )


def root_statistics(
    agent: IsmctsAgent, state: GameState, seed: int
) -> dict[str, tuple[int, float, int]]:
    player = state.current_player
    assert player is not None
    seen = view(state, player)
    root = agent.search(seen, agent.root_decisions(seen), random.Random(seed))
    return {
        str(d): (node.visits, round(node.total, 9), node.available)
        for d, node in root.children.items()
    }


@pytest.mark.parametrize("read_opponent", [False, True])
@pytest.mark.parametrize("seed", range(2))
def test_from_the_same_seed_it_reaches_the_same_root_statistics(
    seed: int, read_opponent: bool
) -> None:
    # Both searches draw the same random numbers in the same order, so every visit count,
    # availability count and backed-up total at the root must agree: the same search.
    slow = searcher(compact=False, read_opponent=read_opponent)
    fast = searcher(compact=True, read_opponent=read_opponent)
    compared = 0
    for index, state in enumerate(positions(seed, games=2)):
        if len(state.legal_decisions()) < 2:
            continue
        assert root_statistics(fast, state, index) == root_statistics(slow, state, index)
        compared += 1
    assert compared > 30


def test_it_picks_a_legal_decision_in_every_phase() -> None:
    agent = searcher(compact=True, read_opponent=True)
    rng = random.Random(5)
    for state in positions(9, games=2):
        player = state.current_player
        assert player is not None
        decision = agent.decide(view(state, player), rng)
        assert decision in state.legal_decisions()


@pytest.mark.parametrize("seed", range(3))
def test_a_position_plays_a_round_as_the_rules_do(seed: int) -> None:
    # The compact position's moves, turn ends and draws follow the rules' GameState.
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=seed % 2)
    position = Position(
        list(state.hands),
        [0, 0],
        [None, None],
        [0, 0],
        state.pile[state.pile_pos :],
        0,
        state.to_move,
        -1,
    )
    ended = False
    while not ended:
        legal = position.legal()
        assert [decision_of(k) for k in legal] == list(state.legal_decisions())
        key = rng.choice(legal)
        ended = position.apply(key)
        round_index = state.round_index
        state.apply(decision_of(key))
        assert ended == (state.round_index != round_index or state.is_over)
        if not ended:
            assert (position.hands, position.placed, position.to_move) == (
                state.hands,
                state.placed,
                state.to_move,
            )
    assert position.scored_favor([None] * 7) == state.favor


def test_a_decision_keeps_its_key() -> None:
    decision = GameState(seed=1).legal_decisions()[0]
    assert decision_of(key_of(decision)) == decision
    assert key_of(decision) == key_of(decision)


def test_a_compact_search_cannot_continue_an_earlier_root() -> None:
    agent = searcher(compact=True, read_opponent=False)
    state = next(positions(1))
    seen = view(state, 0 if state.current_player is None else state.current_player)
    root = agent.search(seen, agent.root_decisions(seen), random.Random(0))
    with pytest.raises(ValueError, match="cannot continue"):
        agent.search(seen, agent.root_decisions(seen), random.Random(0), root=root)


def test_it_plays_out_with_the_match_chance_only() -> None:
    with pytest.raises(ValueError, match="play_out_value"):
        IsmctsAgent("x", compact=True)


def test_a_kept_tree_carries_its_statistics_into_the_next_decision_of_the_round() -> None:
    agent = IsmctsAgent(
        "hard",
        iterations=200,
        time_limit=None,
        play_out=play_out_value,
        read_opponent=True,
        compact=True,
        reuse_tree=True,
    )
    kept = agent.kept_tree
    assert kept is not None
    rng = random.Random(3)
    carried = fresh = 0
    for game in range(3):
        state = GameState(seed=40 + game, first_player=game % 2)
        while not state.is_over:
            player = state.current_player
            assert player is not None
            seen = view(state, player)
            if player == 0 and len(seen.legal) > 1:
                reuses = kept.reuses
                root = agent.search(seen, agent.root_decisions(seen), rng)
                searched = sum(node.visits for node in root.children.values())
                if kept.reuses > reuses:  # the kept play-outs count beside the new ones
                    assert searched >= 200
                    carried += searched > 200
                else:
                    assert searched == 200
                    fresh += 1
                decision = max(root.children, key=lambda d: root.children[d].visits)
            else:
                decision = rng.choice(seen.legal)
            state.apply(decision)
    assert carried >= 3 and fresh >= 3


def test_only_the_compact_search_keeps_its_tree() -> None:
    with pytest.raises(ValueError, match="only the compact search"):
        IsmctsAgent("x", reuse_tree=True)
