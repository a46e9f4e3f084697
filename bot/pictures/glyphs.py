"""Small drawings reused by both pictures: item cards, card backs, markers."""

from __future__ import annotations

from PIL import ImageDraw

from bot.names import item_name
from bot.pictures.palette import (
    CARD_BACK,
    CARD_BACK_LINE,
    DIM,
    GEISHA_COLOURS,
    SEAT_COLOURS,
    TABLE,
    TEXT,
    darker,
    font,
)
from engine.rules.cards import CHARM, GEISHAS


def item_chip(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: int, w: int = 56, h: int = 18
) -> None:
    """One placed item: a small bar in the geisha's colour with her letter."""
    colour = GEISHA_COLOURS[card]
    draw.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=colour, outline=darker(colour))
    draw.text((x + w // 2, y + h // 2), GEISHAS[card], font=font(18), fill=TABLE, anchor="mm")


def card_back(
    draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, *, label: str = ""
) -> None:
    """A face-down card: the same back for every card, so nothing can be read from it; an
    optional label says what the back stands for (a count, an action's initial)."""
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=5, fill=CARD_BACK, outline=CARD_BACK_LINE, width=2
    )
    cx, cy = x + w // 2, y + h // 2
    if label:
        draw.text((cx, cy), label, font=font(18), fill=TEXT, anchor="mm")
        return
    r = min(w, h) // 4
    draw.polygon(
        ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), outline=CARD_BACK_LINE, width=2
    )


def item_card(
    lang: str,
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    card: int,
    w: int = 104,
    h: int = 150,
    *,
    new: bool = False,
) -> None:
    """A full item card for the hand: letter, item name and charm."""
    colour = GEISHA_COLOURS[card]
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=10,
        fill=colour,
        outline=TEXT if new else darker(colour),
        width=4 if new else 2,
    )
    big = h >= 130  # small cards (face-down ones) keep the letter and charm only
    draw.text(
        (x + w // 2, y + (48 if big else h // 3)),
        GEISHAS[card],
        font=font(56 if big else 40),
        fill=TABLE,
        anchor="mm",
    )
    if big:
        name = item_name(lang, card)
        draw.text((x + w // 2, y + 96), name, font=font(17), fill=TABLE, anchor="mm")
    draw.ellipse((x + w // 2 - 15, y + h - 40, x + w // 2 + 15, y + h - 10), fill=TABLE)
    draw.text((x + w // 2, y + h - 25), str(CHARM[card]), font=font(18), fill=TEXT, anchor="mm")


def seat_marker(
    draw: ImageDraw.ImageDraw, cx: int, cy: int, seat: int | None, initial: str, r: int = 16
) -> None:
    """A favor marker: a circle for the first player, a diamond for the second, a hollow
    ring while neutral; the holder's initial is written inside."""
    if seat is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=DIM, width=3)
        return
    colour = SEAT_COLOURS[seat]
    if seat == 0:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=TABLE, width=2)
    else:
        draw.polygon(
            ((cx, cy - r - 3), (cx + r + 3, cy), (cx, cy + r + 3), (cx - r - 3, cy)),
            fill=colour,
            outline=TABLE,
        )
    draw.text((cx, cy), initial, font=font(16), fill=TABLE, anchor="mm")
