"""The board picture: seven geishas left to right, each side's items as one bar per card
with the count beside its favor marker, both players' action markers, hand and pile
counts, the score, whose turn it is and until when, the open offer or the last move.

Drawn from a :class:`~engine.rules.views.PublicView` only, part by part: the header
(:mod:`~bot.pictures.board_header`), the player panels (:mod:`~bot.pictures.player_panels`),
the geisha row (:mod:`~bot.pictures.geisha_row`) and the footer
(:mod:`~bot.pictures.board_footer`), placed by :mod:`~bot.pictures.board_layout`.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.discord_plumbing.worker_processes import DRAWING
from bot.pictures.board_footer import draw_footer
from bot.pictures.board_header import draw_header
from bot.pictures.geisha_row import draw_columns, static_layer
from bot.pictures.lettering import Lettering, Written
from bot.pictures.player_panels import draw_panel
from bot.pictures.png import to_png
from bot.pictures.turn_deadline import Deadline
from engine.rules import PublicView

BOARD_FILE = "board.png"
"""The attachment's file name, which the message's embed refers to."""


def board_image(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
    record: list[Written] | None = None,
) -> Image.Image:
    """The board; with ``record``, every text drawn on it (the static ones too) is listed."""
    static, static_texts = static_layer(lang)
    image = static.copy()
    if record is not None:
        record.extend(static_texts)
    pen = Lettering(ImageDraw.Draw(image), record)
    revealed = public.scored_on_show
    draw_header(lang, pen, public, names, deadline)
    draw_panel(lang, pen, public, names, 0)
    draw_panel(lang, pen, public, names, 1)
    draw_columns(lang, pen, public, names, revealed)
    draw_footer(lang, pen, public, names, revealed)
    return image


def render_board(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> bytes:
    """The board as PNG bytes, its words in ``lang``; ``deadline`` (an aware datetime, Unix
    seconds, or text already in ``lang``) is shown as when the turn ends."""
    return to_png(board_image(lang, public, names, deadline=deadline))


async def render_board_async(
    lang: str,
    public: PublicView,
    names: tuple[str, str],
    *,
    deadline: Deadline | None = None,
) -> bytes:
    """:func:`render_board` in the drawing process, so the event loop never waits on Pillow."""
    return await DRAWING.run(_render_board_with, lang, public, names, deadline)


def _render_board_with(
    lang: str, public: PublicView, names: tuple[str, str], deadline: Deadline | None
) -> bytes:
    """:func:`render_board` with positional arguments, as the drawing process passes them."""
    return render_board(lang, public, names, deadline=deadline)
