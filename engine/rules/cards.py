"""The seven geishas and their item cards: letters A–G are the canonical ids.

A card is an ``int`` from 0 (A) to 6 (G). A geisha's charm equals the number of item
cards of her type, so the 21 cards are 2+2+2+3+3+4+5.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.rules.errors import NotationError

GEISHAS = "ABCDEFG"
"""Geisha letters, left to right; the index of a letter is its card id."""

CHARM: tuple[int, ...] = (2, 2, 2, 3, 3, 4, 5)
"""Charm of each geisha, which is also how many item cards of her type exist."""

FULL_DECK: tuple[int, ...] = tuple(g for g, n in enumerate(CHARM) for _ in range(n))
"""All 21 item cards, sorted."""

_LETTER_TO_CARD = {letter: card for card, letter in enumerate(GEISHAS)}


def card_letter(card: int) -> str:
    """The letter of a card id (0 → ``"A"``)."""
    return GEISHAS[card]


def cards_text(cards: Iterable[int]) -> str:
    """Letters of cards in the order given (``(4, 4, 6)`` → ``"EEG"``)."""
    return "".join(GEISHAS[c] for c in cards)


def parse_card(letter: str) -> int:
    """The card id of one letter A–G; anything else raises :class:`NotationError`."""
    card = _LETTER_TO_CARD.get(letter)
    if card is None:
        raise NotationError(f"not a card letter: {letter!r} (cards are A to G)")
    return card


def parse_cards(text: str) -> tuple[int, ...]:
    """Card ids of a string of letters, in the order written (``"EEG"`` → ``(4, 4, 6)``)."""
    return tuple(parse_card(letter) for letter in text)
