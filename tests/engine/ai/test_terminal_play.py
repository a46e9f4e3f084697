"""``python -m engine play``: a whole game from scripted input, bad input, leaving early."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

from engine.ai import terminal
from engine.rules import GameState
from engine.rules.decisions import (
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
)
from engine.rules.errors import NotationError
from engine.rules.views import PlayerView


class ScriptedInput(io.StringIO):
    """Answers every prompt with the first menu entry, after some given lines."""

    def __init__(self, first_lines: list[str]) -> None:
        super().__init__()
        self.lines = list(first_lines)
        self.read_count = 0

    def readline(self, size: int | None = -1) -> str:
        self.read_count += 1
        return self.lines.pop(0) + "\n" if self.lines else "1\n"


class FirstLegalAgent:
    """Always the first legal decision: Secret, then Trade-off, Gift, Competition."""

    name = "scripted"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        return view.legal[0]


def scripted_game(lines: list[str]) -> tuple[int, str]:
    """A game where the AI (seat 1) starts and plays its markers in order."""
    stdin, out = ScriptedInput(lines), io.StringIO()
    state = GameState(seed=3, first_player=1)
    code = terminal.play_game(FirstLegalAgent(), state, stdin, out, random.Random(0))
    return code, out.getvalue()


def test_a_whole_game_with_bad_lines_on_the_way() -> None:
    code, text = scripted_game(["zzz", "99", "  ", "help", "table", "1", "1A"])
    assert code == 0
    assert text.count("AI plays a Secret (1X): one card face down.") >= 1
    assert "Not understood: not a decision: 'ZZZ'" in text
    assert "Not understood: there is no decision number 99: choose 1 to " in text
    assert "Type a number from the menu" in text  # the help
    assert "Not allowed: 1A: Secret was already used this round." in text
    assert "AI offers a Gift" in text and "AI offers a Competition" in text
    assert "from your Gift." in text and "from your Competition." in text
    assert "=== round 1 scored: your Secret" in text
    last = text.rstrip().splitlines()[-1]
    assert last.startswith(("You win with", "The AI wins with")) and last.endswith("round(s).")


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
