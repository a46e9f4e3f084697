"""``python -m engine play``: a whole game from scripted input, bad input, leaving early."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from engine.ai import terminal
from engine.decisions import Competition, CompetitionChoice, Gift, GiftChoice, Secret
from engine.errors import NotationError


class ScriptedInput(io.StringIO):
    """Answers every prompt with the first menu entry, after some given lines."""

    def __init__(self, first_lines: list[str]) -> None:
        super().__init__()
        self.lines = list(first_lines)
        self.read_count = 0

    def readline(self, size: int | None = -1) -> str:
        self.read_count += 1
        return self.lines.pop(0) + "\n" if self.lines else "1\n"


def test_a_whole_game_with_a_bad_line_on_the_way() -> None:
    stdin, out = ScriptedInput(["zzz", "99", "  ", "help", "table"]), io.StringIO()
    assert terminal.run("easy", 3, stdin, out) == 0
    text = out.getvalue()
    assert "Not understood: not a decision: '-ZZZ'" in text  # seed 3 opens with an AI offer
    assert "Not understood: there is no decision number 99: choose 1 to 2." in text
    assert "=== round 1 scored: your Secret" in text
    assert "AI offers a Competition: AD or BD. Take a pair." in text
    assert text.rstrip().splitlines()[-1].endswith("round(s).")
    assert ("You win" in text) != ("The AI wins" in text)


def test_an_illegal_decision_names_the_rule() -> None:
    stdin, out = ScriptedInput(["1G"]), io.StringIO()
    assert terminal.run("easy", 3, stdin, out) == 0
    assert "Not allowed: 1G: player 0 must first take from player 1's Competition" in (
        out.getvalue()
    )


def test_end_of_input_leaves_the_game_politely() -> None:
    out = io.StringIO()
    assert terminal.run("normal", 5, io.StringIO("1\n"), out) == 1
    assert out.getvalue().rstrip().endswith("You left the game; the AI wins by resignation.")


def test_ctrl_c_leaves_the_game_politely() -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    assert terminal.run("easy", 5, Interrupting(), out) == 1
    assert "You left the game" in out.getvalue()


def test_input_is_a_menu_number_or_notation_in_any_case() -> None:
    actions = (Secret(0), Gift((1, 2, 3)), Competition(((0, 1), (2, 3))))
    assert terminal.parse_input("2", actions) == Gift((1, 2, 3))
    assert terminal.parse_input(" 3bcd ", actions) == Gift((1, 2, 3))
    assert terminal.parse_input("4abcd", actions) == Competition(((0, 1), (2, 3)))
    choices = (GiftChoice(1), GiftChoice(2))
    assert terminal.parse_input("c", choices) == GiftChoice(2)
    assert terminal.parse_input("-B", choices) == GiftChoice(1)
    assert terminal.parse_input("ab", (CompetitionChoice((0, 1)),)) == CompetitionChoice((0, 1))
    with pytest.raises(NotationError, match="no decision number 4"):
        terminal.parse_input("4", actions)
    with pytest.raises(NotationError):
        terminal.parse_input("5ABCDE", actions)


def test_the_command_line_plays_through_stdin() -> None:
    script = "oops\n" + "1\n" * 80
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--level", "easy", "--seed", "9"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Hanamikoji against the AI (easy), seed 9." in done.stdout
    assert "Not understood: not a decision:" in done.stdout
    assert done.stderr == ""
