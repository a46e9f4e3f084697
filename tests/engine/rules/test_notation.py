"""Notation (docs/rules.md): decisions and moves parse and format, round-trip, reject junk."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import (
    Competition,
    CompetitionChoice,
    Gift,
    GiftChoice,
    NotationError,
    Secret,
    TradeOff,
    format_move,
    parse_decision,
    parse_move,
)
from engine.rules.notation import HiddenAction, Move
from tests.engine.rules.games import random_game


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        ("1E", Secret(4)),
        ("2FG", TradeOff((5, 6))),
        ("3EEG", Gift((4, 4, 6))),
        ("4ABEG", Competition(((0, 1), (4, 6)))),
        ("-E", GiftChoice(4)),
        ("-AB", CompetitionChoice((0, 1))),
    ],
)
def test_each_decision_has_the_rules_md_notation(text, decision):
    assert parse_decision(text) == decision
    assert str(decision) == text


def test_cards_in_any_order_are_the_same_decision():
    assert Gift((6, 4, 4)) == Gift((4, 4, 6))
    assert parse_decision("2GF") == TradeOff((5, 6))
    assert Competition(((4, 6), (1, 0))) == Competition(((0, 1), (4, 6)))


@pytest.mark.parametrize("text", ["1E", "2FG", "3EEG-E", "4ABEG-AB", "4BCDD-DD", "3AGG-A"])
def test_moves_round_trip(text):
    assert format_move(parse_move(text)) == text


def test_hidden_moves_only_where_allowed():
    assert parse_move("1X", allow_hidden=True) == Move(HiddenAction(parse_decision("1A").action))
    assert str(parse_move("2XX", allow_hidden=True)) == "2XX"
    with pytest.raises(NotationError, match="hidden"):
        parse_move("1X")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "not a move"),
        ("5ABCDE", "starts with 1, 2, 3, 4"),
        ("1H", "not a card letter: 'H'"),
        ("2E", "2 needs 2 cards"),
        ("3EEG", "needs '-' and a choice"),
        ("3EEG-F", "not one of the offered cards"),
        ("4ABEG-AE", "not one of the offered pairs"),
        ("1E-E", "only a Gift or a Competition is followed by a choice"),
        ("3EEG-AB", "does not fit"),
        ("e1", "starts with 1, 2, 3, 4"),
    ],
)
def test_malformed_moves_say_what_is_wrong(text, complaint):
    with pytest.raises(NotationError, match=complaint) as error:
        parse_move(text)
    assert repr(text) in str(error.value)


def test_a_pending_offer_parses_only_when_allowed():
    assert not parse_move("3EEG", allow_pending=True).complete


@given(st.integers(0, 10_000))
def test_every_move_of_a_random_game_round_trips(seed):
    state = random_game(seed)
    for decisions in state.log:
        for decision in decisions:
            assert parse_decision(str(decision)) == decision
