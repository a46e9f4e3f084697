"""Where an interaction comes from, as the user-installed app sees it: a server the bot is
in, or anywhere else — a DM, a group DM, a server only the member's own install reaches.
Outside the bot's servers, what is kept per server (ratings, puzzle standings) is kept on
the global scope instead."""

from __future__ import annotations

from typing import Any

import discord

from engine.ratings import GLOBAL_RATINGS


def outside_bot_servers(interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction`` comes from where the bot is not: a DM or group DM, or a
    server the application reaches only through the member's own install."""
    if interaction.guild_id is None:
        return True
    return not interaction.is_guild_integration()


def standings_scope(interaction: discord.Interaction[Any]) -> int:
    """Whose ratings and puzzle standings ``interaction`` reads and counts on: its server's,
    or outside the bot's servers the global ones (:data:`GLOBAL_RATINGS`)."""
    if outside_bot_servers(interaction):
        return GLOBAL_RATINGS
    assert interaction.guild_id is not None
    return interaction.guild_id
