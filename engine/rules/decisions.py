"""Decisions a player can make, as small frozen values with a text codec.

The turn player chooses an action (:class:`Secret`, :class:`TradeOff`, :class:`Gift`,
:class:`Competition`); after a Gift or a Competition the opponent decides which cards
they take (:class:`GiftChoice`, :class:`CompetitionChoice`). Cards inside a decision are
kept sorted, so two orderings of the same cards are the same decision.

Text form, as in docs/rules.md: ``1E``, ``2FG``, ``3EEG``, ``4ABEG`` (pairs AB and EG); the
opponent's choices are ``-E`` and ``-AB``. A whole move is an action followed by its
choice: ``3EEG-E``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.rules.cards import GEISHAS, cards_text, parse_cards
from engine.rules.errors import NotationError


class Action(enum.IntEnum):
    """The four action markers; the value is the bit used in a player's used-actions mask."""

    SECRET = 1
    TRADE_OFF = 2
    GIFT = 4
    COMPETITION = 8

    @property
    def size(self) -> int:
        """How many cards the action takes from the hand."""
        return _ACTION_SIZE[self]

    @property
    def label(self) -> str:
        return _ACTION_LABEL[self]


_ACTION_SIZE = {Action.SECRET: 1, Action.TRADE_OFF: 2, Action.GIFT: 3, Action.COMPETITION: 4}
_ACTION_LABEL = {
    Action.SECRET: "Secret",
    Action.TRADE_OFF: "Trade-off",
    Action.GIFT: "Gift",
    Action.COMPETITION: "Competition",
}


def _check_cards(cards: tuple[int, ...], count: int, what: str) -> None:
    if len(cards) != count or any(type(c) is not int or not 0 <= c < 7 for c in cards):
        raise NotationError(f"{what} needs {count} cards from A to G, got {cards!r}")


def _sorted_pair(pair: tuple[int, ...]) -> tuple[int, int]:
    a, b = pair
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class Secret:
    """Put one card face down; it is scored at the end of the round."""

    card: int

    def __post_init__(self) -> None:
        _check_cards((self.card,), 1, "a Secret")

    @property
    def action(self) -> Action:
        return Action.SECRET

    @property
    def cards(self) -> tuple[int, ...]:
        return (self.card,)

    def __str__(self) -> str:
        return "1" + GEISHAS[self.card]


@dataclass(frozen=True, slots=True)
class TradeOff:
    """Put two cards face down; they are out of this round."""

    cards: tuple[int, int]

    def __post_init__(self) -> None:
        _check_cards(self.cards, 2, "a Trade-off")
        object.__setattr__(self, "cards", _sorted_pair(self.cards))

    @property
    def action(self) -> Action:
        return Action.TRADE_OFF

    def __str__(self) -> str:
        return "2" + cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Gift:
    """Offer three cards face up; the opponent takes one, the other two are yours."""

    cards: tuple[int, int, int]

    def __post_init__(self) -> None:
        _check_cards(self.cards, 3, "a Gift")
        a, b, c = sorted(self.cards)
        object.__setattr__(self, "cards", (a, b, c))

    @property
    def action(self) -> Action:
        return Action.GIFT

    def __str__(self) -> str:
        return "3" + cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Competition:
    """Offer two pairs face up; the opponent takes one pair, the other pair is yours."""

    pairs: tuple[tuple[int, int], tuple[int, int]]

    def __post_init__(self) -> None:
        if len(self.pairs) != 2:
            raise NotationError(f"a Competition needs two pairs, got {self.pairs!r}")
        first, second = self.pairs
        _check_cards(tuple(first), 2, "each Competition pair")
        _check_cards(tuple(second), 2, "each Competition pair")
        p, q = _sorted_pair(first), _sorted_pair(second)
        object.__setattr__(self, "pairs", (p, q) if p <= q else (q, p))

    @property
    def action(self) -> Action:
        return Action.COMPETITION

    @property
    def cards(self) -> tuple[int, ...]:
        return self.pairs[0] + self.pairs[1]

    def __str__(self) -> str:
        return "4" + cards_text(self.pairs[0]) + cards_text(self.pairs[1])


@dataclass(frozen=True, slots=True)
class GiftChoice:
    """The opponent's pick of one card from a Gift."""

    card: int

    def __post_init__(self) -> None:
        _check_cards((self.card,), 1, "a Gift choice")

    @property
    def taken(self) -> tuple[int, ...]:
        """The cards the chooser takes: this one."""
        return (self.card,)

    def __str__(self) -> str:
        return "-" + GEISHAS[self.card]


@dataclass(frozen=True, slots=True)
class CompetitionChoice:
    """The opponent's pick of one pair from a Competition."""

    pair: tuple[int, int]

    def __post_init__(self) -> None:
        _check_cards(self.pair, 2, "a Competition choice")
        object.__setattr__(self, "pair", _sorted_pair(self.pair))

    @property
    def taken(self) -> tuple[int, ...]:
        """The cards the chooser takes: this pair."""
        return self.pair

    def __str__(self) -> str:
        return "-" + cards_text(self.pair)


ActionDecision = Secret | TradeOff | Gift | Competition
ChoiceDecision = GiftChoice | CompetitionChoice
Decision = ActionDecision | ChoiceDecision


def parse_decision(text: str) -> Decision:
    """Parse ``1E``, ``2FG``, ``3EEG``, ``4ABEG``, ``-E`` or ``-AB`` into a decision."""
    if not isinstance(text, str) or not text:
        raise NotationError(f"not a decision: {text!r}")
    head, body = text[0], text[1:]
    expected = {"1": 1, "2": 2, "3": 3, "4": 4}.get(head)
    if expected is None and head != "-":
        raise NotationError(f"not a decision: {text!r} (starts with 1, 2, 3, 4 or -)")
    try:
        cards = parse_cards(body)
    except NotationError as error:
        raise NotationError(f"not a decision: {text!r} ({error})") from None
    if head == "-":
        if len(cards) == 1:
            return GiftChoice(cards[0])
        if len(cards) == 2:
            return CompetitionChoice((cards[0], cards[1]))
        raise NotationError(f"not a choice: {text!r} (take one card or one pair, like -E or -AB)")
    assert expected is not None
    if len(cards) != expected:
        raise NotationError(f"not a decision: {text!r} ({head} needs {expected} cards)")
    if expected == 1:
        return Secret(cards[0])
    if expected == 2:
        return TradeOff((cards[0], cards[1]))
    if expected == 3:
        return Gift((cards[0], cards[1], cards[2]))
    return Competition(((cards[0], cards[1]), (cards[2], cards[3])))
