"""Determinization: sampled states agree with everything the player has seen."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.ai.determinize import Determinizer, determinize, unseen_cards
from engine.rules import new_game, view
from engine.rules.cards import FULL_DECK
from engine.rules.state import GameState
from tests.engine.ai.positions import positions


def hidden_cards(state: GameState, player: int) -> tuple[object, ...]:
    """Everything ``player`` cannot see."""
    them = 1 - player
    return (
        state.hands[them],
        state.secret[them],
        state.tradeoff[them],
        state.pile[state.pile_pos :],
        state.removed,
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_sampled_state_shows_the_player_exactly_their_view(seed: int) -> None:
    rng = random.Random(seed)
    for state in positions(seed, games=3):
        for player in (0, 1):
            seen = view(state, player)
            sample = determinize(seen, rng)
            assert view(sample, player) == seen


def test_unseen_cards_are_the_deck_minus_what_the_player_sees() -> None:
    state = new_game(5)
    seen = view(state, state.start_player)
    unseen = Counter(unseen_cards(seen))
    assert unseen + Counter(seen.hand) == Counter(FULL_DECK)  # nothing else is seen yet
    # 6 in the opponent's hand, 7 left in the pile, 1 removed
    assert sum(unseen.values()) == 14


def test_samples_vary_the_hidden_cards_and_keep_the_rest() -> None:
    state = new_game(11)
    for _ in range(5):  # a few actions, so Secrets, Trade-offs and offers appear
        state.apply(state.legal_decisions()[-1])
    player = state.current_player
    assert player is not None
    determinizer = Determinizer(view(state, player))
    rng = random.Random(3)
    samples = [determinizer.sample(rng) for _ in range(30)]
    assert len({hidden_cards(s, player) for s in samples}) > 20
    for sample in samples:
        assert sample.hands[player] == state.hands[player]
        assert sample.placed == state.placed
        hidden = (
            Counter(sample.hand_cards(1 - player))
            + Counter(sample.pile)
            + Counter([sample.removed])
        )
        them = 1 - player
        if sample.secret[them] is not None:
            hidden[sample.secret[them]] += 1
        if sample.tradeoff[them] is not None:
            hidden.update(sample.tradeoff[them])
        assert hidden == Counter(unseen_cards(view(state, player)))


def test_a_sampled_state_plays_on_to_the_end_of_the_round() -> None:
    rng = random.Random(8)
    for state in positions(8, games=2):
        player = state.current_player
        assert player is not None
        sample = determinize(view(state, player), rng)
        round_number = sample.round_number
        while not sample.is_over and sample.round_number == round_number:
            sample.apply(rng.choice(sample.legal_decisions()))
        assert sample.is_over or sample.round_number == round_number + 1


def test_a_finished_match_cannot_be_determinized() -> None:
    state = new_game(1)
    state.resign(0)
    with pytest.raises(ValueError, match="over"):
        Determinizer(view(state, 0))
