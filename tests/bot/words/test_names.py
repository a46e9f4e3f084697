"""How offers, decisions and the drawn card read: one spelling each, wherever shown."""

from __future__ import annotations

from dataclasses import replace

from bot.words.names import decision_label, drawn_position, offer_text
from engine.rules import new_game, parse_decision, view


def test_a_competition_reads_as_its_two_pairs():
    competition = parse_decision("4ABEG")
    assert offer_text(competition) == "AB | EG"
    assert decision_label("en", competition) == "AB | EG"


def test_a_gift_reads_as_its_letters():
    gift = parse_decision("3EEG")
    assert offer_text(gift) == "E E G"
    assert decision_label("en", gift).endswith("E E G")


def test_the_drawn_card_is_marked_on_the_last_copy_of_its_kind():
    mine = view(new_game(seed=3), 0)
    hand = (1, 4, 4, 4, 6)
    assert drawn_position(replace(mine, hand=hand, drawn=4)) == 3
    assert drawn_position(replace(mine, hand=hand, drawn=6)) == 4
    assert drawn_position(replace(mine, hand=hand, drawn=None)) is None
