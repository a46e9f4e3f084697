"""Reading the opponent: weighted determinizations stay consistent with the view, and lean
towards the hidden cards the opponent's play points to."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai.determinize import Determinizer, unseen_cards
from engine.ai.reading import UNIFORM, hidden_card_weights
from engine.rules import GameState, view
from engine.rules.decisions import Gift, Secret, TradeOff
from engine.rules.hand import unpack
from tests.engine.ai.positions import positions


def hidden_cards(state: GameState, them: int) -> Counter[int]:
    """Every card in a place ``them``'s opponent cannot see."""
    hidden = Counter(unpack(state.hands[them]))
    hidden.update(state.pile[state.pile_pos :])
    hidden[state.removed] += 1
    if state.secret[them] is not None:
        hidden[state.secret[them]] += 1
    if state.tradeoff[them] is not None:
        hidden.update(state.tradeoff[them])
    return hidden


@pytest.mark.parametrize("seed", range(4))
def test_a_weighted_sample_shows_the_player_exactly_their_view(seed: int) -> None:
    rng = random.Random(seed)
    for state in positions(seed, games=3):
        for player in (0, 1):
            seen = view(state, player)
            sample = Determinizer(seen, read_opponent=True).sample(rng)
            assert view(sample, player) == seen
            assert hidden_cards(sample, 1 - player) == Counter(unseen_cards(seen))


def test_nothing_is_read_before_the_opponent_hides_a_card() -> None:
    state = GameState(seed=4, first_player=0)
    assert hidden_card_weights(view(state, 1)) == UNIFORM
    assert Determinizer(view(state, 1), read_opponent=True).weights is None


def test_a_secret_is_read_as_a_card_worth_keeping() -> None:
    # Player 0 hides a Secret on an empty table: a G (charm 5) is likelier than an A (2),
    # and the samples follow the weights.
    state = GameState(seed=9, first_player=0)
    secret = next(d for d in state.legal_decisions() if isinstance(d, Secret))
    state.apply(secret, 0)
    seen = view(state, 1)
    weights = hidden_card_weights(seen)
    assert weights.secret[6] > weights.secret[3] > weights.secret[0]
    assert weights.trade_off == UNIFORM.trade_off
    determinizer = Determinizer(seen, read_opponent=True)
    uniform = Determinizer(seen)
    rng = random.Random(2)
    weighted_g = sum(determinizer.sample(rng).secret[0] == 6 for _ in range(2000))
    uniform_g = sum(uniform.sample(rng).secret[0] == 6 for _ in range(2000))
    assert weighted_g > 1.5 * uniform_g


def test_a_trade_off_is_read_as_cards_worth_little() -> None:
    state = GameState(seed=9, first_player=0)
    trade_off = next(d for d in state.legal_decisions() if isinstance(d, TradeOff))
    state.apply(trade_off, 0)
    weights = hidden_card_weights(view(state, 1))
    assert weights.trade_off[0] > weights.trade_off[3] > weights.trade_off[6]


def test_a_choice_made_after_a_secret_reads_that_secret() -> None:
    # Player 1 hides a Secret, then takes from player 0's Gift: the weights now depend on
    # which card they took, since the choice is scored with their Secret counted.
    def weights_after(taken_index: int) -> tuple[float, ...]:
        state = GameState(seed=31, first_player=1)
        state.apply(next(d for d in state.legal_decisions() if isinstance(d, Secret)), 1)
        state.apply(next(d for d in state.legal_decisions() if isinstance(d, Gift)), 0)
        state.apply(state.legal_decisions()[taken_index], 1)
        return hidden_card_weights(view(state, 0)).secret

    assert weights_after(0) != weights_after(-1)
