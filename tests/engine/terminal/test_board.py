"""The board as text: at most 11 lines of 80 columns, and only what the human may know."""

from __future__ import annotations

import random

import pytest

from engine.rules import GameState, view
from engine.rules.decisions import Secret
from engine.terminal.board import render_board


@pytest.mark.parametrize("seed", range(40))
def test_the_board_is_at_most_11_lines_of_80_columns(seed: int) -> None:
    state = GameState(seed=seed, first_player=seed % 2)
    rng = random.Random(seed)
    while not state.is_over:
        board = render_board(view(state, 0))
        assert len(board.splitlines()) <= 11
        assert max(len(line) for line in board.splitlines()) <= 79, board
        state.apply(rng.choice(state.legal_decisions()))


def test_the_board_shows_only_what_the_human_may_know() -> None:
    state = GameState(seed=3, first_player=1)  # the AI starts with its Secret
    ai_secret = state.legal_decisions()[0]
    assert isinstance(ai_secret, Secret)
    state.apply(ai_secret, 1)
    board = render_board(view(state, 0))
    assert "this round AI 1X" in board
    assert "AI         6 cards in hand · actions left: Trade-off, Gift, Competition" in board
