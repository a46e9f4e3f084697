"""Whole moves in docs/rules.md notation: an action and, after Gift or Competition, its choice.

``1E`` Secret with an E; ``2FG`` Trade-off; ``3EEG-E`` Gift of E, E, G where the opponent
took E; ``4ABEG-AB`` Competition of AB and EG where the opponent took AB. ``1X`` and
``2XX`` are a Secret or a Trade-off as the opponent sees them (cards unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.decisions import (
    Action,
    ActionDecision,
    ChoiceDecision,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
    parse_decision,
)
from engine.rules.errors import NotationError


@dataclass(frozen=True, slots=True)
class HiddenAction:
    """A Secret or Trade-off whose cards the reader may not see."""

    action: Action

    def __post_init__(self) -> None:
        if self.action not in (Action.SECRET, Action.TRADE_OFF):
            raise NotationError(f"only Secret and Trade-off are hidden, not {self.action.label}")

    def __str__(self) -> str:
        return str(self.action.size) + "X" * self.action.size


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: the action and, for Gift and Competition, the opponent's choice."""

    action: ActionDecision | HiddenAction
    choice: ChoiceDecision | None = None

    def __post_init__(self) -> None:
        if self.choice is None:
            return
        if isinstance(self.action, Gift) and isinstance(self.choice, GiftChoice):
            if self.choice.card not in self.action.cards:
                raise NotationError(f"{self}: the choice is not one of the offered cards")
        elif isinstance(self.action, Competition) and isinstance(self.choice, CompetitionChoice):
            if self.choice.pair not in self.action.pairs:
                raise NotationError(f"{self}: the choice is not one of the offered pairs")
        elif isinstance(self.action, Gift | Competition):
            raise NotationError(f"{self}: the choice does not fit the {self.action.action.label}")
        else:
            raise NotationError(f"{self}: only a Gift or a Competition is followed by a choice")

    @property
    def complete(self) -> bool:
        """False for a Gift or Competition still waiting for the opponent's choice."""
        return self.choice is not None or not isinstance(self.action, Gift | Competition)

    def __str__(self) -> str:
        return str(self.action) + ("" if self.choice is None else str(self.choice))


def format_move(move: Move) -> str:
    """The notation of a move, e.g. ``"3EEG-E"``."""
    return str(move)


def parse_move(text: str, *, allow_hidden: bool = False, allow_pending: bool = False) -> Move:
    """Parse a move such as ``4ABEG-AB``.

    ``allow_hidden`` admits ``1X``/``2XX``; ``allow_pending`` admits a Gift or Competition
    still waiting for its choice (``3EEG``), as the last move of an unfinished game.
    """
    if not isinstance(text, str):
        raise NotationError(f"not a move: {text!r}")
    head, dash, tail = text.partition("-")
    if head in ("1X", "2XX"):
        if not allow_hidden:
            raise NotationError(f"not a move: {text!r} (hidden cards are not allowed here)")
        if dash:
            raise NotationError(f"not a move: {text!r} (a hidden action has no choice)")
        return Move(HiddenAction(Action.SECRET if head == "1X" else Action.TRADE_OFF))
    try:
        action = parse_decision(head)
        if not isinstance(action, Secret | TradeOff | Gift | Competition):
            raise NotationError("a move starts with its action")
        choice = parse_decision("-" + tail) if dash else None
        if choice is not None and not isinstance(choice, GiftChoice | CompetitionChoice):
            raise NotationError("expected a choice after '-'")
        move = Move(action, choice)
    except NotationError as error:
        raise NotationError(f"not a move: {text!r} ({error})") from None
    if isinstance(action, Gift | Competition) and not dash and not allow_pending:
        raise NotationError(
            f"not a move: {text!r} (a {action.action.label} needs '-' and a choice)"
        )
    if choice is not None and isinstance(choice, GiftChoice) != isinstance(action, Gift):
        raise NotationError(f"not a move: {text!r} (the choice does not fit the action)")
    return move


def seen_move(
    action: Secret | TradeOff | Gift | Competition,
    choice: GiftChoice | CompetitionChoice | None = None,
    *,
    hidden: bool,
) -> Move:
    """A move as a reader sees it: a Secret's or Trade-off's cards only when not ``hidden``
    (its own player's); a Gift or Competition always whole, with its choice once made."""
    if isinstance(action, Secret | TradeOff):
        return Move(HiddenAction(action.action) if hidden else action)
    return Move(action, choice)


def round_moves(
    decisions: Sequence[Decision], starter: int, reader: int | None
) -> tuple[Move, ...]:
    """A round's moves, from its decisions in order, as ``reader`` sees them (None: a
    spectator); ``starter`` made the first."""
    moves: list[Move] = []
    actor = starter
    i = 0
    while i < len(decisions):
        action = decisions[i]
        i += 1
        assert isinstance(action, Secret | TradeOff | Gift | Competition)
        choice: GiftChoice | CompetitionChoice | None = None
        if isinstance(action, Gift | Competition):
            if i < len(decisions):
                made = decisions[i]
                assert isinstance(made, GiftChoice | CompetitionChoice)
                choice = made
            i += 1
        moves.append(seen_move(action, choice, hidden=actor != reader))
        actor = 1 - actor
    return tuple(moves)
