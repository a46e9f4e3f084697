"""The board's top lines: the round, when the turn ends and the pile on the first; whose
turn it is, the offer waiting, or the result on the second."""

from __future__ import annotations

from bot.pictures.board_facts import round_limit, status_line
from bot.pictures.board_layout import BODY, HEADER_Y, MARGIN, NAME, SMALL, STATUS_Y, WIDTH
from bot.pictures.glyphs import card_back
from bot.pictures.lettering import Lettering
from bot.pictures.palette import GOLD, MUTED, TEXT
from bot.pictures.turn_deadline import Deadline, deadline_text
from bot.words.i18n import text
from engine.rules import PublicView


def draw_header(
    lang: str,
    pen: Lettering,
    public: PublicView,
    names: tuple[str, str],
    deadline: Deadline | None,
) -> None:
    """The round, the deadline (while the match runs), the pile, and the status line."""
    round_label = text(
        lang, "pictures.round", round=public.round_number, limit=round_limit(lang, public)
    )
    left = MARGIN + pen.write((MARGIN, HEADER_Y), round_label, BODY, GOLD)
    pile = text(lang, "pictures.pile", count=public.pile_size)
    pile_w = pen.width(pile, SMALL)
    pen.write((WIDTH - MARGIN, HEADER_Y), pile, SMALL, MUTED, anchor="rm")
    back_x = WIDTH - MARGIN - pile_w - 30
    card_back(pen, back_x, HEADER_Y - 15, 22, 30)
    if deadline is not None and public.outcome is None:
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
        status_line(lang, public, names),
        NAME,
        TEXT,
        anchor="mm",
        max_width=WIDTH - 2 * MARGIN,
    )
