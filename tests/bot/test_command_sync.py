"""Slash commands are sent again when what would be sent changed, and only then."""

from pathlib import Path

import discord
from discord import app_commands

from bot.command_sync import sync_if_changed


def _tree(**group_fields: object) -> tuple[app_commands.CommandTree[discord.Client], list[int]]:
    """A tree with one guild-only group, whose `sync` only counts."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    group = app_commands.Group(
        name="hanamikoji",
        description="Play",
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        **group_fields,  # type: ignore[arg-type]
    )
    group.command(name="rules", description="The rules")(_rules)
    tree.add_command(group)
    synced: list[int] = []

    async def sync(*, guild: object = None) -> list[object]:
        synced.append(1)
        return []

    tree.sync = sync  # type: ignore[method-assign]
    return tree, synced


async def _rules(interaction: discord.Interaction) -> None:
    """Never run: only its payload is synced."""


async def test_a_change_of_installs_alone_is_synced(tmp_path: Path):
    marker = tmp_path / ".matches.synced-commands.json"
    before, synced_before = _tree()
    assert await sync_if_changed(before, marker)
    assert not await sync_if_changed(before, marker), "the same commands: not sent again"
    guild_only = app_commands.AppInstallationType(guild=True, user=False)
    after, synced_after = _tree(allowed_installs=guild_only)
    assert await sync_if_changed(after, marker)
    assert (synced_before, synced_after) == ([1], [1])
