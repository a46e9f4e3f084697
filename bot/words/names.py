"""How geishas, items, actions, offers and decisions are named on screen, in the reader's
language.

The letters A–G stay the canonical ids and are always shown beside the names.
"""

from __future__ import annotations

from bot.words.i18n import text
from engine.rules import Action, Competition, Decision, PlayerView, card_letter
from engine.rules.cards import cards_text
from engine.rules.decisions import ActionDecision

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
    """``E E G`` for a Gift, ``AB | EG`` for a Competition (the one place either is spelt)."""
    if isinstance(offer, Competition):
        return " | ".join(cards_text(pair) for pair in offer.pairs)
    return letters(getattr(offer, "cards", ()))


def decision_label(lang: str, decision: Decision) -> str:
    """How a decision reads on its confirm button: ``Gift E E G``, ``AB | EG``."""
    if isinstance(decision, Competition):
        return offer_text(decision)
    assert isinstance(decision, ActionDecision)
    return f"{action_name(lang, decision.action)} {letters(decision.cards)}"


def drawn_position(view: PlayerView) -> int | None:
    """Where in the sorted hand the just-drawn card is marked new: the last copy of its
    kind, where a new card lands (the text, the card select and the picture agree)."""
    if view.drawn is None or view.drawn not in view.hand:
        return None
    return len(view.hand) - 1 - view.hand[::-1].index(view.drawn)
