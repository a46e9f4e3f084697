"""``python -m engine play`` as a player sees it: whole games from typed lines, every
screen within 80×24, and leaving without a traceback."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from engine.rules import GameState
from engine.terminal.menus import HELP
from engine.terminal.session import run
from tests.engine.terminal.player import BOARD_TOP, Player, play


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
def test_a_whole_game_against_the_ai_with_a_fixed_seed(level: str) -> None:
    out = io.StringIO()
    stdin = Player(out)
    assert run(level, 7, stdin, out) == 0
    text = out.getvalue()
    assert text.startswith(f"Hanamikoji against the AI ({level}), seed 7.\n")
    assert "*** Round 1: " in text and "=== Round 1 scored: your Secret was " in text
    assert "Your turn: choose an action" in text
    assert re.search(r"You play your (Secret|Trade-off|Gift|Competition) ", text)
    assert re.search(r"The AI offers a (Gift|Competition): ", text)
    last = text.rstrip().splitlines()[-1]
    assert re.fullmatch(
        r"(You win|The AI wins) with (11 charm points or more|the favor of 4 geishas) "
        r"after (1 round|[2-9] rounds)\.",
        last,
    ), last
    if level == "normal":  # the same seed plays the same game
        again = io.StringIO()
        run(level, 7, Player(again), again)
        assert again.getvalue() == text


@pytest.mark.parametrize("last_action", [False, True])
@pytest.mark.parametrize("noise", [0, 1, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_screen_shows_the_board_and_its_menu_within_80_by_24(
    seed: int, last_action: bool, noise: int
) -> None:
    state = GameState(seed=seed, first_player=seed % 2)
    code, text, player = play(lambda out: Player(out, last_action=last_action, noise=noise), state)
    assert code == 0
    assert max(len(line) for line in text.splitlines()) <= 79
    for screen in player.screens:
        if screen[-1].startswith("Press Enter for round "):
            continue  # a round's summary, which the next test reads
        tops = [i for i, line in enumerate(screen) if line.startswith(BOARD_TOP)]
        assert tops, "the board scrolled off:\n" + "\n".join(screen)
        under_board = screen[tops[-1] :]
        assert "your hand" in "\n".join(under_board)
        asks_yes_or_no = screen[-1].endswith(("[Y/n] ", "[y/N] "))
        assert asks_yes_or_no or any(re.match(r"  \d\) ", line) for line in under_board), (
            "the menu scrolled off:\n" + "\n".join(screen)
        )
    if last_action:  # the longest path: Competition, four cards, the split, confirm
        assert "which two pairs?" in text
        # The last Secret, one card in hand, goes straight to the confirm step.
        assert "It is the only decision you can make.\nSecret " in text
    else:  # the last action, Competition, starts at the split of the last four cards
        assert "Your turn: your Competition is the only action left.\nCompetition " in text


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_rounds_summary_waits_on_screen_for_enter(seed: int) -> None:
    state = GameState(seed=seed, first_player=seed % 2)
    code, text, player = play(lambda out: Player(out), state)
    assert code == 0
    pauses = [s for s in player.screens if s[-1].startswith("Press Enter for round ")]
    assert len(pauses) == len(state.results) - 1  # none after the last round: the game ends
    for number, screen in enumerate(pauses, start=1):
        assert screen[-1] == f"Press Enter for round {number + 1}. "
        [header] = [line for line in screen if line.startswith(f"=== Round {number} scored: ")]
        assert "your Secret was " in header
        summary = screen[screen.index(header) :]
        assert any(line.startswith("score") for line in summary)
        assert any(line.startswith("moved") for line in summary)
    # The next round starts only after the Enter.
    for number in range(1, len(state.results)):
        assert text.index(f"Press Enter for round {number + 1}. ") < text.index(
            f"*** Round {number + 1}: "
        )


def test_the_longest_screen_is_a_competition_split_and_fits() -> None:
    code, _, player = play(lambda out: Player(out, last_action=True))
    assert code == 0
    split = next(s for s in player.screens if s[-1].startswith("Competition "))
    top = max(i for i, line in enumerate(split) if line.startswith(BOARD_TOP))
    shown = split[top:]
    assert len(shown) <= 24
    assert any(line.startswith("  4) Competition") for line in shown)  # the action menu
    assert any("which two pairs?" in line for line in shown)
    assert shown[-1].endswith("— play it? [Y/n] ")


def test_end_of_input_leaves_the_game_politely() -> None:
    out = io.StringIO()
    assert run("normal", 5, io.StringIO("1\n"), out) == 1
    assert out.getvalue().rstrip().endswith("You left the game; the AI wins by resignation.")


def test_ctrl_c_leaves_the_game_politely() -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    out = io.StringIO()
    assert run("easy", 5, Interrupting(), out) == 1
    assert "You left the game" in out.getvalue()


def test_the_command_line_plays_through_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--level", "easy", "--seed", "9"],
        input="oops\nhelp\nquit\nn\nquit\ny\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("Hanamikoji against the AI (easy), seed 9.\n")
    assert "> oops\n" in done.stdout  # piped input is echoed, as a terminal would
    assert "Commands: back, board, help, quit (asks first)." in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) <= 79
    assert HELP in done.stdout  # unwrapped: every line fits
    assert "You play on." in done.stdout
    assert done.stdout.rstrip().endswith("You resigned; the AI wins.")
    assert done.stderr == ""
