"""Puzzle ratings: an attempt is a Glicko-2 game between the member and the puzzle."""

from __future__ import annotations

import doctest

import engine.puzzles.rating
from engine.puzzles import rate_attempt
from engine.ratings import Glicko2Rating


def test_the_rating_examples_run() -> None:
    result = doctest.testmod(engine.puzzles.rating)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_solve_raises_the_member_and_lowers_the_puzzle() -> None:
    member, puzzle = Glicko2Rating(1500, 200), Glicko2Rating(1500, 200)
    after_member, after_puzzle = rate_attempt(member, puzzle, solved=True)
    assert after_member.rating > member.rating
    assert after_puzzle.rating < puzzle.rating


def test_a_miss_lowers_the_member_and_raises_the_puzzle() -> None:
    member, puzzle = Glicko2Rating(1500, 200), Glicko2Rating(1500, 200)
    after_member, after_puzzle = rate_attempt(member, puzzle, solved=False)
    assert after_member.rating < member.rating
    assert after_puzzle.rating > puzzle.rating


def test_a_strong_member_solving_a_weak_puzzle_gains_little() -> None:
    strong, weak, even = Glicko2Rating(2000, 80), Glicko2Rating(1300, 80), Glicko2Rating(2000, 80)
    gain_on_weak = rate_attempt(strong, weak, solved=True)[0].rating - strong.rating
    gain_on_even = rate_attempt(strong, even, solved=True)[0].rating - strong.rating
    assert 0 < gain_on_weak < 1.5
    assert gain_on_weak < gain_on_even / 5
    # Missing it costs the strong member far more than solving it gains.
    loss_on_weak = strong.rating - rate_attempt(strong, weak, solved=False)[0].rating
    assert loss_on_weak > 10 * gain_on_weak
