"""How a card or an action marker looks in text and on buttons: the bot's own emoji when
Discord has them (application emojis, uploaded at start-up by
:mod:`bot.discord_plumbing.app_emojis`), else nothing beside the letter.

The letter A–G is always written too: it is the card's id in the move notation, and
what a screen reader says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.rules import Action, card_letter

Emoji = tuple[str, int]
"""An application emoji: its name and its id."""


def card_key(card: int) -> str:
    """The card's emoji key: ``card_a`` … ``card_g``."""
    return f"card_{card_letter(card).lower()}"


def action_key(action: Action) -> str:
    """The action marker's emoji key: ``action_secret`` and so on."""
    return f"action_{action.name.lower()}"


@dataclass(frozen=True, slots=True)
class CardFaces:
    """The emojis by key (:func:`card_key`, :func:`action_key`); empty: letters only."""

    emojis: Mapping[str, Emoji] = field(default_factory=dict)

    def emoji(self, key: str) -> Emoji | None:
        return self.emojis.get(key)

    def card(self, card: int) -> str:
        """``<:name:id> **E**``: the card's emoji and its letter, or the bold letter."""
        return self._with_emoji(card, f"**{card_letter(card)}**")

    def plain(self, card: int) -> str:
        """``<:name:id> E``: for words already in bold (the face-down cards, the card just
        drawn), or the letter alone."""
        return self._with_emoji(card, card_letter(card))

    def _with_emoji(self, card: int, letter: str) -> str:
        found = self.emojis.get(card_key(card))
        return letter if found is None else f"{markup(found)} {letter}"


def markup(emoji: Emoji) -> str:
    """How a custom emoji is written in a message's text."""
    name, emoji_id = emoji
    return f"<:{name}:{emoji_id}>"


LETTERS = CardFaces()
"""No emojis: what is shown until they are uploaded, or when Discord refused them."""
