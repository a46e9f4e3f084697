"""The board picture: seven geishas left to right, each side's items as one chip per card,
favor markers on the side that holds them (on the geisha while neutral), both players'
action markers, hand, pile and face-down placeholders, the score, round and turn.

Drawn from a :class:`~engine.rules.views.PublicView` only. The geisha row and the table never
change, so they are drawn once and copied for each board.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.i18n import text
from bot.names import action_name, item_name
from bot.pictures.glyphs import card_back, item_chip, seat_marker
from bot.pictures.palette import (
    DIM,
    GEISHA_COLOURS,
    GOLD,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TABLE,
    TABLE_EDGE,
    TEXT,
    darker,
    font,
)
from bot.pictures.png import to_png
from bot.worker_processes import DRAWING
from engine.rules import Action, Phase, PublicView
from engine.rules.cards import CHARM, GEISHAS

WIDTH, HEIGHT = 1120, 724
MARGIN, COLUMN = 35, 150
CHIP_STEP = 25
CHIP_W, CHIP_H = 104, 21
HEADER = (0, 56)
PANELS = ((60, 130), (644, 714))
ITEM_ZONES = ((136, 262), (512, 638))
MARKER_Y = (286, 488)
CARD = (312, 462)


_CHIP_X = (COLUMN - CHIP_W) // 2


def _chip_y(seat: int, slot: int) -> int:
    """Chips grow away from the geisha, so counts compare at a glance."""
    top, bottom = ITEM_ZONES[seat]
    return bottom - CHIP_H - slot * CHIP_STEP if seat == 0 else top + slot * CHIP_STEP


def column_x(geisha: int) -> int:
    """Left edge of a geisha's column."""
    return MARGIN + geisha * COLUMN


