"""The turn deadline the thread's board showed at each step of a match.

The board draws when the turn ends, and a review's picture is the board as the thread
showed it, so it draws the same time: at step 0 the deadline the match started with, at
step ``k`` the one the ``k``-th decision set (kept with each stored decision). A finished
board draws none. A deadline moved while the bot was down (a turn's grace after a restart)
is not stored with a decision: that one step's picture then shows the time first set.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.model import DecisionRow, MatchInfo


def thread_deadlines(info: MatchInfo, decisions: Sequence[DecisionRow]) -> tuple[float | None, ...]:
    """``result[k]``: the deadline shown at step k, for every step of the match."""
    start = None if info.started_at is None else info.started_at + info.turn_seconds
    by_step = sorted(decisions, key=lambda row: row.seq)
    return (start, *(row.next_deadline for row in by_step))
