"""Boards at every stage of a match, from seeded random play, for the picture tests and
the samples in docs/."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.rules import Phase, new_game, public_view
from engine.rules.decisions import Secret, TradeOff
from engine.rules.state import GameState, Variant
from engine.rules.views import PublicView

SHORT_NAMES = ("ana", "ben")
LONG_NAMES = ("Wilhelmina Featherstonehaugh-Smythe", "Bartholomew Q. Montgomery-Wolfe III")


def play_until(
    stop: Callable[[GameState], bool], *, variant: Variant = Variant.STANDARD
) -> GameState:
    """The first seeded random game that reaches a state where ``stop`` holds."""
    for seed in range(500):
        state = new_game(seed, variant=variant)
        rng = random.Random(seed)
        while True:
            if stop(state):
                return state
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_decisions()))
    raise AssertionError("no seeded game reached that stage")


def _after_hidden(state: GameState) -> bool:
    log = state.log[-1]
    return bool(log) and isinstance(log[-1], Secret | TradeOff) and len(log) > 4


def _round_scored(state: GameState) -> bool:
    return not state.is_over and len(state.results) == 1 and not state.log[-1]


def _match_end(state: GameState) -> bool:
    return state.is_over and state.results[-1].round_number == state.round_number


def stages(variant: Variant = Variant.STANDARD) -> dict[str, PublicView]:
    """Stage name → the board at that stage."""
    found = {
        "start": play_until(lambda s: True, variant=variant),
        "mid-round": play_until(
            lambda s: len(s.log[-1]) >= 5 and s.pending is None and len(s.results) == 1,
            variant=variant,
        ),
        "hidden-last-move": play_until(_after_hidden, variant=variant),
        "pending-gift": play_until(lambda s: s.phase is Phase.GIFT_CHOICE, variant=variant),
        "pending-competition": play_until(
            lambda s: s.phase is Phase.COMPETITION_CHOICE, variant=variant
        ),
        "round-end": play_until(_round_scored, variant=variant),
        "match-end": play_until(_match_end, variant=variant),
    }
    resigned = play_until(lambda s: len(s.log[-1]) == 3, variant=variant)
    resigned.resign(0)
    found["resigned"] = resigned
    return {name: public_view(state) for name, state in found.items()}
