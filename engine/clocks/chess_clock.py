"""A chess-style clock: each seat has a bank that runs while it decides.

The time between two decisions is the mover's: it is taken from their bank (never below
zero), then the increment is added. Nothing else ever adds time, and every second between
the start and the last decision is charged to exactly one seat:

>>> clock = ChessClock.start(300.0, started_at=0.0)
>>> clock = clock.charge(seat=0, at=20.0, increment=5.0)
>>> clock.banks, clock.used
((285.0, 300.0), (20.0, 0.0))
>>> clock.left(seat=1, now=320.0)
0.0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChessClock:
    banks: tuple[float, float]
    """Each seat's time left as of ``turn_started_at`` (the running seat's is not yet
    charged for the turn under way)."""
    used: tuple[float, float]
    """The time each seat has taken to decide so far (all of it, past an empty bank too)."""
    turn_started_at: float
    """When the last decision was made (or the match started): the running turn's start."""

    @classmethod
    def start(cls, bank: float, started_at: float) -> ChessClock:
        return cls((bank, bank), (0.0, 0.0), started_at)

    @classmethod
    def replay(
        cls,
        bank: float,
        increment: float,
        started_at: float,
        decisions: Iterable[tuple[int, float]],
    ) -> ChessClock:
        """The clock after ``decisions`` (each a seat and when it decided), in order."""
        clock = cls.start(bank, started_at)
        for seat, at in decisions:
            clock = clock.charge(seat, at, increment)
        return clock

    def charge(self, seat: int, at: float, increment: float) -> ChessClock:
        """The clock once ``seat`` decided at ``at``: the time since the turn started is
        taken from its bank (which stops at zero), then ``increment`` is added."""
        # A wall clock stepped back (or another host's clock a little behind) charges
        # nothing rather than refusing the move: the turn cannot have begun after it.
        at = max(at, self.turn_started_at)
        spent = at - self.turn_started_at
        banks = list(self.banks)
        used = list(self.used)
        banks[seat] = max(0.0, banks[seat] - spent) + increment
        used[seat] += spent
        return ChessClock((banks[0], banks[1]), (used[0], used[1]), at)

    def left(self, seat: int, now: float, running: bool = True) -> float:
        """``seat``'s time left at ``now``: its bank, less the turn under way if it is the
        seat to move (``running``)."""
        if not running:
            return self.banks[seat]
        return max(0.0, self.banks[seat] - max(0.0, now - self.turn_started_at))
