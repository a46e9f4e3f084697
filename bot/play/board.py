"""The board message: the picture, the text board (the accessible fallback), a Hand
button while the match runs, and while an offer waits for a person, its Take buttons
(only the chooser may press them)."""

from __future__ import annotations

import discord

from bot.discord_plumbing.pages import Page, Row
from bot.pictures import BOARD_FILE, render_board_async
from bot.play.board_text import board_text
from bot.play.hand_button import HandButton
from bot.play.take_button import take_buttons
from bot.words.i18n import text
from engine.rules import PublicView


def hand_button(lang: str, match_id: int) -> HandButton:
    """Version 0: the board's Hand button opens the panel whatever the match's version."""
    label = f"{text(lang, 'board.hand_button')} 🂠"
    return HandButton(match_id, 0, label=label, style=discord.ButtonStyle.primary)


async def board_page(
    lang: str, match_id: int, table: PublicView, names: tuple[str, str], *, ai_seat: int | None
) -> Page:
    rows: tuple[Row, ...] = ()
    if table.outcome is None:
        rows = ((hand_button(lang, match_id),),)
        if table.pending is not None and table.current_player != ai_seat:
            rows = (
                take_buttons(lang, match_id, table.version, table.pending),
                (hand_button(lang, match_id),),
            )
    return Page(
        title=text(lang, "board.title", first=names[0], second=names[1]),
        text=board_text(lang, table, names),
        rows=rows,
        image=(BOARD_FILE, await render_board_async(lang, table, names)),
    )
