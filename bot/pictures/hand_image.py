"""The hand picture for the private panel: your cards sorted by geisha with the card you
just drew marked NEW, and your Secret and Trade-off cards set apart on the right.

Drawn from the player's own :class:`~engine.rules.views.PlayerView`; only ever sent ephemerally
or by DM.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.i18n import text
from bot.names import action_name
from bot.pictures.glyphs import item_card
from bot.pictures.palette import GOLD, MUTED, PANEL, TABLE, TABLE_EDGE, TEXT, font
from bot.pictures.png import to_png
from bot.worker_processes import DRAWING
from engine.rules import Action, PlayerView

CARD_W, CARD_H, GAP = 104, 150, 12
SIDE_W = 2 * (CARD_W + GAP) + 40
HEIGHT = 230


def hand_image(lang: str, view: PlayerView) -> Image.Image:
    hand_width = max(1, len(view.hand)) * (CARD_W + GAP) + GAP
    width = 30 + hand_width + SIDE_W + 20
    image = Image.new("RGB", (width, HEIGHT), TABLE)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, HEIGHT - 1), outline=TABLE_EDGE, width=4)
    draw.text(
        (30, 26),
        text(lang, "pictures.your_hand", count=len(view.hand)),
        font=font(22),
        fill=GOLD,
        anchor="lm",
    )
    x = 30
    marked = False
    for position, card in enumerate(view.hand):
        # Mark one copy of the drawn card: the last of its kind, where a new card lands.
        is_new = (
            not marked
            and card == view.drawn
            and (position + 1 == len(view.hand) or view.hand[position + 1] != card)
        )
        marked = marked or is_new
        item_card(lang, draw, x, 50, card, CARD_W, CARD_H, new=is_new)
        if is_new:
            draw.rounded_rectangle((x + 22, 40, x + CARD_W - 22, 62), radius=8, fill=TEXT)
            draw.text(
                (x + CARD_W // 2, 51),
                text(lang, "pictures.new"),
                font=font(15),
                fill=TABLE,
                anchor="mm",
            )
        x += CARD_W + GAP
    if not view.hand:
        draw.text(
            (40, 125), text(lang, "pictures.no_cards"), font=font(20), fill=MUTED, anchor="lm"
        )
    side = 30 + hand_width + 10
    draw.rounded_rectangle((side, 40, width - 20, HEIGHT - 16), radius=12, fill=PANEL)
    draw.text(
        (side + 14, 58), text(lang, "pictures.face_down"), font=font(15), fill=MUTED, anchor="lm"
    )
    small_w, small_h = 70, 100
    sx = side + 14
    draw.text((sx, 80), action_name(lang, Action.SECRET), font=font(16), fill=TEXT, anchor="lt")
    if view.secret is not None:
        item_card(lang, draw, sx, 102, view.secret, small_w, small_h)
    else:
        _empty_slot(lang, draw, sx, 102, small_w, small_h)
    tx = sx + small_w + 24
    draw.text((tx, 80), action_name(lang, Action.TRADE_OFF), font=font(16), fill=TEXT, anchor="lt")
    if view.trade_off is not None:
        for i, card in enumerate(view.trade_off):
            item_card(lang, draw, tx + i * 40, 102, card, small_w, small_h)
    else:
        _empty_slot(lang, draw, tx, 102, small_w + 40, small_h)
    return image


def _empty_slot(lang: str, draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, outline=MUTED, width=2)
    draw.text(
        (x + w // 2, y + h // 2),
        text(lang, "pictures.not_yet"),
        font=font(14),
        fill=MUTED,
        anchor="mm",
    )


def render_hand(lang: str, view: PlayerView) -> bytes:
    """The hand as PNG bytes, its words in ``lang``."""
    return to_png(hand_image(lang, view))


async def render_hand_async(lang: str, view: PlayerView) -> bytes:
    """:func:`render_hand` in the drawing process."""
    return await DRAWING.run(render_hand, lang, view)
