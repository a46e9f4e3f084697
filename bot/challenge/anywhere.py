"""Matches outside the servers the bot is in — a DM, a group DM, a server only the member's
user install reaches: the command's answer, or the challenge once accepted, becomes the
match's board, which the presenters then edit through the presses on it
(:mod:`bot.discord_plumbing.interaction_boards`). Such a match has no server: it counts on
the global ratings.

In a server without the bot, the app's answers are forced private unless the member may use
external apps there (Use External Apps): nobody else would see the board, so the command is
refused with the way to play instead.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.deps import ChallengeDeps
from bot.discord_plumbing.install_context import outside_bot_servers
from bot.words.i18n import language_of, text
from engine.model import MatchInfo


async def external_apps_refused(interaction: discord.Interaction[Any]) -> bool:
    """Refuse (privately, saying how to play) a match in a server the app reaches only
    through the member's install, where its answers would be private; False elsewhere."""
    if interaction.guild_id is None or not outside_bot_servers(interaction):
        return False
    if interaction.permissions.use_external_apps:
        return False
    lang = language_of(interaction.locale)
    await interaction.response.send_message(text(lang, "anywhere.external_apps"), ephemeral=True)
    return True


async def board_here(
    deps: ChallengeDeps, interaction: discord.Interaction[Any], info: MatchInfo
) -> None:
    """The message ``interaction`` answered with (the command's) or pressed and updated
    (the challenge Accepted) is ``info``'s board from now: remembered as such, then drawn
    through ``interaction``."""
    message = interaction.message or await interaction.original_response()
    await deps.placements.set_location(info.match_id, board_message_id=message.id)
    deps.interaction_boards.remember(info.match_id, interaction, message.id, show=True)
