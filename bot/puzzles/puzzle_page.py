"""A puzzle's page: the position as its mover saw it (the public board's picture, their
hand, face-down cards and actions left in words, what they faced) with one button per
choice; and once answered, the same message with the verdict, the move played in the real
match, the reason, the rating change, the streak and a Next puzzle button.

The buttons come in the puzzle's order (notation order) and their ids name the puzzle and
the choice only, so nothing on the page tells the answer before it is given. Names of the
real match's players appear only when the engine gives them (both share their matches).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.custom_ids import puzzle_choice_id, puzzle_next_id
from bot.discord_plumbing.app_emojis import button_emoji
from bot.discord_plumbing.pages import Page, Row
from bot.pictures.board_picture import board_picture
from bot.puzzles.words import answer_lines, choice_label, position_lines, source_text
from bot.words.card_faces import LETTERS, CardFaces, action_key, card_key
from bot.words.i18n import text
from bot.words.ratings import rating_text
from engine.puzzles import Puzzle
from engine.rules import GiftChoice, parse_decision
from engine.rules.decisions import ActionDecision
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer


def picture_names(lang: str, mover_seat: int) -> tuple[str, str]:
    """The board picture's names by seat: the solver is "You"."""
    you, opponent = text(lang, "puzzles.you"), text(lang, "puzzles.opponent")
    return (you, opponent) if mover_seat == 0 else (opponent, you)


def _choice_emoji(faces: CardFaces, notation: str) -> discord.PartialEmoji | None:
    """An action's marker, or the card a Gift's take takes."""
    decision = parse_decision(notation)
    if isinstance(decision, ActionDecision):
        return button_emoji(faces, action_key(decision.action))
    if isinstance(decision, GiftChoice):
        return button_emoji(faces, card_key(decision.card))
    return None


ChoiceId = Callable[[str, str], str]
"""A puzzle's key and a choice -> its button's id (the rated stream's, or a streak's)."""


def choice_row(
    lang: str,
    key: str,
    puzzle: Puzzle,
    faces: CardFaces = LETTERS,
    answered: PuzzleAnswer | None = None,
    choice_id: ChoiceId = puzzle_choice_id,
) -> Row:
    """One button per choice, in the puzzle's order; once ``answered``, the best move in
    green, a missed choice in red, and every button disabled."""
    buttons: list[discord.ui.Button[Any]] = []
    for choice in puzzle.choices:
        style = discord.ButtonStyle.secondary
        if answered is not None and choice.decision == puzzle.solution:
            style = discord.ButtonStyle.success
        elif answered is not None and choice.decision == answered.choice:
            style = discord.ButtonStyle.danger
        buttons.append(
            discord.ui.Button(
                label=choice_label(lang, choice.decision),
                style=style,
                emoji=_choice_emoji(faces, choice.decision),
                custom_id=choice_id(key, choice.decision),
                disabled=answered is not None,
            )
        )
    return tuple(buttons)


def next_row(lang: str) -> Row:
    return (
        discord.ui.Button(
            label=text(lang, "puzzles.next"),
            style=discord.ButtonStyle.primary,
            custom_id=puzzle_next_id(),
        ),
    )


async def position(
    lang: str, posed: PosedPuzzle, names: tuple[str, str] | None, faces: CardFaces
) -> tuple[list[str], dict[str, Any]]:
    """The position's lines and picture, from the mover's view only."""
    view = posed.view
    board = await board_picture(
        lang, view.table, picture_names(lang, posed.puzzle.seat), deadline=None
    )
    lines = [
        source_text(lang, posed.match_id, names, posed.puzzle.seat),
        *position_lines(lang, view, faces),
    ]
    return lines, {"image": board.file, "image_description": board.description}


async def position_above(
    lang: str, posed: PosedPuzzle | None, names: tuple[str, str] | None, faces: CardFaces
) -> tuple[list[str], dict[str, Any]]:
    """Above an answer: the position's lines and a blank line, and its picture; nothing
    when the puzzle can no longer be posed (its match gone since)."""
    if posed is None:
        return [], {}
    lines, picture = await position(lang, posed, names, faces)
    return [*lines, ""], picture


async def posed_page(
    lang: str,
    posed: PosedPuzzle,
    names: tuple[str, str] | None = None,
    faces: CardFaces = LETTERS,
) -> Page:
    """The puzzle as posed: the position and the choices. ``names``: the real match's
    players by seat, when the engine gives them."""
    lines, picture = await position(lang, posed, names, faces)
    return Page(
        text="\n".join([*lines, "", text(lang, "puzzles.ask")]),
        title=text(lang, "puzzles.title", rating=rating_text(posed.rating)),
        rows=(choice_row(lang, posed.key, posed.puzzle, faces),),
        **picture,
    )


async def answered_page(
    lang: str,
    answer: PuzzleAnswer,
    posed: PosedPuzzle | None,
    names: tuple[str, str] | None = None,
    faces: CardFaces = LETTERS,
) -> Page:
    """The puzzle answered: the verdict and why, under the position (left out when the
    puzzle can no longer be posed), the choices coloured and a Next puzzle button."""
    said = answer_lines(
        lang, answer.puzzle, answer.choice, answer.solved, answer.before, answer.after
    )
    lines, picture = await position_above(lang, posed, names, faces)
    key = "puzzles.solved_title" if answer.solved else "puzzles.missed_title"
    return Page(
        text="\n".join([*lines, *said]),
        title=text(lang, key),
        rows=(choice_row(lang, answer.key, answer.puzzle, faces, answer), next_row(lang)),
        **picture,
    )
