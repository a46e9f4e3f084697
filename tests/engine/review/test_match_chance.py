"""The match-chance table: shipped with the package, symmetric, monotone, exact at the end."""

from __future__ import annotations

import itertools

import pytest

from engine.ai.match_chance import (
    FAVOR_POSITIONS,
    chance_table,
    favor_index,
    favor_of_index,
    finished_score,
    match_chance,
)
from engine.review.fit_chances import sample_outcomes
from engine.rules import GameState, Variant

ROUNDING = 1e-5
"""The table is stored with 5 decimals."""
POSITIONS = [
    (variant, rounds)
    for rounds in (0, 1, 2)
    for variant in Variant
    if variant is Variant.THREE_ROUNDS or rounds == 0
]


def swapped(favor: tuple[int | None, ...]) -> tuple[int | None, ...]:
    return tuple(None if side is None else 1 - side for side in favor)


def test_favor_rows_round_trip() -> None:
    assert [favor_index(favor_of_index(row)) for row in range(FAVOR_POSITIONS)] == list(
        range(FAVOR_POSITIONS)
    )


@pytest.mark.parametrize(("variant", "rounds"), POSITIONS)
def test_the_two_players_chances_add_up_to_one(variant: Variant, rounds: int) -> None:
    table = chance_table()
    for row, starter in itertools.product(range(FAVOR_POSITIONS), (0, 1)):
        favor = favor_of_index(row)
        mine = table.chance(favor, starter, variant, rounds)
        theirs = table.chance(swapped(favor), 1 - starter, variant, rounds)
        assert mine + theirs == pytest.approx(1.0, abs=2 * ROUNDING)
        assert 0.0 <= mine <= 1.0


@pytest.mark.parametrize(("variant", "rounds"), POSITIONS)
def test_more_favor_never_lowers_the_chance(variant: Variant, rounds: int) -> None:
    """Moving one marker towards player 0 (from player 1 to neutral, or neutral to 0)."""
    table = chance_table()
    for row, starter in itertools.product(range(FAVOR_POSITIONS), (0, 1)):
        favor = favor_of_index(row)
        before = table.chance(favor, starter, variant, rounds)
        for g, side in enumerate(favor):
            if side == 0:
                continue
            better = list(favor)
            better[g] = None if side == 1 else 0
            assert table.chance(better, starter, variant, rounds) >= before - ROUNDING


def test_a_finished_match_is_exact() -> None:
    table = chance_table()
    won_on_charm = (None, None, None, None, 0, 0, 0)  # E F G: 12 charm
    assert finished_score(won_on_charm, 1, Variant.STANDARD) == 1.0
    assert table.chance(won_on_charm, 0, Variant.STANDARD, 1) == 1.0
    assert table.chance(swapped(won_on_charm), 1, Variant.STANDARD, 1) == 0.0
    four_geishas = (1, 1, 1, 1, None, None, None)
    assert table.chance(four_geishas, 0, Variant.THREE_ROUNDS, 2) == 0.0
    level = (0, 1, None, None, None, None, None)  # A and B: 1 geisha and 2 charm each
    assert table.chance(level, 0, Variant.THREE_ROUNDS, 3) == 0.5
    assert table.chance(level, 0, Variant.STANDARD, 3) == pytest.approx(0.5, abs=0.1)


def test_the_start_of_a_match_is_even_and_a_lead_helps() -> None:
    table = chance_table()
    empty = (None,) * 7
    assert table.chance(empty, 0, Variant.STANDARD, 0) == pytest.approx(0.5, abs=0.05)
    leading = (None, None, None, None, None, None, 0)  # G, 5 charm
    assert (
        table.chance(leading, 0, Variant.STANDARD, 1)
        > table.chance(empty, 0, Variant.STANDARD, 1) + 0.03
    )


def test_a_state_reads_its_chance_at_a_round_start_or_its_end() -> None:
    state = GameState(seed=3, first_player=1)
    assert match_chance(state, 0) + match_chance(state, 1) == pytest.approx(1.0)
    state.resign(0)
    assert (match_chance(state, 0), match_chance(state, 1)) == (0.0, 1.0)
    moving = GameState(seed=3, first_player=1)
    moving.apply(moving.legal_decisions()[0])
    with pytest.raises(ValueError, match="round's start"):
        match_chance(moving)


def test_the_sampled_rounds_are_reproducible() -> None:
    first, second = sample_outcomes(200, 7), sample_outcomes(200, 7)
    assert first == second
    assert sum(first.values()) == 200
    assert all(len(outcome) == 7 and set(outcome) <= {0, 1, 2} for outcome in first)
