"""Answering: a member's next puzzle (the command, a new private message; the Next puzzle
button, the same message edited) and an answer to one (its choice button: the message
edited into the verdict). Every answer is acknowledged first, since drawing the board can
take longer than Discord's three seconds; a refusal is a short private line in the
member's language and leaves the page as it was.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord_plumbing.first_response import (
    FirstResponse,
    acknowledge,
    update_in_place,
)
from bot.discord_plumbing.install_context import standings_scope
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import Page, message_kwargs, reply_privately
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_page import answered_page, posed_page
from bot.words.card_faces import CardFaces
from bot.words.i18n import language_of, text
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    NoPuzzleLeft,
    NotAChoice,
    NotInStreak,
    PuzzleNotFound,
)
from engine.service.puzzles.service import PosedPuzzle, PuzzleAnswer

REFUSAL_KEYS: dict[type[Exception], str] = {
    AlreadyAttempted: "puzzles.already",
    NotAChoice: "puzzles.not_a_choice",
    PuzzleNotFound: "puzzles.not_found",
    NoPuzzleLeft: "puzzles.none_left",
    NotInStreak: "puzzles.not_in_run",
}
"""The puzzle refusals, each in the member's words."""
PUZZLE_REFUSALS = tuple(REFUSAL_KEYS)


def puzzle_refusal(lang: str, error: Exception) -> str:
    key = next(key for kind, key in REFUSAL_KEYS.items() if isinstance(error, kind))
    return text(lang, key)


async def posed_names(
    deps: PuzzlesDeps, posed: PosedPuzzle, lang: str, guild_id: int
) -> tuple[str, str] | None:
    """The real match's players, when the engine names them (both share their matches)."""
    if posed.players is None:
        return None
    return await deps.names.pair(posed.players, None, lang, guild_id=guild_id)


async def show_next_puzzle(
    deps: PuzzlesDeps, interaction: discord.Interaction[Any], *, edit: bool
) -> None:
    """The member's next puzzle: a new private message (the command's "thinking…" filled
    in), or (``edit``) the message pressed on, edited."""
    lang = language_of(interaction.locale)
    guild_id = standings_scope(interaction)  # outside the bot's servers, the built-in set
    async with refusals_answered(interaction, "next puzzle"):
        await acknowledge(interaction, FirstResponse.UPDATE if edit else FirstResponse.THINK)
        try:
            posed = await deps.puzzles.next_for(guild_id, interaction.user.id)
        except PUZZLE_REFUSALS as refusal:
            await reply_privately(interaction, puzzle_refusal(lang, refusal))
            return
        names = await posed_names(deps, posed, lang, guild_id)
        page = await posed_page(lang, posed, names, deps.emojis.faces)
        # Either way the deferred answer is filled in: the pressed message, or "thinking…".
        await update_in_place(interaction, **message_kwargs(page, editing=True))


Judge = Callable[[int, int], Awaitable[PuzzleAnswer]]
"""The member's answer judged and counted, given the standings' scope and the member."""
AnsweredPage = Callable[
    [str, PuzzleAnswer, PosedPuzzle | None, tuple[str, str] | None, CardFaces], Awaitable[Page]
]
"""The page of an answered puzzle: the rated stream's, or a streak's."""


async def answer_puzzle(
    deps: PuzzlesDeps, interaction: discord.Interaction[Any], key: str, choice: str
) -> None:
    """Judge the member's ``choice`` for puzzle ``key`` and turn its page into the verdict."""

    async def judge(scope: int, user_id: int) -> PuzzleAnswer:
        return await deps.puzzles.answer(scope, user_id, key, choice)

    await show_answer(deps, interaction, key, judge, answered_page)


async def show_answer(
    deps: PuzzlesDeps,
    interaction: discord.Interaction[Any],
    key: str,
    judge: Judge,
    page_of: AnsweredPage,
) -> None:
    """Acknowledge the press on puzzle ``key``'s page, ``judge`` the answer, and turn the
    page into what ``page_of`` makes of it (a refusal: a private line, the page kept)."""
    lang = language_of(interaction.locale)
    guild_id = standings_scope(interaction)  # outside the bot's servers, the built-in set
    async with refusals_answered(interaction, f"puzzle {key}"):
        await acknowledge(interaction, FirstResponse.UPDATE)
        try:
            answer = await judge(guild_id, interaction.user.id)
        except PUZZLE_REFUSALS as refusal:
            await reply_privately(interaction, puzzle_refusal(lang, refusal))
            return
        try:
            posed: PosedPuzzle | None = await deps.puzzles.posed(guild_id, key)
        except PuzzleNotFound:  # gone since: the verdict without the position
            posed = None
        names = None if posed is None else await posed_names(deps, posed, lang, guild_id)
        page = await page_of(lang, answer, posed, names, deps.emojis.faces)
        await update_in_place(interaction, **message_kwargs(page, editing=True))
