"""The whole `/hanamikoji` group as Discord receives it (every feature's commands,
translated), for tests of Discord's limits on one command."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

import discord
from discord import app_commands

from bot.challenge.commands import challenge_commands
from bot.clocks.commands import clock_commands
from bot.discord_plumbing.translator import CatalogueTranslator
from bot.features import HanamikojiGroup
from bot.play.commands import play_commands
from bot.puzzles.commands import puzzle_commands
from bot.review.commands import review_commands
from bot.seasons.commands import season_group
from bot.settings.commands import settings_commands
from bot.stats.commands import stats_commands
from bot.tournaments.commands import tournament_group


async def whole_group_payload() -> dict[str, Any]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    await tree.set_translator(CatalogueTranslator())
    group = HanamikojiGroup(MagicMock())
    deps = MagicMock()
    for command in [
        *challenge_commands(deps, ("easy", "normal", "hard")),
        *stats_commands(deps),
        *review_commands(deps),
        season_group(deps),
        tournament_group(deps),
        *settings_commands(deps),
        *play_commands(deps, deps),
        *clock_commands(deps),
        *puzzle_commands(deps),
    ]:
        group.add_command(command)
    tree.add_command(group)
    assert tree.translator is not None
    payload: dict[str, Any] = await group.get_translated_payload(tree, tree.translator)
    return payload
