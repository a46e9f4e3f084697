"""A player's own cards in words, as their private panel and a puzzle show them: the hand
grouped by geisha with each card's emoji before its letter (the card just drawn marked),
and their face-down Secret and Trade-off. Only ever fed a player's own view."""

from __future__ import annotations

from itertools import groupby

from bot.words.card_faces import LETTERS, CardFaces
from bot.words.i18n import text
from bot.words.names import item_name
from engine.rules import PlayerView

NEW_MARK = "🆕"
"""Beside the card just drawn, while it is still to be played."""


def hand_text(lang: str, view: PlayerView, faces: CardFaces = LETTERS) -> str:
    """``A Fan · B Flute ×2 · G Kimono ×3 🆕`` — grouped by geisha, the drawn card marked,
    each card's emoji before its letter when there are emojis."""
    if not view.hand:
        return text(lang, "panel.empty")
    parts = []
    for card, group in groupby(view.hand):
        count = len(list(group))
        shown = f"{faces.card(card)} {item_name(lang, card)}"
        shown += f" ×{count}" if count > 1 else ""
        if card == view.drawn:
            shown += f" {NEW_MARK}"
        parts.append(shown)
    return " · ".join(parts)


def face_down_text(lang: str, view: PlayerView, faces: CardFaces = LETTERS) -> str:
    """The player's own Secret and Trade-off, each with its emoji when there are emojis."""
    secret = faces.plain(view.secret) if view.secret is not None else "—"
    trade_off = " ".join(faces.plain(c) for c in view.trade_off) if view.trade_off else "—"
    return text(lang, "panel.face_down", secret=secret, trade_off=trade_off)
