"""The public moves of each match's scored rounds, kept from the service's events.

The service's :class:`~engine.rules.views.PublicView` holds only the current round's moves
and its stored record shows every hidden card, so the bot keeps what spectators saw: the
public move of each :class:`~engine.service.events.DecisionApplied`, closed into a round
when that round is scored. In memory only: a round the bot did not watch from its first
move (a restart mid-match) is left out rather than shown in part.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.rules.notation import Move
from engine.rules.state import TURNS_PER_ROUND

_FORGET_AT = 1_000  # matches kept before the oldest are dropped


class MoveLog:
    """Public moves by match: the round under way, and each scored round by its number."""

    def __init__(self) -> None:
        self._current: dict[int, list[Move]] = {}
        self._scored: dict[int, dict[int, tuple[Move, ...]]] = {}

    def started(self, match_id: int) -> None:
        """A match began: its first round is watched from its first move."""
        self._trim()
        self._current[match_id] = []
        self._scored[match_id] = {}

    def moved(self, match_id: int, move: Move) -> None:
        """A public move; a taken offer completes the offer logged before it."""
        moves = self._current.get(match_id)
        if moves is None:
            return  # not watched from the round's start
        answered = moves[-1] if moves and moves[-1].choice is None else None
        if move.choice is not None and answered is not None and answered.action == move.action:
            moves[-1] = move
            return
        moves.append(move)

    def scored(self, match_id: int, round_number: int) -> None:
        """The round was scored: its moves are kept, and the next round is watched."""
        moves = self._current.get(match_id)
        if moves is not None and len(moves) == TURNS_PER_ROUND:
            self._scored.setdefault(match_id, {})[round_number] = tuple(moves)
        self._current[match_id] = []

    def ended(self, match_id: int) -> None:
        self._current.pop(match_id, None)

    def earlier(self, match_id: int) -> Mapping[int, Sequence[Move]]:
        """The scored rounds' public moves, by round number (those the bot watched)."""
        return self._scored.get(match_id, {})

    def _trim(self) -> None:
        while len(self._scored) >= _FORGET_AT:
            oldest = next(iter(self._scored))
            del self._scored[oldest]
            self._current.pop(oldest, None)
