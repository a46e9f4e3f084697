"""How geishas, items and actions are named on screen, in the reader's language.

The letters A–G stay the canonical ids and are always shown beside the names.
"""

from __future__ import annotations

from bot.i18n import text
from engine.rules import Action, Competition, card_letter
from engine.rules.cards import cards_text

_ACTION_KEYS = {
    Action.SECRET: "secret",
    Action.TRADE_OFF: "trade_off",
    Action.GIFT: "gift",
    Action.COMPETITION: "competition",
}


def item_name(lang: str, card: int) -> str:
    """The item geisha ``card`` excels with (an original presentation, not the box art's)."""
    return text(lang, f"items.{card_letter(card)}")


def action_name(lang: str, action: Action) -> str:
    return text(lang, f"actions.{_ACTION_KEYS[action]}")


def action_hint(lang: str, action: Action) -> str:
    return text(lang, f"hints.{_ACTION_KEYS[action]}")


def card_name(lang: str, card: int) -> str:
    """``"E Shamisen"``: the letter first, so it reads the same in text and pictures."""
    return f"{card_letter(card)} {item_name(lang, card)}"


def letters(cards: tuple[int, ...] | list[int]) -> str:
    """Cards as spaced letters in order: ``"E E G"``."""
    return " ".join(card_letter(c) for c in cards)


def offer_text(offer: object) -> str:
    """``E E G`` for a Gift, ``AB | EG`` for a Competition."""
    if isinstance(offer, Competition):
        return " | ".join(cards_text(pair) for pair in offer.pairs)
    return letters(getattr(offer, "cards", ()))
