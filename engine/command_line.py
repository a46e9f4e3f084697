"""What every command line of the project shares: a bad argument is one line and exit
status 2, numbers are bounded before any work starts, and ``--help`` is whole.

>>> parser = CommandLineParser(prog="demo")
>>> _ = parser.add_argument("--games", type=count(1, 1000), default=10)
>>> parser.parse_args(["--games", "5"]).games
5
>>> count(1, 1000)("0")
Traceback (most recent call last):
    ...
argparse.ArgumentTypeError: must be from 1 to 1,000, got '0'
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

SEED_LIMIT = 2**63 - 1
"""Seeds are stored in 64-bit database columns; a larger one would not round-trip."""
JOBS_PER_CORE = 4
"""``--jobs`` at most this many processes per core: more only queue for the same cores."""
SHOWN_CHARACTERS = 40
"""A bad value is quoted in its error up to this many characters."""


class CommandLineParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose refusal is one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (--help lists the options)\n")


def description(doc: str | None) -> str:
    """A module docstring's first paragraph as one line: a ``--help`` text that is whole."""
    first = (doc or "").strip().split("\n\n", 1)[0]
    return " ".join(first.split())


def shown(text: str) -> str:
    """``text`` quoted for an error message, cut short if long."""
    if len(text) <= SHOWN_CHARACTERS:
        return repr(text)
    return repr(text[:SHOWN_CHARACTERS]) + f"… ({len(text):,} characters)"


def count(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low:,} to {high:,}, got {shown(text)}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, got {shown(text)}")
        return value

    return parse


def amount(low: float, high: float, *, unit: str = "") -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` to ``high`` (``unit`` for the error)."""
    unit = f" {unit}" if unit else ""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(
                f"must be a number from {low:g} to {high:g}{unit}, got {shown(text)}"
            )
        return value

    return parse


def seed(text: str) -> int:
    """An argparse ``type``: a seed, a whole number from 0 to 2**63 - 1."""
    return count(0, SEED_LIMIT)(text)


def most_jobs() -> int:
    """The most worker processes a command may start on this machine."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def jobs(text: str) -> int:
    """An argparse ``type``: processes to start, from 1 to :func:`most_jobs`."""
    try:
        return count(1, most_jobs())(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(
            f"{error} ({JOBS_PER_CORE} per core on this machine's {os.cpu_count() or 1})"
        ) from None


def fail(prog: str, message: str) -> int:
    """Print ``message`` as the one error line of ``prog``; the exit status for it (1)."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 1
