"""Vacations: a member pauses their turn-based matches for some days, up to an allowance
per calendar year (UTC), which each server sets.

>>> allowance = VacationAllowance(days_per_year=14)
>>> taken = [Vacation(starts_at=0.0, ends_at=3 * 86400.0)]
>>> allowance.days_left(taken, now=86400.0 * 10)
11.0
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from engine.clocks.time_control import DAY_SECONDS

DEFAULT_DAYS_PER_YEAR = 14


class BadVacation(ValueError):
    """A vacation that cannot be taken; the message says why, quoting the days asked."""


@dataclass(frozen=True, slots=True)
class Vacation:
    starts_at: float
    ends_at: float
    """When it ends (or ended, if it was ended early)."""

    @property
    def days(self) -> float:
        return max(0.0, self.ends_at - self.starts_at) / DAY_SECONDS

    def is_on(self, now: float) -> bool:
        return self.starts_at <= now < self.ends_at


def _year(at: float) -> int:
    return dt.datetime.fromtimestamp(at, dt.UTC).year


@dataclass(frozen=True, slots=True)
class VacationAllowance:
    days_per_year: int = DEFAULT_DAYS_PER_YEAR

    def days_left(self, taken: Iterable[Vacation], now: float) -> float:
        """The days still free this year: the allowance less the vacations begun in it."""
        year = _year(now)
        used = sum(v.days for v in taken if _year(v.starts_at) == year)
        return max(0.0, self.days_per_year - used)

    def take(self, taken: Iterable[Vacation], days: int, now: float) -> Vacation:
        """A vacation of ``days`` from ``now``; :class:`BadVacation` if it is not possible."""
        taken = list(taken)
        if any(v.is_on(now) for v in taken):
            raise BadVacation(f"{days} days: a vacation is already under way")
        if days < 1:
            raise BadVacation(f"{days} days: a vacation is at least 1 day")
        left = self.days_left(taken, now)
        if days > left:
            raise BadVacation(
                f"{days} days: only {left:g} of {self.days_per_year} are left this year"
            )
        return Vacation(now, now + days * DAY_SECONDS)
