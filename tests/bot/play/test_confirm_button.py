"""The panel confirms a move in words, with its notation beside it, in the reader's language."""

from __future__ import annotations

import pytest

from bot.play.confirm_button import done_text
from engine.rules import parse_decision


@pytest.mark.parametrize(
    ("notation", "english", "spanish_action"),
    [
        ("1E", "✅ Secret: E (1E)", "Secreto"),
        ("2FG", "✅ Trade-off: F G (2FG)", "Renuncia"),
        ("3CDE", "✅ Gift: C D E (3CDE)", "Regalo"),
        ("4EGAB", "✅ Competition: AB | EG (4ABEG)", "Competición"),
    ],
)
def test_a_confirmed_action_reads_in_words_with_the_notation_beside_it(
    notation, english, spanish_action
):
    decision = parse_decision(notation)

    assert done_text("en", decision) == english
    assert done_text("es", decision).startswith(f"✅ {spanish_action}: ")
    assert done_text("es", decision).endswith(f" ({decision})")


def test_a_choice_reads_as_what_was_taken():
    assert done_text("en", parse_decision("-AB")) == "✅ You took AB."
