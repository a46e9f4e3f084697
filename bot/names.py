"""How geishas, items and actions are named on screen (letters A–G stay the canonical ids)."""

from __future__ import annotations

from engine import Action, card_letter
from engine.cards import CHARM

ITEM_NAMES: tuple[str, ...] = ("Fan", "Flute", "Teacup", "Parasol", "Shamisen", "Scroll", "Kimono")
"""The item each geisha A–G excels with; an original presentation, not the box art's."""

ACTION_NAMES = {
    Action.SECRET: "Secret",
    Action.TRADE_OFF: "Trade-off",
    Action.GIFT: "Gift",
    Action.COMPETITION: "Competition",
}

ACTION_HINTS = {
    Action.SECRET: "1 card face down, scored at round end",
    Action.TRADE_OFF: "2 cards face down, out of this round",
    Action.GIFT: "offer 3 cards, your opponent takes 1",
    Action.COMPETITION: "offer 2 pairs, your opponent takes 1 pair",
}


def card_name(card: int) -> str:
    """``"E Shamisen"``: the letter first, so it reads the same in text and pictures."""
    return f"{card_letter(card)} {ITEM_NAMES[card]}"


def geisha_title(card: int) -> str:
    """``"E · Shamisen · 3 charm"``."""
    return f"{card_letter(card)} · {ITEM_NAMES[card]} · {CHARM[card]} charm"


def cards_label(cards: tuple[int, ...] | list[int]) -> str:
    """Cards as letters grouped for reading: ``"E E G"``."""
    return " ".join(card_letter(c) for c in sorted(cards))
