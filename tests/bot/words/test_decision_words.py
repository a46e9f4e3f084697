"""The one wording of a decision and of a chance, shared by the hint line and the review."""

from __future__ import annotations

import pytest

from bot.words.decision_words import chance_percent, decision_words
from bot.words.i18n import text
from engine.rules import (
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)

ENGLISH: dict[Decision, str] = {
    Secret(4): "Secret E",
    TradeOff((1, 5)): "Trade-off B F",
    Gift((0, 1, 2)): "Gift A B C",
    Competition(((0, 1), (4, 6))): "Competition AB | EG",
    GiftChoice(4): "Take E Shamisen",
    CompetitionChoice((0, 1)): "Take AB",
}


def test_every_kind_of_decision_reads_as_the_panel_buttons_do():
    assert {d: decision_words("en", d) for d in ENGLISH} == ENGLISH


def test_a_spanish_reader_reads_the_actions_and_the_take_in_spanish():
    assert decision_words("es", Secret(4)) == f"{text('es', 'actions.secret')} E"
    assert decision_words("es", Gift((0, 1, 2))) == f"{text('es', 'actions.gift')} A B C"
    taken = decision_words("es", CompetitionChoice((0, 1)))
    assert taken == text("es", "panel.take_move", cards="AB") and taken != "Take AB"


def test_spanish_words_a_take_for_anyone_and_its_button_for_the_one_pressing_it():
    """A hint or a review names a take in the infinitive ("Quedarse con D Sombrilla"); only
    the button, which its presser reads as their own words, says "Quedarme con"."""
    assert decision_words("es", GiftChoice(3)) == "Quedarse con D Sombrilla"
    assert text("es", "panel.take", cards="D Sombrilla") == "Quedarme con D Sombrilla"
    assert text("es", "panel.took", cards="D Sombrilla") == "✅ Te has quedado con D Sombrilla."
    assert text("en", "panel.took", cards="D Parasol") == "✅ You took D Parasol."


@pytest.mark.parametrize(
    ("chance", "percent"),
    [(0.6249, 62), (0.6251, 63), (0.0, 0), (1.0, 100), (0.004, 0), (0.996, 100)],
)
def test_a_chance_is_a_whole_percent(chance: float, percent: int):
    assert chance_percent(chance) == percent


def test_a_chance_a_little_outside_its_bounds_is_never_shown_beyond_them():
    assert (chance_percent(-0.01), chance_percent(1.01)) == (0, 100)
