"""A round's deal: the removed card, both hands and the draw pile, seeded or explicit."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.rules.cards import FULL_DECK, cards_text, parse_cards
from engine.rules.errors import RecordError


@dataclass(frozen=True, slots=True)
class Deal:
    """One round's cards: 1 removed unseen, 6 in each hand, 8 in the pile in draw order."""

    removed: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]

    def __post_init__(self) -> None:
        sizes = (len(self.hands[0]), len(self.hands[1]), len(self.pile))
        if sizes != (6, 6, 8):
            raise RecordError(
                f"a deal has hands of 6 and a pile of 8 cards, got hands of "
                f"{sizes[0]} and {sizes[1]} and a pile of {sizes[2]}"
            )
        cards = Counter((self.removed, *self.hands[0], *self.hands[1], *self.pile))
        if cards != Counter(FULL_DECK):
            extra = cards - Counter(FULL_DECK)
            missing = Counter(FULL_DECK) - cards
            raise RecordError(
                "the deal is not the 21 item cards: "
                f"too many {cards_text(sorted(extra.elements())) or 'none'}, "
                f"missing {cards_text(sorted(missing.elements())) or 'none'}"
            )

    @classmethod
    def shuffled(cls, rng: random.Random) -> Deal:
        """A fresh deal from a shuffle of all 21 cards."""
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return cls(deck[0], (tuple(deck[1:7]), tuple(deck[7:13])), tuple(deck[13:]))

    @classmethod
    def for_round(cls, seed: int, round_index: int) -> Deal:
        """The seeded deal of a round: the same seed and round always give the same cards."""
        return cls.shuffled(random.Random(f"hanamikoji/{seed}/{round_index}"))

    @classmethod
    def from_text(cls, removed: str, hands: tuple[str, str], pile: str) -> Deal:
        """A deal from letters, as in the match record (``"G"``, ``("BBCDGG", ...)``, ...)."""
        removed_cards = parse_cards(removed)
        if len(removed_cards) != 1:
            raise RecordError(f"removed must be one card, got {removed!r}")
        return cls(
            removed_cards[0], (parse_cards(hands[0]), parse_cards(hands[1])), parse_cards(pile)
        )