@cache
def _static_layer(lang: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), TABLE)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=TABLE_EDGE, width=4)
    for top, bottom in PANELS:
        draw.rounded_rectangle(
            (MARGIN - 15, top, WIDTH - MARGIN + 15, bottom), radius=12, fill=PANEL
        )
    for g in range(7):
        x = column_x(g)
        colour = GEISHA_COLOURS[g]
        left, right = x + 12, x + COLUMN - 12
        draw.rounded_rectangle(
            (left, CARD[0], right, CARD[1]),
            radius=14,
            fill=darker(colour, 0.35),
            outline=colour,
            width=3,
        )
        draw.text(
            ((left + right) // 2, CARD[0] + 46), GEISHAS[g], font=font(58), fill=colour, anchor="mm"
        )
        draw.text(
            ((left + right) // 2, CARD[0] + 94),
            item_name(lang, g),
            font=font(19),
            fill=TEXT,
            anchor="mm",
        )
        draw.text(
            ((left + right) // 2, CARD[0] + 124),
            text(lang, "pictures.charm", count=CHARM[g]),
            font=font(18),
            fill=GOLD,
            anchor="mm",
        )
        for zone in ITEM_ZONES:  # faint slots: five per side, as many as the most items
            for slot in range(CHARM[g]):
                y = _chip_y(0 if zone is ITEM_ZONES[0] else 1, slot)
                draw.rounded_rectangle(
                    (x + _CHIP_X, y, x + _CHIP_X + CHIP_W, y + CHIP_H),
                    radius=6,
                    outline=darker(colour, 0.3),
                )
    return image


def _status(lang: str, table: PublicView, names: tuple[str, str]) -> str:
    outcome = table.outcome
    if outcome is not None:
        if outcome.winner is None:
            return text(lang, "pictures.draw")
        why = text(lang, f"pictures.why_{outcome.termination.value.replace('-', '_')}")
        return text(lang, "pictures.wins", name=names[outcome.winner], why=why)
    mover = names[table.current_player] if table.current_player is not None else ""
    if table.phase is Phase.GIFT_CHOICE:
        return text(lang, "pictures.gift_choice", name=mover)
    if table.phase is Phase.COMPETITION_CHOICE:
        return text(lang, "pictures.competition_choice", name=mover)
    return text(lang, "pictures.turn", name=mover)


def _header(
    lang: str, draw: ImageDraw.ImageDraw, table: PublicView, names: tuple[str, str]
) -> None:
    limit = text(lang, "board.of_three") if str(table.variant) == "three-rounds" else ""
    draw.text(
        (MARGIN, 30),
        text(lang, "pictures.round", round=table.round_number, limit=limit),
        font=font(30),
        fill=GOLD,
        anchor="lm",
    )
    draw.text((WIDTH // 2, 30), _status(lang, table, names), font=font(30), fill=TEXT, anchor="mm")
    card_back(draw, WIDTH - MARGIN - 120, 12, 26, 36)
    draw.text(
        (WIDTH - MARGIN, 30),
        text(lang, "pictures.pile", count=table.pile_size),
        font=font(22),
        fill=MUTED,
        anchor="rm",
    )


def _panel(
    lang: str, draw: ImageDraw.ImageDraw, table: PublicView, names: tuple[str, str], seat: int
) -> None:
    top, bottom = PANELS[seat]
    cy = (top + bottom) // 2
    x = MARGIN + 6
    name = names[seat] if len(names[seat]) <= 16 else names[seat][:15] + "…"
    seat_marker(draw, x + 16, cy, seat, (names[seat][:1] or "?").upper())
    draw.text((x + 44, cy - 13), name, font=font(28), fill=SEAT_COLOURS[seat], anchor="lm")
    draw.text(
        (x + 44, cy + 16),
        text(lang, "pictures.score", geishas=table.geishas[seat], charm=table.charm[seat]),
        font=font(21),
        fill=TEXT,
        anchor="lm",
    )
    if table.current_player == seat and table.outcome is None:
        # Whose move it is: a gold frame and a label, not the colour alone.
        draw.rounded_rectangle(
            (MARGIN - 15, top, WIDTH - MARGIN + 15, bottom), radius=12, outline=GOLD, width=3
        )
        draw.rounded_rectangle(
            (WIDTH - MARGIN - 92, cy - 15, WIDTH - MARGIN, cy + 15), radius=15, fill=GOLD
        )
        draw.text(
            (WIDTH - MARGIN - 46, cy),
            text(lang, "pictures.to_play"),
            font=font(16),
            fill=PANEL,
            anchor="mm",
        )
    ax = 340
    for action in Action:
        used = action in table.used[seat]
        label = action_name(lang, action)
        box = (ax, cy - 17, ax + 112, cy + 17)
        if used:
            draw.rounded_rectangle(box, radius=17, fill=DIM)
            draw.text((ax + 56, cy), label, font=font(18), fill=MUTED, anchor="mm")
            draw.line((ax + 10, cy, ax + 102, cy), fill=MUTED, width=2)  # struck through
        else:
            draw.rounded_rectangle(box, radius=17, outline=GOLD, width=2)
            draw.text((ax + 56, cy), label, font=font(18), fill=TEXT, anchor="mm")
        ax += 122
    # The hand: a card back with the count on it. Face-down Secret and Trade-off cards:
    # backs marked with the action's initial, so they read apart from the hand.
    hx = ax + 10
    card_back(draw, hx, cy - 21, 32, 42, label=str(table.hand_sizes[seat]))
    fx = hx + 44
    if Action.SECRET in table.used[seat]:
        card_back(draw, fx, cy - 18, 26, 36, label=action_name(lang, Action.SECRET)[:1])
        fx += 34
    if Action.TRADE_OFF in table.used[seat]:
        initial = action_name(lang, Action.TRADE_OFF)[:1]
        card_back(draw, fx, cy - 18, 26, 36, label=initial)
        card_back(draw, fx + 16, cy - 18, 26, 36, label=initial)


def _columns(draw: ImageDraw.ImageDraw, table: PublicView, names: tuple[str, str]) -> None:
    initials = tuple((n[:1] or "?").upper() for n in names)
    for g in range(7):
        x = column_x(g)
        for seat in (0, 1):
            count = table.items[seat][g]
            for slot in range(count):
                item_chip(draw, x + _CHIP_X, _chip_y(seat, slot), g, CHIP_W, CHIP_H)
        holder = table.favor[g]
        cx = x + COLUMN // 2
        if holder is None:
            # Neutral: a hollow ring on the geisha herself, between the two sides.
            seat_marker(draw, cx + 42, CARD[0] + 24, None, "", r=13)
        else:
            seat_marker(draw, cx, MARKER_Y[holder], holder, initials[holder], r=17)


def board_image(lang: str, table: PublicView, names: tuple[str, str]) -> Image.Image:
    image = _static_layer(lang).copy()
    draw = ImageDraw.Draw(image)
    _header(lang, draw, table, names)
    _panel(lang, draw, table, names, 0)
    _panel(lang, draw, table, names, 1)
    _columns(draw, table, names)
    return image


def render_board(lang: str, table: PublicView, names: tuple[str, str]) -> bytes:
    """The board as PNG bytes, its words in ``lang``."""
    return to_png(board_image(lang, table, names))


async def render_board_async(lang: str, table: PublicView, names: tuple[str, str]) -> bytes:
    """:func:`render_board` in the drawing process, so the event loop never waits on Pillow."""
    return await DRAWING.run(render_board, lang, table, names)
