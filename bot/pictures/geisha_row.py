"""The board's middle: the seven geisha cards, drawn once per language, and in each column
both sides' items as one bar per card, their counts and the favor marker.

From a round's scoring until the next round's first move, the columns show the scored round
with both Secrets revealed on their owners' sides, so the favor markers agree with the cards.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.pictures.board_layout import (
    CARD,
    CHIP_H,
    CHIP_STEP,
    COLUMN,
    COUNT_Y,
    HEIGHT,
    NAME,
    PANELS,
    SECRET_H,
    SMALL,
    TITLE,
    WIDTH,
    ZONES,
    band,
    column_x,
    initial,
)
from bot.pictures.glyphs import item_chip, seat_marker
from bot.pictures.lettering import Lettering, Written
from bot.pictures.palette import (
    BACKGROUND,
    DIM,
    FRAME,
    GEISHA_COLOURS,
    GOLD,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    darker,
)
from bot.words.i18n import text
from bot.words.names import action_name
from engine.rules import Action, PublicView
from engine.rules.cards import CHARM, GEISHAS
from engine.rules.gift_and_competition import move_split
from engine.rules.hand import counts
from engine.rules.outcome import RoundResult

_INSET = 4


@cache
def static_layer(lang: str) -> tuple[Image.Image, tuple[Written, ...]]:
    """The background and the geisha cards, drawn once per language, with the texts drawn."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    record: list[Written] = []
    pen = Lettering(ImageDraw.Draw(image), record)
    draw = pen.draw
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=FRAME, width=4)
    for top, bottom in PANELS:
        draw.rounded_rectangle(band(top, bottom), radius=12, fill=PANEL)
    charm_word = text(lang, "pictures.labels.charm_word")
    for g in range(7):
        x = column_x(g)
        colour = GEISHA_COLOURS[g]
        left, right = x + 2, x + COLUMN - 2
        draw.rounded_rectangle(
            (left, CARD[0], right, CARD[1]),
            radius=12,
            fill=darker(colour, 0.35),
            outline=colour,
            width=3,
        )
        pen.write((x + 34, CARD[0] + 30), GEISHAS[g], TITLE, colour, anchor="mm")
        pen.write((x + 74, CARD[0] + 32), str(CHARM[g]), NAME, GOLD, anchor="mm")
        pen.write(
            (x + COLUMN // 2, CARD[0] + 76),
            charm_word,
            SMALL,
            GOLD,
            anchor="mm",
            max_width=right - left - 4,
        )
    return image, tuple(record)


def _new_items(public: PublicView) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per side and geisha, how many items the last completed Gift or Competition placed."""
    split = move_split(public.moves[-1]) if public.moves else None
    if split is None:
        return (0,) * 7, (0,) * 7
    to_opponent, to_offerer = split
    if public.mover(len(public.moves) - 1) == 0:
        return counts(to_offerer), counts(to_opponent)
    return counts(to_opponent), counts(to_offerer)


def draw_columns(
    lang: str,
    pen: Lettering,
    public: PublicView,
    names: tuple[str, str],
    revealed: RoundResult | None,
) -> None:
    """Each geisha's items on both sides, the new ones ringed, with counts and favor."""
    initials = (initial(names[0]), initial(names[1]))
    items, favor = public.shown_items, public.shown_favor
    new = _new_items(public) if revealed is None or public.moves else ([0] * 7, [0] * 7)
    secret_word = action_name(lang, Action.SECRET)
    for g in range(7):
        x = column_x(g)
        for seat in (0, 1):
            count = items[seat][g]
            secret = revealed is not None and revealed.secrets[seat] == g
            plain = count - (1 if secret else 0)
            top, bottom = ZONES[seat]
            for slot in range(plain):
                y = bottom - CHIP_H - slot * CHIP_STEP if seat == 0 else top + slot * CHIP_STEP
                ring = TEXT if slot >= plain - new[seat][g] else None
                item_chip(pen, x + _INSET + 2, y, g, COLUMN - 2 * _INSET - 4, CHIP_H, outline=ring)
            if secret:
                offset = plain * CHIP_STEP
                y = bottom - offset - SECRET_H if seat == 0 else top + offset
                _secret_chip(pen, x, y, g, secret_word)
            cy = COUNT_Y[seat]
            pen.write(
                (x + 26, cy), str(count), NAME, SEAT_COLOURS[seat] if count else DIM, anchor="mm"
            )
            if favor[g] == seat:
                seat_marker(pen, x + 68, cy, seat, initials[seat], r=15, size=SMALL)


def _secret_chip(pen: Lettering, x: int, y: int, card: int, word: str) -> None:
    """A revealed Secret on its owner's side: a taller bar, framed in gold and labelled."""
    pen.draw.rounded_rectangle(
        (x + 2, y, x + COLUMN - 2, y + SECRET_H),
        radius=6,
        fill=GEISHA_COLOURS[card],
        outline=GOLD,
        width=3,
    )
    pen.write(
        (x + COLUMN // 2, y + SECRET_H // 2),
        word,
        SMALL,
        BACKGROUND,
        anchor="mm",
        max_width=COLUMN - 8,
    )
