"""The pace of a match: a timer per turn, a chess-style clock, or days per move.

A time control has a text code, stored with the match and chosen in commands:

>>> TimeControl.parse("clock:300+5")
TimeControl(pace=<Pace.CLOCK: 'clock'>, seconds=300.0, increment=5.0)
>>> TimeControl.days(2).code
'days:2'
>>> TimeControl.parse("clock:5")
Traceback (most recent call last):
...
engine.clocks.time_control.BadTimeControl: 'clock:5': a clock is 'clock:<seconds>+<increment>'
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

DAY_SECONDS = 24 * 3600.0

OVERDUE_GRACE_SECONDS = 12 * 3600.0
"""Turn-based play: how long after a player's days run out before their opponent is
offered to claim the win (or let the AI play, or keep waiting). Half a day, so that
nobody loses a match because their time ran out while they slept."""

CLOCK_PRESETS: tuple[tuple[int, int], ...] = ((3, 2), (5, 5), (10, 5), (15, 10), (30, 20))
"""The clocks the commands offer: (minutes in each bank, seconds added per decision)."""

DAYS_CHOICES: tuple[int, ...] = (1, 2, 3)
"""The days per move the commands offer for turn-based play."""

MAX_DAYS = 7


class BadTimeControl(ValueError):
    """A time control that is malformed or out of range; the message quotes it."""

    def __init__(self, code: str, reason: str) -> None:
        self.code = code
        super().__init__(f"{code!r}: {reason}")


class Pace(enum.StrEnum):
    PER_TURN = "turn"
    """A fixed time for each decision, fresh every turn (the bot's first timer)."""
    CLOCK = "clock"
    """Chess-style: a bank per player that runs while they decide, plus an increment per
    decision (:class:`~engine.clocks.chess_clock.ChessClock`)."""
    DAYS = "days"
    """Turn-based: days per decision; when they run out the waiting player chooses what
    happens (nothing is decided for a player automatically)."""


_CODE = re.compile(r"(turn|days):(\d+(?:\.\d+)?)|clock:(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)")


@dataclass(frozen=True, slots=True)
class TimeControl:
    pace: Pace
    seconds: float
    """Per turn, the timer; for a clock, each bank at the start; turn-based, the days per
    decision in seconds."""
    increment: float = 0.0
    """Clock only: seconds added to a bank after each of its decisions."""

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise BadTimeControl(self.code, "the time must be more than 0 seconds")
        if self.increment < 0 or (self.increment and self.pace is not Pace.CLOCK):
            raise BadTimeControl(self.code, "only a clock has an increment, of 0 s or more")
        if self.pace is Pace.DAYS:
            days = self.seconds / DAY_SECONDS
            if days != int(days) or not 1 <= days <= MAX_DAYS:
                raise BadTimeControl(self.code, f"turn-based play is 1 to {MAX_DAYS} whole days")

    @classmethod
    def per_turn(cls, seconds: float) -> TimeControl:
        return cls(Pace.PER_TURN, float(seconds))

    @classmethod
    def clock(cls, minutes: float, increment: float) -> TimeControl:
        return cls(Pace.CLOCK, float(minutes) * 60, float(increment))

    @classmethod
    def days(cls, days: int) -> TimeControl:
        return cls(Pace.DAYS, days * DAY_SECONDS)

    @classmethod
    def parse(cls, code: str) -> TimeControl:
        """The time control of a stored or typed code (``turn:90``, ``clock:300+5``,
        ``days:2``); :class:`BadTimeControl` quoting it otherwise."""
        found = _CODE.fullmatch(code.strip())
        if found is None:
            if code.startswith("clock:"):
                raise BadTimeControl(code, "a clock is 'clock:<seconds>+<increment>'")
            raise BadTimeControl(code, "not 'turn:<seconds>', 'clock:<s>+<s>' or 'days:<n>'")
        kind, amount, bank, increment = found.groups()
        if kind == "turn":
            return cls.per_turn(float(amount))
        if kind == "days":
            if "." in amount:
                raise BadTimeControl(code, "turn-based play counts whole days")
            return cls.days(int(amount))
        return cls(Pace.CLOCK, float(bank), float(increment))

    @property
    def code(self) -> str:
        if self.pace is Pace.DAYS:
            return f"days:{self.seconds / DAY_SECONDS:g}"
        if self.pace is Pace.CLOCK:
            return f"clock:{self.seconds:g}+{self.increment:g}"
        return f"turn:{self.seconds:g}"

    @property
    def day_count(self) -> int:
        """Turn-based: the days per decision."""
        return round(self.seconds / DAY_SECONDS)

    def next_deadline(self, now: float, bank: float, paused_until: float | None = None) -> float:
        """When the decision due from ``now`` must be made: the timer from now, the bank
        of the seat to move (``bank``) from now, or its days from now (from the end of its
        vacation, turn-based, if ``paused_until`` is later).

        >>> TimeControl.clock(5, 5).next_deadline(1000.0, bank=42.5)
        1042.5
        >>> TimeControl.days(1).next_deadline(0.0, bank=0, paused_until=500.0)
        86900.0
        """
        if self.pace is Pace.CLOCK:
            return now + bank
        if self.pace is Pace.DAYS and paused_until is not None:
            return max(now, paused_until) + self.seconds
        return now + self.seconds

    def reminder_lead(self, configured: float) -> float:
        """How long before a deadline its player is reminded: the configured lead, at most
        half the time a turn starts with."""
        return min(configured, self.seconds / 2)
