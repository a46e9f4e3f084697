"""Reliability: how often a member sees their matches through.

A match a member lost because their time ran out (their clock fell, they were absent two
turns in a row, or their opponent claimed the win of an overdue turn-based match) is
*abandoned*; every other match they finished counts as *finished*. Their reliability is
the share finished, in percent; below :data:`MIN_MATCHES` ended matches they have none yet,
and any minimum lets them in.

>>> Reliability(finished=9, abandoned=1).percent
90
>>> Reliability(finished=2, abandoned=1).percent is None
True
>>> Reliability(finished=3, abandoned=2).meets(80)
False
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_MATCHES = 5
"""Ended matches before a member's reliability counts (a newcomer is not judged by one)."""


@dataclass(frozen=True, slots=True)
class Reliability:
    finished: int
    abandoned: int

    @property
    def ended(self) -> int:
        return self.finished + self.abandoned

    @property
    def percent(self) -> int | None:
        """The share of ended matches finished, rounded down; None below the minimum."""
        if self.ended < MIN_MATCHES:
            return None
        return 100 * self.finished // self.ended

    def meets(self, minimum: int | None) -> bool:
        """Whether an open seat or tournament asking ``minimum`` percent lets them in."""
        percent = self.percent
        return minimum is None or percent is None or percent >= minimum
