"""One decision of the human: the confirm step, ``back``, ``quit`` asking first, typed
notation, and refusals in the human's words."""

from __future__ import annotations

from engine.rules import Termination
from engine.rules.cards import GEISHAS
from engine.rules.decisions import Competition
from engine.rules.outcome import MatchOutcome
from engine.terminal.wording import words
from tests.engine.terminal.player import Player, human_starts, play


def test_a_decision_waits_for_confirmation_and_back_steps_back() -> None:
    state, first = human_starts()
    a, b = GEISHAS[first.hand[0]], GEISHAS[first.hand[-1]]
    script = ["1", a, "n", "back", f"1{b}", "y"]
    code, text, _ = play(lambda out: Player(out, script), state)
    assert code == 0
    asked = f"Secret {a} (1{a}) — play it? [Y/n] n\n"
    assert asked in text
    after_no = text.split(asked, 1)[1]
    # "n" returns to the cards; "back" to the actions; nothing was played in between.
    assert after_no.startswith("Secret: choose 1 card by letter")
    after_back = after_no.split("> back\n", 1)[1]
    assert "Your turn: choose an action" in after_back.split("> ", 1)[0]
    assert after_back.index(f"Secret {b} (1{b}) — play it? [Y/n] y") < after_back.index(
        "You play your"
    )
    assert f"You play your Secret {b} (1{b})." in text
    assert state.results[0].secrets[0] == first.hand[-1]


def test_a_bare_number_only_opens_the_next_step() -> None:
    state, _ = human_starts()
    code, text, _ = play(lambda out: Player(out, ["4", "1234", "back", "back", "quit", "y"]), state)
    assert code == 1
    assert "> 4\nCompetition: choose 4 cards" in text
    assert "You play your" not in text


def test_quit_asks_before_resigning() -> None:
    state, _ = human_starts()
    code, text, _ = play(lambda out: Player(out, ["quit", "n", "", "quit", "yes"]), state)
    assert code == 1
    assert text.count("Resign this game? The AI wins. [y/N] ") == 2
    assert "Resign this game? The AI wins. [y/N] n\nYou play on.\n" in text
    assert text.rstrip().endswith("You resigned; the AI wins.")
    assert state.outcome == MatchOutcome(1, Termination.RESIGNATION, 0)


def test_errors_speak_of_you_and_the_ai() -> None:
    state, first = human_starts()
    missing = next(g for g in GEISHAS if GEISHAS.index(g) not in first.hand)
    held = GEISHAS[first.hand[0]]
    script = [f"3{missing}{missing}{missing}", "-E", "1", held, "", "1", "2", missing * 2]
    code, text, _ = play(lambda out: Player(out, [*script, "quit", "y"]), state)
    assert code == 1
    three = f"3{missing * 3}"
    assert f"Not allowed: Gift {' '.join(missing * 3)} ({three}): you hold no {missing}." in text
    said = " ".join(text.split())  # long messages wrap at 80 columns
    assert (
        "Not allowed: take E (-E): no Gift or Competition is waiting for a choice; you must act."
        in said
    )
    assert "You already played your Secret this round." in text
    assert (
        f"Not allowed: Trade-off {missing} {missing} (2{missing * 2}): you hold no {missing}."
        in text
    )
    assert "player 0" not in text and "player 1" not in text


def test_typed_notation_still_works_and_is_confirmed() -> None:
    state, first = human_starts()
    h = first.hand
    competition = Competition(((h[0], h[1]), (h[2], h[3])))
    code, text, _ = play(lambda out: Player(out, [str(competition).lower(), "y"]), state)
    assert code == 0
    assert f"> {str(competition).lower()}\n{words(competition)} ({competition}) — play it?" in text
    assert f"You play your {words(competition)} ({competition})." in text
