"""Multisets of cards packed into one int: 3 bits of count per geisha.

A hand, or the items on one side, is a count vector; packing it into an int makes adding
and removing a card one addition, copying free, and the value usable as a cache key.
No geisha has more than 5 cards, so 3 bits each suffice.
"""

from __future__ import annotations

from collections.abc import Iterable

ONE: tuple[int, ...] = tuple(1 << (3 * g) for g in range(7))
"""``ONE[g]`` is the packed multiset holding a single card g."""


def pack(cards: Iterable[int]) -> int:
    """The packed multiset of some cards."""
    packed = 0
    for card in cards:
        packed += ONE[card]
    return packed


def count(packed: int, card: int) -> int:
    """How many cards of type ``card`` the multiset holds."""
    return (packed >> (3 * card)) & 7


def counts(packed: int) -> tuple[int, ...]:
    """The count vector, one entry per geisha A–G."""
    return tuple((packed >> (3 * g)) & 7 for g in range(7))


def unpack(packed: int) -> tuple[int, ...]:
    """The cards of the multiset, sorted."""
    return tuple(g for g in range(7) for _ in range((packed >> (3 * g)) & 7))


def size(packed: int) -> int:
    return sum((packed >> (3 * g)) & 7 for g in range(7))
