"""The daily puzzle's public message: the position as its mover saw it (the page
`/hanamikoji puzzle` shows, their own hand and face-down cards, never the opponent's), one
button per choice (``pzd:<day>:<key>:<choice>``), and who solved it so far.

The puzzle is a finished match's decision: showing the mover's view to everyone gives away
nothing of a live game. The buttons' ids name the choice only, never the answer."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.custom_ids import daily_choice_id
from bot.discord_plumbing.pages import Page, Row
from bot.puzzles.puzzle_page import choice_row, posed_page
from bot.words.card_faces import LETTERS, CardFaces
from bot.words.i18n import text
from bot.words.ratings import rating_text
from engine.service.puzzles.service import PosedPuzzle

EPOCH = datetime.date(1970, 1, 1)


def day_text(day: int) -> str:
    """``2033-05-19``: the UTC day (days since 1970) as the message names it."""
    return (EPOCH + datetime.timedelta(days=day)).isoformat()


def solvers_text(lang: str, solvers: Sequence[int], total: int) -> str:
    """``✅ Solved by @a, @b and 3 more.`` (mentions, which ping nobody here), or nobody yet."""
    if total == 0 or not solvers:
        return text(lang, "daily_puzzle.nobody_yet")
    names = ", ".join(f"<@{user_id}>" for user_id in solvers)
    if total > len(solvers):
        names = text(lang, "daily_puzzle.and_more", names=names, count=total - len(solvers))
    return text(lang, "daily_puzzle.solved_by", names=names)


def daily_row(lang: str, day: int, posed: PosedPuzzle, faces: CardFaces = LETTERS) -> Row:
    """The puzzle's choice buttons, each answering the server's puzzle of ``day``."""
    buttons: list[discord.ui.Item[Any]] = []
    for button in choice_row(lang, posed.key, posed.puzzle, faces):
        assert isinstance(button, discord.ui.Button)
        choice = posed.puzzle.choices[len(buttons)].decision
        button.custom_id = daily_choice_id(day, posed.key, choice)
        buttons.append(button)
    return tuple(buttons)


async def daily_page(
    lang: str,
    day: int,
    posed: PosedPuzzle,
    names: tuple[str, str] | None,
    faces: CardFaces,
    solvers: Sequence[int],
    total: int,
) -> Page:
    """The public message of the server's puzzle of ``day``."""
    page = await posed_page(lang, posed, names, faces)
    position = page.text.removesuffix(text(lang, "puzzles.ask")).rstrip()
    return replace(
        page,
        title=text(
            lang, "daily_puzzle.title", date=day_text(day), rating=rating_text(posed.rating)
        ),
        text="\n".join(
            [position, "", text(lang, "daily_puzzle.ask"), solvers_text(lang, solvers, total)]
        ),
        rows=(daily_row(lang, day, posed, faces),),
    )
