"""The presses on a board through which the board's next edit may go.

A Take pressed on the board is acknowledged with a deferred update (the interaction's
message is the board), and the presenter's edit that shows the move is then sent through
that interaction's webhook (``PATCH /webhooks/{application.id}/{token}/messages/@original``).
Discord does not count interaction endpoints against the bot's global rate limit, so the
edit a player waits for skips the bot's pace, and leaves its place to openings and DMs.

The presenter stays the only writer of the board: a press only leaves its interaction in
its match's slot, and the board's next edit that shows a version after the one the press
was made on takes it. The token lasts 15 minutes; one the edit finds expired or refused
is dropped and the board edited as usual (:mod:`bot.play.board_editor`). A press whose
board did not come to show the move where it was pressed (the board moved to the channel,
posted again) gets its private note instead, so the presser is never left without an
answer.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

REMEMBERED = 4096
"""Presses kept at most, the oldest dropped first: in a cluster another process may show
the match, and this one's press then waits for an edit that never comes here (its token
is useless after 15 minutes anyway)."""

H = TypeVar("H")
"""What edits the board through the press (a ``discord.Interaction``; anything in tests)."""


@dataclass(slots=True)
class BoardPress(Generic[H]):
    """A press on a match's board: the version of the board pressed, its interaction, and
    the private note that answers it if the board cannot."""

    pressed_on: int
    interaction: H
    note: str
    answered: bool = False
    """Set by the board's edit once the board where it was pressed shows the move."""


class BoardInteractions(Generic[H]):
    """One slot per match: the latest press on its board whose interaction may carry the
    board's next edit.

    >>> slots = BoardInteractions[str]()
    >>> slots.leave(7, pressed_on=12, interaction="take", note="You took C.")
    >>> slots.take(7, showing=12) is None  # the board as it was pressed: not this edit
    True
    >>> slots.take(7, showing=13).interaction
    'take'
    >>> slots.take(7, showing=14) is None  # one edit per press
    True
    """

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self._slots: OrderedDict[int, BoardPress[H]] = OrderedDict()
        self._remembered = remembered

    def leave(self, match_id: int, *, pressed_on: int, interaction: H, note: str) -> None:
        """A press on the board of version ``pressed_on``: the edit that shows a later
        version may go through ``interaction`` (a later press replaces an earlier one);
        ``note`` answers it privately if that edit does not show the move where it was
        pressed."""
        self._slots[match_id] = BoardPress(pressed_on, interaction, note)
        self._slots.move_to_end(match_id)
        while len(self._slots) > self._remembered:
            self._slots.popitem(last=False)

    def withdraw(self, match_id: int, interaction: H) -> None:
        """The press was refused: it moved nothing, and its interaction carries the refusal."""
        press = self._slots.get(match_id)
        if press is not None and press.interaction is interaction:
            del self._slots[match_id]

    def take(self, match_id: int, *, showing: int) -> BoardPress[H] | None:
        """The press the edit of the board at version ``showing`` may go through, if one
        was made on an earlier version; it is taken, used once."""
        press = self._slots.get(match_id)
        if press is None or showing <= press.pressed_on:
            return None
        del self._slots[match_id]
        return press

    def put_back(self, match_id: int, press: BoardPress[H]) -> None:
        """A press taken by an edit that was withdrawn: the next edit takes it, unless a
        newer press is waiting already."""
        self._slots.setdefault(match_id, press)

    def forget(self, match_id: int) -> None:
        """The match is over and its final board shown."""
        self._slots.pop(match_id, None)
