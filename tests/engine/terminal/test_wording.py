"""The table's words: seats named you and the AI, counts singular for one."""

from __future__ import annotations

import re

from engine.rules import Termination
from engine.rules.outcome import MatchOutcome
from engine.terminal.board import render_outcome
from engine.terminal.wording import in_your_words, plural
from tests.engine.terminal.player import Player, play


def test_the_rules_reasons_name_the_seats() -> None:
    assert in_your_words("player 0 holds only one E") == "you hold only one E"
    assert (
        in_your_words("player 1 must first take from player 0's Gift 3CDE")
        == "the AI must first take from your Gift 3CDE"
    )
    assert in_your_words("player 1 holds no A") == "the AI holds no A"


def test_counts_are_singular_for_one() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(2, "card") == "2 cards"
    assert plural(0, "geisha") == "0 geishas"
    assert plural(1, "charm point") == "1 charm point"
    one_round = MatchOutcome(0, Termination.GEISHAS, 1)
    assert render_outcome(one_round) == "You win with the favor of 4 geishas after 1 round."
    three = MatchOutcome(1, Termination.CHARM, 3)
    assert render_outcome(three) == "The AI wins with 11 charm points or more after 3 rounds."
    _, text, _ = play(lambda out: Player(out))
    assert "1 card in the pile" in text
    assert not re.search(r"\b1 (cards|geishas|rounds|charm points)\b", text)
    assert "(s)" not in text
