"""The presses on a board through which the board's next edit may go.

A Take pressed on the board is acknowledged with a deferred update (the interaction's
message is the board), and the presenter's edit that shows the move is then sent through
that interaction's webhook (``PATCH /webhooks/{application.id}/{token}/messages/@original``).
Discord does not count interaction endpoints against the bot's global rate limit, so the
edit a player waits for skips the bot's pace, and leaves its place to openings and DMs.

The presenter stays the only writer of the board: a press only leaves its interaction in
its match's slot, and the board's next edit that shows a version after the one the press
was made on takes it. The token lasts 15 minutes; one the edit finds expired or refused
is dropped and the board edited as usual (:mod:`bot.play.board_editor`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

H = TypeVar("H")
"""What edits the board through the press (a ``discord.Interaction``; anything in tests)."""


@dataclass(frozen=True, slots=True)
class BoardPress(Generic[H]):
    """A press on a match's board: the version of the board pressed, and its interaction."""

    pressed_on: int
    interaction: H


class BoardInteractions(Generic[H]):
    """One slot per match: the latest press on its board whose interaction may carry the
    board's next edit.

    >>> slots = BoardInteractions[str]()
    >>> slots.leave(7, pressed_on=12, interaction="take")
    >>> slots.take(7, showing=12) is None  # the board as it was pressed: not this edit
    True
    >>> slots.take(7, showing=13)
    'take'
    >>> slots.take(7, showing=14) is None  # one edit per press
    True
    """

    def __init__(self) -> None:
        self._slots: dict[int, BoardPress[H]] = {}

    def leave(self, match_id: int, *, pressed_on: int, interaction: H) -> None:
        """A press on the board of version ``pressed_on``: the edit that shows a later
        version may go through ``interaction`` (a later press replaces an earlier one)."""
        self._slots[match_id] = BoardPress(pressed_on, interaction)

    def withdraw(self, match_id: int, interaction: H) -> None:
        """The press was refused: it moved nothing, and its interaction carries the refusal."""
        press = self._slots.get(match_id)
        if press is not None and press.interaction is interaction:
            del self._slots[match_id]

    def take(self, match_id: int, *, showing: int) -> H | None:
        """The interaction the edit of the board at version ``showing`` may go through,
        if a press on an earlier version left one; it is taken, used once."""
        press = self._slots.get(match_id)
        if press is None or showing <= press.pressed_on:
            return None
        del self._slots[match_id]
        return press.interaction

    def forget(self, match_id: int) -> None:
        """The match is over and its final board shown."""
        self._slots.pop(match_id, None)
