"""Test helpers: a scripted agent, and stdin typed by a player who reads the screen."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable

from engine.rules import GameState, view
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView
from engine.terminal.session import play_game

BOARD_TOP = "--- Round "


class FirstLegalAgent:
    """Always the first legal decision: Secret, then Trade-off, Gift, Competition."""

    name = "scripted"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        return view.legal[0]


class Player(io.StringIO):
    """Stdin typed by a player reading the screen.

    The player first types ``script``, then follows the menus: Enter to confirm, the first
    (or, with ``last_action``, the last) action offered, the first cards of the hand, the
    first split or part of an offer; with ``noise``, that many wrong answers before each
    right one.
    At every prompt it keeps the screen: what an 80×24 terminal shows as it types.
    """

    def __init__(
        self,
        out: io.StringIO,
        script: list[str] | None = None,
        *,
        last_action: bool = False,
        noise: int = 0,
    ) -> None:
        super().__init__()
        self.out = out
        self.script = list(script or [])
        self.last_action = last_action
        self.noise = noise
        self.screens: list[list[str]] = []
        self.typed = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        lines = self.out.getvalue().split("\n")
        self.screens.append(lines[-24:])
        self.typed += 1
        if self.typed > 2000:
            raise AssertionError("the game does not end")
        if self.script:
            return self.script.pop(0) + "\n"
        if self.noise and self.typed % (self.noise + 1):
            return "zz\n"
        return self.follow(lines) + "\n"

    def follow(self, lines: list[str]) -> str:
        if lines[-1].startswith("Press Enter"):
            return ""
        if lines[-1].endswith("[Y/n] "):
            return ""
        if lines[-1].endswith("[y/N] "):
            return "n"
        head_at = max(
            i
            for i, line in enumerate(lines)
            if line.startswith(("Your turn", "The AI's "))
            or ": choose " in line
            or "which two pairs?" in line
        )
        head = lines[head_at]
        options = [line for line in lines[head_at + 1 :] if re.match(r"  \d\) ", line)]
        if head.startswith("Your turn"):
            chosen = options[-1] if self.last_action else options[0]
            return chosen.split(")")[0].strip()
        count = re.search(r"choose (\d) cards?", head)
        if count:
            return " ".join(str(i) for i in range(1, int(count.group(1)) + 1))
        return "1"


def play(
    make_input: Callable[[io.StringIO], Player], state: GameState | None = None
) -> tuple[int, str, Player]:
    """A game against the first-legal agent, the AI (seat 1) starting, unless ``state``."""
    out = io.StringIO()
    stdin = make_input(out)
    state = state or GameState(seed=3, first_player=1)
    code = play_game(FirstLegalAgent(), state, stdin, out, random.Random(0), echo=True)
    return code, out.getvalue(), stdin


def human_starts(seed: int = 3) -> tuple[GameState, PlayerView]:
    state = GameState(seed=seed, first_player=0)
    return state, view(state, 0)
