"""The board's picture as a message carries it: the PNG and its alt text, drawn from one
set of values. The thread's board (`bot.play`) and a review's page (`bot.review`) both draw
it here, so a review of a step shows the very bytes the thread's board showed then."""

from __future__ import annotations

from dataclasses import dataclass

from bot.pictures.alt_text import board_alt_text
from bot.pictures.board_image import BOARD_FILE, render_board_async
from engine.rules import PublicView


@dataclass(frozen=True, slots=True)
class BoardPicture:
    file: tuple[str, bytes]
    """(file name, PNG bytes), as :attr:`bot.discord_plumbing.pages.Page.image` takes it."""
    description: str
    """Its alt text (the attachment's description)."""


async def board_picture(
    lang: str, public: PublicView, names: tuple[str, str], *, deadline: float | None
) -> BoardPicture:
    """The board, its words in ``lang``, with the raw ``names`` (the picture is not
    markdown); ``deadline`` (Unix seconds) is when the turn ends, left out once the match
    is over."""
    deadline = deadline if public.outcome is None else None
    png = await render_board_async(lang, public, names, deadline=deadline)
    description = board_alt_text(lang, public, names, deadline=deadline)
    return BoardPicture((BOARD_FILE, png), description)
