"""Test helpers: explicit deals and scripted or random play through the public API."""

from __future__ import annotations

import random

from engine.rules import GameState, Variant, parse_move
from engine.rules.deal import Deal
from engine.rules.notation import Move

# The deal and moves of docs/rules.md's example record (round 1, player 0 starts).
EXAMPLE_DEAL = Deal.from_text("G", ("BBCDGG", "CEEFFF"), "GDFEGAAD")
EXAMPLE_MOVES = ("4BCBD-BC", "4CDFF-FF", "1F", "2EF", "2GG", "3AEE-E", "3AGG-A", "1D")


def apply_move(state: GameState, text: str) -> None:
    """Apply a move in notation: the action, then the opponent's choice if any."""
    move: Move = parse_move(text, allow_pending=True)
    player = state.current_player
    assert player is not None
    state.apply(move.action, player)  # type: ignore[arg-type]
    if move.choice is not None:
        state.apply(move.choice, 1 - player)


def example_game(
    variant: Variant = Variant.STANDARD, more_deals: tuple[Deal, ...] = ()
) -> GameState:
    return GameState(first_player=0, variant=variant, deals=[EXAMPLE_DEAL, *more_deals])


def random_game(seed: int, variant: Variant = Variant.STANDARD) -> GameState:
    """A finished game where every decision is drawn uniformly from the legal list."""
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=seed % 2, variant=variant)
    while not state.is_over:
        state.apply(rng.choice(state.legal_decisions()))
    return state
