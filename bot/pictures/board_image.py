"""The board picture: seven geishas left to right, each side's items as one bar per card
with the count beside its favor marker, both players' action markers, hand and pile
counts, the score, whose turn it is and until when, the open offer or the last move.

Drawn from a :class:`~engine.rules.views.PublicView` only. From a round's scoring until the
next round's first move, the scored round stays on the table with both Secrets revealed
on their owners' sides, so the favor markers always agree with the cards shown.

Phone first: the picture is 720 px wide and every text is drawn at a size whose cap height
stays at least 8 px when Discord shrinks it to 360 px (see :mod:`bot.pictures.lettering`).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.discord_plumbing.worker_processes import DRAWING
from bot.pictures.glyphs import card_back, item_chip, letter_tile, seat_marker
from bot.pictures.lettering import Lettering, Written
from bot.pictures.palette import (
    CARD_BACK,
    CARD_BACK_LINE,
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
)
from bot.pictures.picture_words import Deadline, deadline_text, say
from bot.pictures.png import to_png
from bot.words.i18n import text
from bot.words.names import action_name
from engine.rules import Action, Competition, Gift, Phase, PublicView
from engine.rules.cards import CHARM, GEISHAS
from engine.rules.decisions import CompetitionChoice, GiftChoice
from engine.rules.notation import HiddenAction, Move
from engine.rules.outcome import RoundResult

BOARD_FILE = "board.png"
"""The attachment's file name, which the message's embed refers to."""
WIDTH, HEIGHT = 720, 706
MARGIN, COLUMN = 17, 98
SMALL, BODY, NAME, TITLE = 24, 26, 28, 44
"""Font sizes: SMALL is the least, 9 px cap height at 360 px wide."""
HEADER_Y, STATUS_Y = 21, 58
PANELS = ((80, 166), (540, 626))
ZONES = ((170, 262), (444, 536))
"""Item bars per side: seat 0's grow up from the geisha, seat 1's grow down."""
COUNT_Y = (282, 424)
"""The row with each side's item count and favor marker."""
CARD = (302, 404)
FOOTER = (630, 702)
CHIP_H, CHIP_STEP, SECRET_H = 12, 15, 28
_PILL_H = 34
_INSET = 4


def column_x(geisha: int) -> int:
    """Left edge of a geisha's column."""
    return MARGIN + geisha * COLUMN


def _initial(name: str) -> str:
    return (name.strip()[:1] or "?").upper()


@cache
def _static_layer(lang: str) -> tuple[Image.Image, tuple[Written, ...]]:
    """The table and the geisha cards, drawn once per language, with the texts drawn."""
    image = Image.new("RGB", (WIDTH, HEIGHT), TABLE)
    record: list[Written] = []
    pen = Lettering(ImageDraw.Draw(image), record)
    draw = pen.draw
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=TABLE_EDGE, width=4)
    for top, bottom in PANELS:
        draw.rounded_rectangle((MARGIN - 9, top, WIDTH - MARGIN + 9, bottom), radius=12, fill=PANEL)
    charm_word = say(lang, "charm_word")
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


def revealed_round(table: PublicView) -> RoundResult | None:
    """The scored round still on the table: from its scoring until the next first move."""
    if not table.rounds:
        return None
    last = table.rounds[-1]
    ended_at_scoring = table.outcome is not None and last.round_number == table.round_number
    before_first_move = not table.moves and last.round_number == table.round_number - 1
    return last if ended_at_scoring or before_first_move else None


