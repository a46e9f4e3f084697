"""Puzzles in the stats: a member's puzzle standing line, and a server's puzzle leaderboard
(`/hanamikoji leaderboard puzzles:True`: its best solvers by puzzle rating, first page)."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.words.i18n import language_of, text
from bot.words.player_names import PlayerNames
from bot.words.ratings import rating_text
from engine.model.puzzles import PuzzleStanding
from engine.service.puzzles.service import MatchPuzzles

PUZZLE_LEADERBOARD_SIZE = 10


def puzzle_standing_lines(lang: str, standing: PuzzleStanding) -> list[str]:
    """``Puzzles: rating **1662?** · 12 solved of 15 · best streak 4`` once the member
    tried a rated puzzle, and ``Puzzle streak mode: best run **7**`` once they solved one
    in a streak."""
    lines: list[str] = []
    if standing.attempts:
        rating = rating_text(standing.rating)
        solved, attempts, best = standing.solved, standing.attempts, standing.best_streak
        lines.append(
            text(lang, "stats.puzzles", rating=rating, solved=solved, attempts=attempts, best=best)
        )
    if standing.run_best:
        lines.append(text(lang, "stats.puzzle_run", best=standing.run_best))
    return lines


def puzzle_leaderboard_text(
    lang: str, standings: list[PuzzleStanding], names: dict[int, str]
) -> str:
    if not standings:
        return text(lang, "stats.puzzle_leaderboard_empty")
    return "\n".join(
        text(
            lang,
            "stats.puzzle_leaderboard_line",
            rank=rank,
            name=names.get(s.user_id, "?"),
            rating=rating_text(s.rating),
            solved=s.solved,
            attempts=s.attempts,
        )
        for rank, s in enumerate(standings, start=1)
    )


async def show_puzzle_leaderboard(
    puzzles: MatchPuzzles, names: PlayerNames, interaction: discord.Interaction[Any]
) -> None:
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    await think_privately(interaction)
    standings = list(await puzzles.leaderboard(guild_id, offset=0, limit=PUZZLE_LEADERBOARD_SIZE))
    found = {s.user_id: await names.name(s.user_id, guild_id=guild_id) for s in standings}
    embed = discord.Embed(
        title=text(lang, "stats.puzzle_leaderboard_title"),
        description=puzzle_leaderboard_text(lang, standings, found),
        colour=EMBED_COLOUR,
    )
    await send_private(interaction, embed=embed)
