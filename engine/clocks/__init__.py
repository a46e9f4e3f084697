"""Time controls: how long each player has, pure and synchronous like the rules.

- :mod:`.time_control`: the three paces a match is played at (a timer per turn, a
  chess-style clock, days per move) and when a turn's time runs out;
- :mod:`.chess_clock`: each seat's bank of time, charged decision by decision;
- :mod:`.vacation`: the days a member may pause their turn-based matches each year.

The match service stores the deadlines these work out and acts when one passes.
"""

from engine.clocks.chess_clock import ChessClock
from engine.clocks.time_control import (
    CLOCK_PRESETS,
    DAY_SECONDS,
    DAYS_CHOICES,
    OVERDUE_GRACE_SECONDS,
    BadTimeControl,
    Pace,
    TimeControl,
)
from engine.clocks.vacation import BadVacation, Vacation, VacationAllowance

__all__ = [
    "CLOCK_PRESETS",
    "DAYS_CHOICES",
    "DAY_SECONDS",
    "OVERDUE_GRACE_SECONDS",
    "BadTimeControl",
    "BadVacation",
    "ChessClock",
    "Pace",
    "TimeControl",
    "Vacation",
    "VacationAllowance",
]
