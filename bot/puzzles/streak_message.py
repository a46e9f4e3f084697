"""A member's streak, privately: go on (the command with ``streak:True``, a new private
message; Next in streak, the same message edited), start again (New streak), and answer
(a streak's choice button: the message edited into the verdict). As for the rated puzzles,
every press is acknowledged first and a refusal is a short private line."""

from __future__ import annotations

from typing import Any, Literal

import discord

from bot.discord_plumbing.first_response import FirstResponse, acknowledge, update_in_place
from bot.discord_plumbing.install_context import standings_scope
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import message_kwargs, reply_privately
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_message import (
    PUZZLE_REFUSALS,
    posed_names,
    puzzle_refusal,
    show_answer,
)
from bot.puzzles.streak_page import climbed_page, streak_answered_page, streak_page
from bot.words.i18n import language_of
from engine.service.puzzles.errors import LadderClimbed
from engine.service.puzzles.service import PuzzleAnswer

StreakMove = Literal["go_on", "new"]


async def show_streak(
    deps: PuzzlesDeps, interaction: discord.Interaction[Any], move: StreakMove, *, edit: bool
) -> None:
    """The streak's puzzle (``go_on``: the one it poses, or the next; ``new``: a new run's
    first): a new private message, or (``edit``) the message pressed on, edited."""
    lang = language_of(interaction.locale)
    guild_id = standings_scope(interaction)  # outside the bot's servers, the built-in set
    async with refusals_answered(interaction, "streak"):
        await acknowledge(interaction, FirstResponse.UPDATE if edit else FirstResponse.THINK)
        streaks = deps.streaks
        try:
            if move == "new":
                step = await streaks.start(guild_id, interaction.user.id)
            else:
                step = await streaks.go_on(guild_id, interaction.user.id)
        except LadderClimbed as top:
            page = climbed_page(lang, top.solved, top.best)
        except PUZZLE_REFUSALS as refusal:
            await reply_privately(interaction, puzzle_refusal(lang, refusal))
            return
        else:
            names = await posed_names(deps, step.posed, lang, guild_id)
            page = await streak_page(lang, step, names, deps.emojis.faces)
        await update_in_place(interaction, **message_kwargs(page, editing=True))


async def answer_streak(
    deps: PuzzlesDeps, interaction: discord.Interaction[Any], key: str, choice: str
) -> None:
    """Judge the member's ``choice`` for their streak's puzzle ``key``; the page becomes
    the verdict and the run."""

    async def judge(scope: int, user_id: int) -> PuzzleAnswer:
        return await deps.streaks.answer(scope, user_id, key, choice)

    await show_answer(deps, interaction, key, judge, streak_answered_page)
