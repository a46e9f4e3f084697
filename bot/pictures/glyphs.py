"""Small drawings reused by both pictures: item chips and tiles, card backs, markers."""

from __future__ import annotations

from bot.pictures.lettering import Lettering
from bot.pictures.palette import (
    BACKGROUND,
    CARD_BACK,
    CARD_BACK_LINE,
    DIM,
    GEISHA_COLOURS,
    SEAT_COLOURS,
    TEXT,
    Colour,
    darker,
)
from engine.rules.cards import CHARM, GEISHAS


def item_chip(
    pen: Lettering, x: int, y: int, card: int, w: int, h: int, *, outline: Colour | None = None
) -> None:
    """One placed item: a bar in the geisha's colour (its column says which geisha)."""
    colour = GEISHA_COLOURS[card]
    pen.draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=min(5, h // 2),
        fill=colour,
        outline=outline or darker(colour),
        width=3 if outline else 1,
    )


def letter_tile(
    pen: Lettering, x: int, y: int, card: int, w: int, h: int, *, size: int, ring: bool = False
) -> None:
    """A face-up card named by its letter (offers, revealed Secrets, the last move)."""
    colour = GEISHA_COLOURS[card]
    pen.draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=6,
        fill=colour,
        outline=TEXT if ring else darker(colour),
        width=3 if ring else 1,
    )
    pen.write((x + w // 2, y + h // 2), GEISHAS[card], size, BACKGROUND, anchor="mm")


def card_back(
    pen: Lettering, x: int, y: int, w: int, h: int, *, label: str = "", size: int = 24
) -> None:
    """A face-down card: the same back for every card, so nothing can be read from it; an
    optional label says what it stands for (a count)."""
    pen.draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=5, fill=CARD_BACK, outline=CARD_BACK_LINE, width=2
    )
    cx, cy = x + w // 2, y + h // 2
    if label:
        pen.write((cx, cy), label, size, TEXT, anchor="mm")
        return
    r = min(w, h) // 4
    pen.draw.polygon(
        ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), outline=CARD_BACK_LINE, width=2
    )


def item_card(
    pen: Lettering,
    x: int,
    y: int,
    card: int,
    w: int,
    h: int,
    *,
    letter_size: int,
    size: int,
    new: bool = False,
) -> None:
    """A full item card for the hand: its letter and, in a disc, its geisha's charm."""
    colour = GEISHA_COLOURS[card]
    pen.draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=10,
        fill=colour,
        outline=TEXT if new else darker(colour),
        width=5 if new else 2,
    )
    pen.write((x + w // 2, y + h * 2 // 5), GEISHAS[card], letter_size, BACKGROUND, anchor="mm")
    r = size * 3 // 4
    cx, cy = x + w // 2, y + h - r - 8
    pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACKGROUND)
    pen.write((cx, cy), str(CHARM[card]), size, TEXT, anchor="mm")


def seat_marker(
    pen: Lettering, cx: int, cy: int, seat: int, initial: str, *, r: int, size: int
) -> None:
    """A favor or seat marker: a circle for the first player, a diamond for the second; the
    holder's initial is written inside."""
    colour = SEAT_COLOURS[seat]
    if seat == 0:
        pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=BACKGROUND, width=2)
    else:
        d = r + 3
        pen.draw.polygon(
            ((cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)),
            fill=colour,
            outline=BACKGROUND,
        )
    pen.write((cx, cy), initial, size, BACKGROUND, anchor="mm")


def neutral_ring(pen: Lettering, cx: int, cy: int, r: int) -> None:
    """A favor marker on no one's side yet."""
    pen.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=DIM, width=3)
