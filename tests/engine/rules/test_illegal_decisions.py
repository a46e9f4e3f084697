"""Every kind of illegal decision: a typed error that says what is wrong, state unchanged."""

import copy

import pytest

from engine.rules import (
    Competition,
    CompetitionChoice,
    Gift,
    GiftChoice,
    IllegalDecision,
    Secret,
    TradeOff,
    parse_decision,
)
from engine.rules.state import GameState
from tests.engine.rules.games import apply_move, example_game


def snapshot(state: GameState) -> dict[str, object]:
    return {name: copy.deepcopy(getattr(state, name)) for name in GameState.__slots__}


def assert_refused(state: GameState, decision, message: str, player: int | None = None) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalDecision) as error:
        state.apply(decision, player)
    assert message in str(error.value)
    assert str(decision) in str(error.value), "the message quotes the decision"
    assert snapshot(state) == before, "an illegal decision changed the state"


def test_card_not_in_hand():
    # Player 0 holds B B C D G G G after drawing: no E at all.
    assert_refused(example_game(), Secret(4), "player 0 holds no E")


def test_too_few_copies_of_a_card():
    state = example_game()
    assert_refused(state, Gift((2, 2, 6)), "player 0 holds only one C")
    assert_refused(state, parse_decision("4BBBG"), "player 0 holds only two B")


def test_action_already_used_this_round():
    state = example_game()
    apply_move(state, "2GG")
    apply_move(state, "1C")
    assert_refused(state, TradeOff((1, 1)), "Trade-off was already used this round")


def test_not_your_turn():
    state = example_game()
    assert_refused(state, Secret(6), "it is player 0's turn", player=1)


def test_not_your_choice():
    state = example_game()
    state.apply(Gift((1, 1, 2)), 0)
    assert_refused(state, GiftChoice(1), "it is player 1's choice", player=0)


def test_action_while_a_choice_is_pending():
    state = example_game()
    state.apply(Gift((1, 1, 2)), 0)
    assert_refused(state, Secret(4), "player 1 must first take from player 0's Gift 3BBC")


def test_choice_with_nothing_pending():
    assert_refused(example_game(), GiftChoice(1), "no Gift or Competition is waiting")


def test_choice_not_among_the_offered_cards():
    state = example_game()
    state.apply(Gift((1, 1, 2)), 0)
    assert_refused(state, GiftChoice(6), "-G is not one of the offered cards of the Gift 3BBC")


def test_pair_choice_for_a_gift_and_card_choice_for_a_competition():
    state = example_game()
    state.apply(Gift((1, 1, 2)), 0)
    assert_refused(state, CompetitionChoice((1, 1)), "must take one card of the Gift")
    state = example_game()
    state.apply(Competition(((1, 2), (1, 3))), 0)
    assert_refused(state, GiftChoice(1), "must take one pair of the Competition")
    assert_refused(state, CompetitionChoice((2, 3)), "-CD is not one of the offered pairs")


def test_any_decision_after_the_match_is_over():
    state = example_game()
    state.resign(1)
    assert_refused(state, Secret(6), "the match is over")


def test_version_counts_applied_decisions_only():
    state = example_game()
    assert state.version == 0
    apply_move(state, "3BBC-B")
    assert state.version == 2
    with pytest.raises(IllegalDecision):
        state.apply(Secret(0))
    assert state.version == 2
