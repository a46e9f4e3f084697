"""The board's footer, one of three things: the open offer with its cards (framed, since the
match waits for it); else the scored round's revealed Secrets; else the last move."""

from __future__ import annotations

from bot.pictures.board_facts import short_name, taken_cards
from bot.pictures.board_layout import BODY, FOOTER, MARGIN, SMALL, WIDTH, band
from bot.pictures.glyphs import card_back, letter_tile
from bot.pictures.lettering import Lettering
from bot.pictures.palette import GOLD, MUTED, SEAT_COLOURS, TEXT, Colour
from bot.words.i18n import text
from bot.words.names import action_name, letters
from engine.rules import Competition, PublicView
from engine.rules.notation import HiddenAction, Move
from engine.rules.outcome import RoundResult

_TOP, _BOTTOM = FOOTER
_LINE1, _LINE2, _MID = _TOP + 16, _TOP + 50, (_TOP + _BOTTOM) // 2
_TILE_W, _TILE_H, _STEP = 36, 44, 42
_TILE_Y = _MID - _TILE_H // 2
_RIGHT = WIDTH - MARGIN


def draw_footer(
    lang: str,
    pen: Lettering,
    public: PublicView,
    names: tuple[str, str],
    revealed: RoundResult | None,
) -> None:
    """The open offer with its cards; else the scored round's Secrets; else the last move."""
    if public.pending is not None and public.outcome is None:
        _pending_offer(lang, pen, public, names)
    elif revealed is not None:
        _revealed_secrets(lang, pen, names, revealed)
    elif not public.moves:
        pen.write((MARGIN, _MID), text(lang, "pictures.labels.no_move"), BODY, MUTED)
    else:
        _last_move(lang, pen, public, names)


def _two_lines(pen: Lettering, first: str, second: str, room: int) -> None:
    """The footer's words at the left: a gold first line, a plain second."""
    pen.write((MARGIN, _LINE1), first, BODY, GOLD, max_width=room)
    pen.write((MARGIN, _LINE2), second, BODY, TEXT, max_width=room)


def _pair_frame(pen: Lettering, x: int, colour: Colour, width: int) -> None:
    """A frame around two tiles starting at ``x``: the pair of a Competition."""
    pen.draw.rounded_rectangle(
        (x - 4, _TILE_Y - 4, x + _STEP + _TILE_W + 4, _MID + _TILE_H // 2 + 4),
        radius=8,
        outline=colour,
        width=width,
    )


def _tile(pen: Lettering, x: int, card: int, *, ring: bool = False) -> None:
    letter_tile(pen, x, _TILE_Y, card, _TILE_W, _TILE_H, size=BODY, ring=ring)


def _pending_offer(lang: str, pen: Lettering, public: PublicView, names: tuple[str, str]) -> None:
    pending = public.pending
    assert pending is not None
    # The offer is what the match waits for: framed like the panel of the one to play.
    pen.draw.rounded_rectangle(band(_TOP, _BOTTOM), radius=12, outline=GOLD, width=3)
    offerer = public.mover(len(public.moves) - 1)
    chooser = 1 - offerer
    if isinstance(pending, Competition):
        word = text(lang, "pictures.labels.or")
        word_w = pen.width(word, SMALL)
        width = 4 * _STEP + word_w + 40
        x = _RIGHT - width
        for pair in pending.pairs:
            _pair_frame(pen, x, GOLD, 2)
            for card in pair:
                _tile(pen, x, card)
                x += _STEP
            if pair is pending.pairs[0]:
                pen.write((x + 8, _MID), word, SMALL, TEXT)
                x += word_w + 20
    else:
        width = 3 * _STEP
        x = _RIGHT - width
        for card in pending.cards:
            _tile(pen, x, card)
            x += _STEP
    offer = text(
        lang,
        "pictures.labels.offer_by",
        name=names[offerer],
        action=action_name(lang, pending.action),
    )
    waiting = text(lang, "pictures.labels.waiting_for", name=names[chooser])
    _two_lines(pen, offer, waiting, _RIGHT - width - 16 - MARGIN)


def _revealed_secrets(
    lang: str, pen: Lettering, names: tuple[str, str], revealed: RoundResult
) -> None:
    x = _RIGHT
    for seat in (1, 0):
        x -= _TILE_W
        _tile(pen, x, revealed.secrets[seat])
        x -= 8 + pen.write(
            (x - 8, _MID), names[seat], SMALL, SEAT_COLOURS[seat], anchor="rm", max_width=130
        )
        x -= 20
    scored = text(lang, "pictures.labels.round_scored", round=revealed.round_number)
    _two_lines(pen, scored, text(lang, "pictures.labels.secrets_revealed"), x - MARGIN)


def _last_move(lang: str, pen: Lettering, public: PublicView, names: tuple[str, str]) -> None:
    index = len(public.moves) - 1
    move: Move = public.moves[index]
    mover = public.mover(index)
    action = move.action
    x = _RIGHT
    if isinstance(action, HiddenAction):
        backs = action.action.size
        for _ in range(backs):
            x -= _STEP
            card_back(pen, x, _TILE_Y, _TILE_W, _TILE_H)
        detail = text(lang, f"pictures.labels.face_down_{backs}")
    else:
        taken = taken_cards(move)
        if isinstance(action, Competition):
            # The split as offered, the pair taken framed.
            x -= 4 * _STEP + 16
            tx = x
            framed = False
            for pair in action.pairs:
                if pair == taken and not framed:
                    framed = True
                    _pair_frame(pen, tx, TEXT, 3)
                for card in pair:
                    _tile(pen, tx, card)
                    tx += _STEP
                tx += 16
        else:
            x -= _STEP * len(action.cards)
            tx = x
            ringed = False
            for card in action.cards:
                ring = not ringed and card in taken
                ringed = ringed or ring
                _tile(pen, tx, card, ring=ring)
                tx += _STEP
        detail = text(
            lang,
            "pictures.labels.took",
            action=action_name(lang, action.action),
            name=short_name(names[1 - mover], 12),
            cards=letters(taken),
        )
    last = text(lang, "pictures.labels.last_move", name=names[mover])
    _two_lines(pen, last, detail, x - 16 - MARGIN)
