"""The bot's own emojis, drawn by the same hand as the pictures: one per geisha's item card
(its colour and its letter) and one per action marker (the number of cards the action
takes), 128 px square on a transparent ground.

Discord shows an emoji 22 px high in text and on buttons, so each is one bold shape and
at most one glyph; the letter or the count, never colour alone, says which it is.
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from bot.pictures.glyphs import letter_tile
from bot.pictures.lettering import Lettering
from bot.pictures.palette import BACKGROUND, GOLD
from bot.words.card_faces import action_key, card_key
from engine.rules import Action

SIZE = 128
"""Discord's recommended emoji size; the PNGs stay far under its 256 KiB limit."""


def _canvas() -> tuple[Image.Image, Lettering]:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    return image, Lettering(ImageDraw.Draw(image))


def card_emoji(card: int) -> Image.Image:
    """The item card as the pictures draw a face-up card, its letter as large as the card
    allows (the charm, too small to read at 22 px, is in the text beside it)."""
    image, pen = _canvas()
    w, h = 96, 126
    letter_tile(pen, (SIZE - w) // 2, 1, card, w, h, size=92)
    return image


def action_emoji(action: Action) -> Image.Image:
    """The action marker: a gold token holding the number of cards the action takes
    (Secret 1 … Competition 4), large enough to read at 22 px."""
    image, pen = _canvas()
    pen.draw.ellipse((2, 2, SIZE - 3, SIZE - 3), fill=GOLD, outline=BACKGROUND, width=6)
    pen.write((SIZE // 2, SIZE // 2 + 2), str(action.size), 96, BACKGROUND, anchor="mm")
    return image


def _png(image: Image.Image) -> bytes:
    """RGBA PNG: the pictures' fixed palette has no transparency, and an emoji needs it."""
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


@cache
def emoji_images() -> dict[str, bytes]:
    """Every emoji's PNG, by key (:mod:`bot.words.card_faces`)."""
    images = {card_key(card): _png(card_emoji(card)) for card in range(7)}
    images.update({action_key(action): _png(action_emoji(action)) for action in Action})
    return images
