"""`/hanamikoji puzzle`: the member's next puzzle, privately — a decision of a real match
where its player missed a clearly better move, to be found in one try; ``streak:True``, their
streak (unrated, ever harder, until the first miss)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.translator import localised
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_message import show_next_puzzle
from bot.puzzles.streak_message import show_streak

Command = app_commands.Command[Any, ..., None]


def puzzle_commands(deps: PuzzlesDeps) -> list[Command]:
    """The command, bound to the puzzles feature's parts."""

    @app_commands.command(
        name=localised("puzzles.names.puzzle"), description=localised("puzzles.slash.puzzle")
    )
    @app_commands.rename(streak=localised("puzzles.names.streak"))
    @app_commands.describe(streak=localised("puzzles.slash.streak"))
    async def puzzle(interaction: discord.Interaction[Any], streak: bool = False) -> None:
        if streak:
            await show_streak(deps, interaction, "go_on", edit=False)
        else:
            await show_next_puzzle(deps, interaction, edit=False)

    return [puzzle]