def short_name(name: str, limit: int = 20) -> str:
    """A name cut to fit a sentence; the panels show it whole where it fits."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def status_line(lang: str, table: PublicView, names: tuple[str, str], *, cut: bool = True) -> str:
    """Whose turn it is, the offer waiting, or the result; names cut to fit a line."""
    if cut:
        names = (short_name(names[0]), short_name(names[1]))
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
    if revealed_round(table) is not None:
        return say(lang, "next_round", name=mover, round=table.round_number)
    return text(lang, "pictures.turn", name=mover)


def _header(
    lang: str,
    pen: Lettering,
    table: PublicView,
    names: tuple[str, str],
    deadline: Deadline | None,
) -> None:
    limit = text(lang, "board.of_three") if str(table.variant) == "three-rounds" else ""
    round_label = text(lang, "pictures.round", round=table.round_number, limit=limit)
    left = MARGIN + pen.write((MARGIN, HEADER_Y), round_label, BODY, GOLD)
    pile = text(lang, "pictures.pile", count=table.pile_size)
    pile_w = pen.width(pile, SMALL)
    pen.write((WIDTH - MARGIN, HEADER_Y), pile, SMALL, MUTED, anchor="rm")
    back_x = WIDTH - MARGIN - pile_w - 30
    card_back(pen, back_x, HEADER_Y - 15, 22, 30)
    if deadline is not None and table.outcome is None:
        room = back_x - left - 24
        pen.write(
            ((left + back_x) // 2, HEADER_Y),
            deadline_text(lang, deadline),
            SMALL,
            TEXT,
            anchor="mm",
            max_width=room,
        )
    pen.write(
        (WIDTH // 2, STATUS_Y),
        status_line(lang, table, names),
        NAME,
        TEXT,
        anchor="mm",
        max_width=WIDTH - 2 * MARGIN,
    )


def _pill(
    pen: Lettering,
    x: int,
    cy: int,
    label: str,
    *,
    used: bool,
    face_down: int,
    highlight: bool,
) -> int:
    """An action marker; returns its width. Face-down cards show as small backs inside."""
    icons = 0 if not face_down else 8 + 9 * face_down
    w = pen.width(label, SMALL) + 20 + icons
    box = (x, cy - _PILL_H // 2, x + w, cy + _PILL_H // 2)
    draw = pen.draw
    if face_down:
        draw.rounded_rectangle(box, radius=8, fill=CARD_BACK, outline=CARD_BACK_LINE, width=2)
        for i in range(face_down):
            ix = x + 8 + 9 * i
            draw.rounded_rectangle(
                (ix, cy - 10, ix + 12, cy + 10), radius=2, fill=CARD_BACK, outline=CARD_BACK_LINE
            )
        pen.write((x + 10 + icons, cy), label, SMALL, TEXT)
    elif used:
        draw.rounded_rectangle(box, radius=_PILL_H // 2, fill=DIM)
        pen.write((x + 10, cy), label, SMALL, MUTED)
        draw.line((x + 8, cy, x + w - 8, cy), fill=MUTED, width=2)  # struck through
    else:
        draw.rounded_rectangle(box, radius=_PILL_H // 2, outline=GOLD, width=2)
        pen.write((x + 10, cy), label, SMALL, TEXT)
    if highlight:
        draw.rounded_rectangle(
            (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=12, outline=TEXT, width=3
        )
    return w


def _panel(
    lang: str,
    pen: Lettering,
    table: PublicView,
    names: tuple[str, str],
    seat: int,
    revealed: RoundResult | None,
) -> None:
    top, bottom = PANELS[seat]
    draw = pen.draw
    name_y, actions_y = top + 23, top + 62
    seat_marker(pen, MARGIN + 15, name_y, seat, _initial(names[seat]), r=15, size=SMALL)
    right = WIDTH - MARGIN
    if table.current_player == seat and table.outcome is None:
        # Whose move it is: a gold frame and a label, not the colour alone.
        draw.rounded_rectangle(
            (MARGIN - 9, top, WIDTH - MARGIN + 9, bottom), radius=12, outline=GOLD, width=3
        )
        badge = text(lang, "pictures.to_play")
        badge_w = pen.width(badge, SMALL) + 24
        draw.rounded_rectangle(
            (right - badge_w, name_y - 16, right, name_y + 16), radius=16, fill=GOLD
        )
        pen.write((right - badge_w // 2, name_y), badge, SMALL, PANEL, anchor="mm")
        right -= badge_w + 12
    score = text(lang, "pictures.score", geishas=table.geishas[seat], charm=table.charm[seat])
    score_w = pen.write((right, name_y), score, BODY, TEXT, anchor="rm")
    name_x = MARGIN + 40
    pen.write(
        (name_x, name_y),
        names[seat],
        NAME,
        SEAT_COLOURS[seat],
        max_width=right - score_w - 16 - name_x,
    )
    last = table.moves[-1] if table.moves else None
    hidden_last = (
        last.action.action
        if last is not None
        and isinstance(last.action, HiddenAction)
        and table.mover(len(table.moves) - 1) == seat
        else None
    )
    x = MARGIN
    for action in Action:
        used = action in table.used[seat]
        face_down = 0
        if used and action is Action.TRADE_OFF:
            face_down = 2
        elif used and action is Action.SECRET and revealed is None:
            face_down = 1
        x += 6 + _pill(
            pen,
            x,
            actions_y,
            action_name(lang, action),
            used=used,
            face_down=face_down,
            highlight=hidden_last is action,
        )
    # The hand: a card back with the count on it, and the word.
    hx = x + 8
    card_back(pen, hx, actions_y - 19, 30, 38, label=str(table.hand_sizes[seat]), size=SMALL)
    pen.write((hx + 38, actions_y), say(lang, "hand"), SMALL, MUTED)


def _new_items(table: PublicView) -> tuple[list[int], list[int]]:
    """Per side and geisha, how many items the last completed Gift or Competition placed."""
    new = ([0] * 7, [0] * 7)
    if not table.moves:
        return new
    move = table.moves[-1]
    offerer = table.mover(len(table.moves) - 1)
    taken: tuple[int, ...] = ()
    if isinstance(move.action, Gift) and isinstance(move.choice, GiftChoice):
        taken = (move.choice.card,)
    elif isinstance(move.action, Competition) and isinstance(move.choice, CompetitionChoice):
        taken = move.choice.pair
    else:
        return new
    kept = list(move.action.cards)
    for card in taken:
        kept.remove(card)
        new[1 - offerer][card] += 1
    for card in kept:
        new[offerer][card] += 1
    return new


def _columns(
    lang: str,
    pen: Lettering,
    table: PublicView,
    names: tuple[str, str],
    revealed: RoundResult | None,
) -> None:
    initials = (_initial(names[0]), _initial(names[1]))
    items = revealed.items if revealed is not None else table.items
    favor = revealed.favor if revealed is not None else table.favor
    new = _new_items(table) if revealed is None or table.moves else ([0] * 7, [0] * 7)
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
        (x + COLUMN // 2, y + SECRET_H // 2), word, SMALL, TABLE, anchor="mm", max_width=COLUMN - 8
    )


def _footer(
    lang: str,
    pen: Lettering,
    table: PublicView,
    names: tuple[str, str],
    revealed: RoundResult | None,
) -> None:
    """The open offer with its cards; else the scored round's Secrets; else the last move."""
    top, bottom = FOOTER
    line1, line2, mid = top + 16, top + 50, (top + bottom) // 2
    tile_w, tile_h, step = 36, 44, 42
    right = WIDTH - MARGIN
    pending = table.pending
    if pending is not None and table.outcome is None:
        # The offer is what the table waits for: framed like the panel of the one to play.
        pen.draw.rounded_rectangle(
            (MARGIN - 9, top, WIDTH - MARGIN + 9, bottom), radius=12, outline=GOLD, width=3
        )
        offerer = table.mover(len(table.moves) - 1)
        chooser = 1 - offerer
        if isinstance(pending, Competition):
            word = say(lang, "or")
            word_w = pen.width(word, SMALL)
            width = 4 * step + word_w + 40
            x = right - width
            for pair in pending.pairs:
                pen.draw.rounded_rectangle(
                    (x - 4, mid - tile_h // 2 - 4, x + step + tile_w + 4, mid + tile_h // 2 + 4),
                    radius=8,
                    outline=GOLD,
                    width=2,
                )
                for card in pair:
                    letter_tile(pen, x, mid - tile_h // 2, card, tile_w, tile_h, size=BODY)
                    x += step
                if pair is pending.pairs[0]:
                    pen.write((x + 8, mid), word, SMALL, TEXT)
                    x += word_w + 20
        else:
            width = 3 * step
            x = right - width
            for card in pending.cards:
                letter_tile(pen, x, mid - tile_h // 2, card, tile_w, tile_h, size=BODY)
                x += step
        room = right - width - 16 - MARGIN
        offer = say(lang, "offer_by", name=names[offerer], action=action_name(lang, pending.action))
        pen.write((MARGIN, line1), offer, BODY, GOLD, max_width=room)
        waiting = say(lang, "waiting_for", name=names[chooser])
        pen.write((MARGIN, line2), waiting, BODY, TEXT, max_width=room)
        return
    if revealed is not None:
        x = right
        for seat in (1, 0):
            x -= tile_w
            letter_tile(
                pen, x, mid - tile_h // 2, revealed.secrets[seat], tile_w, tile_h, size=BODY
            )
            x -= 8 + pen.write(
                (x - 8, mid), names[seat], SMALL, SEAT_COLOURS[seat], anchor="rm", max_width=130
            )
            x -= 20
        room = x - MARGIN
        scored = say(lang, "round_scored", round=revealed.round_number)
        pen.write((MARGIN, line1), scored, BODY, GOLD, max_width=room)
        pen.write((MARGIN, line2), say(lang, "secrets_revealed"), BODY, TEXT, max_width=room)
        return
    if not table.moves:
        pen.write((MARGIN, mid), say(lang, "no_move"), BODY, MUTED)
        return
    _last_move(lang, pen, table, names)


def _last_move(lang: str, pen: Lettering, table: PublicView, names: tuple[str, str]) -> None:
    top, bottom = FOOTER
    line1, line2, mid = top + 16, top + 50, (top + bottom) // 2
    tile_w, tile_h, step = 36, 44, 42
    right = WIDTH - MARGIN
    index = len(table.moves) - 1
    move: Move = table.moves[index]
    mover = table.mover(index)
    action = move.action
    x = right
    if isinstance(action, HiddenAction):
        backs = action.action.size
        for _ in range(backs):
            x -= step
            card_back(pen, x, mid - tile_h // 2, tile_w, tile_h)
        detail = say(lang, f"face_down_{backs}")
    else:
        taken: tuple[int, ...] = ()
        if isinstance(move.choice, GiftChoice):
            taken = (move.choice.card,)
        elif isinstance(move.choice, CompetitionChoice):
            taken = move.choice.pair
        if isinstance(action, Competition):
            # The split as offered, the pair taken framed.
            x -= 4 * step + 16
            tx = x
            framed = False
            for pair in action.pairs:
                if pair == taken and not framed:
                    framed = True
                    pen.draw.rounded_rectangle(
                        (
                            tx - 4,
                            mid - tile_h // 2 - 4,
                            tx + step + tile_w + 4,
                            mid + tile_h // 2 + 4,
                        ),
                        radius=8,
                        outline=TEXT,
                        width=3,
                    )
                for card in pair:
                    letter_tile(pen, tx, mid - tile_h // 2, card, tile_w, tile_h, size=BODY)
                    tx += step
                tx += 16
        else:
            x -= step * len(action.cards)
            tx = x
            ringed = False
            for card in action.cards:
                ring = not ringed and card in taken
                ringed = ringed or ring
                letter_tile(pen, tx, mid - tile_h // 2, card, tile_w, tile_h, size=BODY, ring=ring)
                tx += step
        detail = say(
            lang,
            "took",
            action=action_name(lang, action.action),
            name=short_name(names[1 - mover], 12),
            cards=" ".join(GEISHAS[c] for c in taken),
        )
    room = x - 16 - MARGIN
    pen.write(
        (MARGIN, line1), say(lang, "last_move", name=names[mover]), BODY, GOLD, max_width=room
    )
    pen.write((MARGIN, line2), detail, BODY, TEXT, max_width=room)


def board_image(
    lang: str,
    table: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
    record: list[Written] | None = None,
) -> Image.Image:
    """The board; with ``record``, every text drawn on it (the static ones too) is listed."""
    static, static_texts = _static_layer(lang)
    image = static.copy()
    if record is not None:
        record.extend(static_texts)
    pen = Lettering(ImageDraw.Draw(image), record)
    revealed = revealed_round(table)
    _header(lang, pen, table, names, deadline)
    _panel(lang, pen, table, names, 0, revealed)
    _panel(lang, pen, table, names, 1, revealed)
    _columns(lang, pen, table, names, revealed)
    _footer(lang, pen, table, names, revealed)
    return image


def render_board(
    lang: str,
    table: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> bytes:
    """The board as PNG bytes, its words in ``lang``; ``deadline`` (an aware datetime, Unix
    seconds, or text already in ``lang``) is shown as when the turn ends."""
    return to_png(board_image(lang, table, names, deadline=deadline))


async def render_board_async(
    lang: str,
    table: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> bytes:
    """:func:`render_board` in the drawing process, so the event loop never waits on Pillow."""
    return await DRAWING.run(_render_board_with, lang, table, names, deadline)


def _render_board_with(
    lang: str, table: PublicView, names: tuple[str, str], deadline: Deadline | None
) -> bytes:
    """:func:`render_board` with positional arguments, as the drawing process passes them."""
    return render_board(lang, table, names, deadline=deadline)
