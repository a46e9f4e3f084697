"""The fast play-out: finish_round's policy move for move, valued by the match chance."""

from __future__ import annotations

import random

import pytest

from engine.ai.determinize import Determinizer
from engine.ai.ismcts import finish_round
from engine.ai.match_chance import leaf_value, match_chance
from engine.ai.playout import play_out_value
from engine.rules import GameState, view
from tests.engine.ai.positions import positions


def mid_round(seed: int) -> list[GameState]:
    """Determinized states of random games, from every seat's view, where a round is on."""
    rng = random.Random(seed)
    found = []
    for state in positions(seed, games=2):
        if state.turn == 0 and not state.log[-1]:
            continue  # a round not begun yet: nothing to play out
        player = state.current_player
        assert player is not None
        found.append(Determinizer(view(state, player)).sample(rng))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_it_ends_every_round_as_finish_round_does_from_the_same_seed(seed: int) -> None:
    # The chance table was fitted on rounds finish_round played: the fast play-out must
    # play the same policy for the table to value its ends right.
    for index, state in enumerate(mid_round(seed)):
        slow = state.clone()
        finish_round(slow, slow.round_index, random.Random(index))
        assert play_out_value(state, random.Random(index)) == leaf_value(slow)


def test_it_leaves_the_state_as_it_was() -> None:
    state = mid_round(7)[5]
    before = state.clone()
    play_out_value(state, random.Random(1))
    assert [getattr(state, name) for name in GameState.__slots__] == [
        getattr(before, name) for name in GameState.__slots__
    ]


def test_a_scored_round_or_finished_match_is_valued_as_it_stands() -> None:
    state = GameState(seed=3, first_player=1)
    state.favor = [0, 0, None, None, None, 1, 1]
    assert play_out_value(state, random.Random(0)) == 2 * match_chance(state) - 1
    state.resign(0)
    assert play_out_value(state, random.Random(0)) == -1.0
