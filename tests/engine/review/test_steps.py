"""A record replayed step by step gives the positions the thread showed, in order."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.ai.agent import RandomAgent
from engine.review.steps import match_steps, state_at, step_count
from engine.rules import GameState, new_game, public_view, view
from engine.rules.record import MatchRecord


def _played(seed: int, *, resign_at: int | None = None) -> GameState:
    state = new_game(seed)
    rng = random.Random(seed)
    applied = 0
    while not state.is_over:
        if applied == resign_at:
            state.resign(1)
            break
        seat = state.current_player
        assert seat is not None
        state.apply(RandomAgent().decide(view(state, seat), rng))
        applied += 1
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_step_is_the_table_after_that_many_decisions(seed: int) -> None:
    final = _played(seed)
    record = MatchRecord.of(final)
    # Play the same match again, comparing every public table on the way.
    again = GameState(first_player=record.first_player, variant=record.variant, deals=final.deals)
    steps = list(match_steps(record))
    assert len(steps) == step_count(record) == final.version
    assert public_view(state_at(record, 0)) == public_view(again)
    for step, before in steps:
        assert public_view(before) == public_view(again)
        assert step.player == again.current_player
        assert step.round_number == again.round_number
        again.apply(step.decision)
        assert public_view(state_at(record, step.index)) == public_view(again)
    assert state_at(record, len(steps)).outcome == final.outcome


def test_a_resignation_shows_on_the_last_step_only() -> None:
    final = _played(4, resign_at=5)
    record = MatchRecord.of(final)
    assert step_count(record) == 5
    assert state_at(record, 5).outcome == final.outcome
    assert state_at(record, 4).outcome is None


def test_a_step_out_of_range_is_refused_with_the_bounds() -> None:
    record = MatchRecord.of(_played(5))
    with pytest.raises(ValueError, match=f"between 0 and {step_count(record)}, got -1"):
        state_at(record, -1)


@pytest.mark.parametrize("seed", [4, 5])
def test_steps_are_numbered_as_the_moves_log_numbers_them(seed: int) -> None:
    """Each round's moves run 1 to 8 (four per player), and a take shares the number of
    the offer it answers: the Moves log lists the two on one line."""
    state = _played(seed)
    record = MatchRecord.of(state)
    by_round: dict[int, list[tuple[int, bool]]] = {}
    for step, _ in match_steps(record):
        by_round.setdefault(step.round_number, []).append((step.move_number, step.answers_offer))
    for numbers in by_round.values():
        assert [n for n, take in numbers if not take] == list(range(1, 9))
        for previous, (number, take) in itertools.pairwise(numbers):
            if take:
                assert number == previous[0]
