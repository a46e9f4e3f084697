"""The terminal's output and input: wrapped to 80 columns, the board kept within 24 lines."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import IO

SCREEN_HEIGHT = 24
SCREEN_WIDTH = 80
LINE_WIDTH = SCREEN_WIDTH - 1
"""Lines stop one column short: a full-width line wraps onto a blank line in some consoles."""


class Quit(Exception):
    """The human left: ``quit`` confirmed (``resigned``) or end of input."""

    def __init__(self, *, resigned: bool) -> None:
        super().__init__("resigned" if resigned else "end of input")
        self.resigned = resigned


class Screen:
    """The output side of the terminal, which keeps the board in sight.

    It counts the lines printed since the board's first line; a menu that would push the
    board off a ``height``-line screen gets the board printed again above it.
    """

    def __init__(self, out: IO[str], *, echo: bool, height: int = SCREEN_HEIGHT) -> None:
        self.out = out
        self.echo = echo
        """Print each input line after its prompt, as a terminal would (for piped input)."""
        self.height = height
        self.board = ""
        self.since_board: int | None = None

    def say(self, text: str = "") -> None:
        """Print text, each paragraph wrapped to the screen's width."""
        lines = [
            wrapped
            for line in text.split("\n")
            for wrapped in (textwrap.wrap(line, LINE_WIDTH, subsequent_indent="  ") or [""])
        ]
        print("\n".join(lines), file=self.out)
        if self.since_board is not None:
            self.since_board += len(lines)

    def show_board(self, board: str) -> None:
        self.board = board
        self.since_board = 0
        self.say(board)

    def has_room(self, lines: int) -> bool:
        """Whether ``lines`` more and a prompt fit under the board."""
        return self.since_board is not None and self.since_board + lines + 1 <= self.height

    def show(self, lines: Sequence[str]) -> None:
        """Print a menu with the board still on screen, and room for the prompt under it."""
        if not self.has_room(len(lines)):
            self.show_board(self.board)
        for line in lines:
            self.say(line)

    def ask(self, prompt: str, stdin: IO[str]) -> str:
        """Prompt and read a line; :class:`Quit` at end of input."""
        print(prompt, end="", file=self.out, flush=True)
        line = stdin.readline()
        if not line:
            print(file=self.out)
            raise Quit(resigned=False)
        if self.echo:
            print(line.rstrip("\n"), file=self.out)
        if self.since_board is not None:
            self.since_board += 1
        return line.strip()
