"""The hand picture for the private panel: your cards sorted by geisha with the card you
just drew marked NEW, and below them your Secret and Trade-off cards, set apart.

Drawn from the player's own :class:`~engine.rules.views.PlayerView`; only ever sent ephemerally
or by DM. 720 px wide whatever the hand, with every text readable at 360 px (phone first).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.discord_plumbing.worker_processes import DRAWING
from bot.pictures.glyphs import item_card, letter_tile
from bot.pictures.lettering import Lettering, Written
from bot.pictures.palette import BACKGROUND, FRAME, GOLD, MUTED, PANEL, TEXT
from bot.pictures.png import to_png
from bot.words.i18n import text
from bot.words.names import action_name, drawn_position
from engine.rules import Action, PlayerView

HAND_FILE = "hand.png"
"""The attachment's file name, which the panel's embed refers to."""
WIDTH, HEIGHT = 720, 318
MARGIN = 16
CARD_W, CARD_H, GAP = 94, 136, 5
CARDS_Y = 58
SMALL, BODY = 24, 26
FACE_DOWN = (210, 304)
TILE_W, TILE_H = 40, 48


def hand_image(lang: str, view: PlayerView, *, record: list[Written] | None = None) -> Image.Image:
    """The hand; with ``record``, every text drawn on it is listed."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = Lettering(ImageDraw.Draw(image), record)
    draw = pen.draw
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=FRAME, width=4)
    title = text(lang, "pictures.your_hand", count=len(view.hand))
    pen.write((MARGIN, 24), title, BODY, GOLD)
    pen.write(
        (WIDTH - MARGIN, 24), text(lang, "pictures.labels.charm_legend"), SMALL, MUTED, anchor="rm"
    )
    x = MARGIN
    new_at = drawn_position(view)
    for position, card in enumerate(view.hand):
        is_new = position == new_at
        item_card(pen, x, CARDS_Y, card, CARD_W, CARD_H, letter_size=60, size=SMALL, new=is_new)
        if is_new:
            word = text(lang, "pictures.new")
            w = pen.width(word, SMALL) + 14
            cx = x + CARD_W // 2
            draw.rounded_rectangle(
                (cx - w // 2, CARDS_Y - 14, cx + w // 2, CARDS_Y + 14), radius=8, fill=TEXT
            )
            pen.write((cx, CARDS_Y), word, SMALL, BACKGROUND, anchor="mm")
        x += CARD_W + GAP
    if not view.hand:
        pen.write(
            (MARGIN + 10, CARDS_Y + CARD_H // 2), text(lang, "pictures.no_cards"), BODY, MUTED
        )
    _face_down(lang, pen, view)
    return image


def _face_down(lang: str, pen: Lettering, view: PlayerView) -> None:
    top, bottom = FACE_DOWN
    pen.draw.rounded_rectangle((MARGIN - 6, top, WIDTH - MARGIN + 6, bottom), radius=12, fill=PANEL)
    pen.write((MARGIN + 6, top + 20), text(lang, "pictures.face_down"), SMALL, MUTED)
    row = top + 62
    x = MARGIN + 6
    for action, cards in (
        (Action.SECRET, () if view.secret is None else (view.secret,)),
        (Action.TRADE_OFF, view.trade_off or ()),
    ):
        x += pen.write((x, row), action_name(lang, action), BODY, TEXT) + 12
        if cards:
            for card in cards:
                letter_tile(pen, x, row - TILE_H // 2, card, TILE_W, TILE_H, size=BODY)
                x += TILE_W + 6
        else:
            word = text(lang, "pictures.not_yet")
            w = pen.width(word, SMALL) + 20
            pen.draw.rounded_rectangle(
                (x, row - TILE_H // 2, x + w, row + TILE_H // 2), radius=8, outline=MUTED, width=2
            )
            pen.write((x + 10, row), word, SMALL, MUTED)
            x += w
        x += 40


def render_hand(lang: str, view: PlayerView) -> bytes:
    """The hand as PNG bytes, its words in ``lang``."""
    return to_png(hand_image(lang, view))


async def render_hand_async(lang: str, view: PlayerView) -> bytes:
    """:func:`render_hand` in the drawing process."""
    return await DRAWING.run(render_hand, lang, view)
