"""`/hanamikoji puzzle`: the member's next puzzle, privately — a decision of a real match
where its player missed a clearly better move, to be found in one try."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.translator import localised
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.puzzle_message import show_next_puzzle

Command = app_commands.Command[Any, ..., None]


def puzzle_commands(deps: PuzzlesDeps) -> list[Command]:
    """The command, bound to the puzzles feature's parts."""

    @app_commands.command(
        name=localised("puzzles.names.puzzle"), description=localised("puzzles.slash.puzzle")
    )
    async def puzzle(interaction: discord.Interaction[Any]) -> None:
        await show_next_puzzle(deps, interaction, edit=False)

    return [puzzle]
