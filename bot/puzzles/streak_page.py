"""A streak's pages: a puzzle the streak poses (the position as its mover saw it, the run so
far, one button per choice); once answered, the verdict and why, the run (going on, or
over), and what comes next — the next, harder puzzle, or a new streak and the rated ones;
and the page of a climbed ladder."""

from __future__ import annotations

import discord

from bot.custom_ids import puzzle_next_id, streak_choice_id, streak_step_id
from bot.discord_plumbing.pages import Page, Row
from bot.puzzles.puzzle_page import choice_row, position, position_above
from bot.puzzles.words import judgement_lines, run_text
from bot.words.card_faces import LETTERS, CardFaces
from bot.words.i18n import text
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer
from engine.service.puzzles.streaks import StreakStep


def _button(
    lang: str, key: str, custom_id: str, primary: bool
) -> discord.ui.Button[discord.ui.View]:
    style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
    return discord.ui.Button(label=text(lang, key), style=style, custom_id=custom_id)


def next_rows(lang: str, run_on: bool) -> Row:
    """Under an answer: the next puzzle of a run going on; a new streak (or the rated
    puzzles) once it is over."""
    if run_on:
        return (_button(lang, "puzzles.run_next", streak_step_id("next"), True),)
    return (
        _button(lang, "puzzles.run_new", streak_step_id("new"), True),
        _button(lang, "puzzles.next", puzzle_next_id(), False),
    )


async def streak_page(
    lang: str,
    step: StreakStep,
    names: tuple[str, str] | None = None,
    faces: CardFaces = LETTERS,
) -> Page:
    """A puzzle the streak poses, with the run so far."""
    lines, picture = await position(lang, step.posed, names, faces)
    posed = step.posed
    return Page(
        text="\n".join([*lines, "", text(lang, "puzzles.run_ask")]),
        title=text(lang, "puzzles.run_title", solved=step.solved, best=step.best),
        rows=(choice_row(lang, posed.key, posed.puzzle, faces, choice_id=streak_choice_id),),
        **picture,
    )


async def streak_answered_page(
    lang: str,
    answer: PuzzleAnswer,
    posed: PosedPuzzle | None,
    names: tuple[str, str] | None = None,
    faces: CardFaces = LETTERS,
) -> Page:
    """A streak's puzzle answered: the verdict and why under the position (left out when
    it can no longer be posed), the run, and the buttons for what comes next."""
    said = judgement_lines(lang, answer.puzzle, answer.choice, answer.solved)
    lines, picture = await position_above(lang, posed, names, faces)
    run_on = answer.after.run is not None
    key = "puzzles.run_solved_title" if run_on else "puzzles.run_over_title"
    choices = choice_row(lang, answer.key, answer.puzzle, faces, answer, choice_id=streak_choice_id)
    return Page(
        text="\n".join([*lines, *said, "", run_text(lang, answer.before, answer.after)]),
        title=text(lang, key),
        rows=(choices, next_rows(lang, run_on)),
        **picture,
    )


def climbed_page(lang: str, solved: int, best: int) -> Page:
    """No harder puzzle is left: the run stands unbroken (none at all: the rated words)."""
    if solved == 0:
        return Page(text=text(lang, "puzzles.none_left"), title=text(lang, "puzzles.run_top_title"))
    return Page(
        text=text(lang, "puzzles.run_top", solved=solved, best=best),
        title=text(lang, "puzzles.run_top_title"),
        rows=(next_rows(lang, False)[1:],),
    )
