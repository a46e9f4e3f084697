"""Slash commands are sent to Discord only when they changed.

Discord rate-limits the bulk update of an application's commands tightly, and a bot that
restarts often (a deploy, a crash loop) should not spend that on the same commands every
time. What was last synced is remembered as a digest in a small file beside the SQLite
database, or, with a PostgreSQL database, in :data:`POSTGRES_MARKER` in the working
directory; delete it to force a sync. Only the process holding shard 0 syncs.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

POSTGRES_MARKER = Path(".hanamikoji.synced-commands.json")
"""The digest file of a bot on PostgreSQL, relative to the working directory. The digest
names the application, so another bot's file there only costs one more sync."""


def sync_marker(database_path: str, database_url: str | None) -> Path | None:
    """Where the digests are kept: beside the SQLite file, or in the working directory when
    the matches are in PostgreSQL (None for a database in memory)."""
    if database_url is not None:
        return POSTGRES_MARKER
    return marker_beside(database_path)


def marker_beside(database: str) -> Path | None:
    """Where the digests of the synced commands are kept (None for a database in memory)."""
    if database == ":memory:" or database.startswith("file::memory:"):
        return None
    path = Path(database)
    return path.with_name(f".{path.name}.synced-commands.json")


async def sync_if_changed(
    tree: app_commands.CommandTree[Any],
    marker: Path | None,
    guild: discord.abc.Snowflake | None = None,
) -> bool:
    """Sync the tree's commands (for ``guild``, else global) unless these exact commands were
    synced last time for this application; whether it synced."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    payload = [
        await command.get_translated_payload(tree, translator)
        if translator
        else command.to_dict(tree)
        for command in commands
    ]
    scope = "global" if guild is None else str(guild.id)
    stamp = json.dumps(
        {"application": tree.client.application_id, "commands": payload}, sort_keys=True
    )
    digest = hashlib.sha256(stamp.encode()).hexdigest()
    synced = _read(marker)
    if synced.get(scope) == digest:
        log.info("commands unchanged since the last sync (%s): not sent again", scope)
        return False
    await tree.sync(guild=guild)
    if marker is not None:
        synced[scope] = digest
        _write(marker, synced)
    return True


def _write(marker: Path, synced: dict[str, str]) -> None:
    """A few hundred bytes at start-up: written in place, not worth a thread."""
    try:
        marker.write_text(json.dumps(synced, indent=1))
    except OSError as error:  # the next start syncs again: slower, not wrong
        log.warning("could not remember the synced commands in %s: %s", marker, error)


def _read(marker: Path | None) -> dict[str, str]:
    if marker is None:
        return {}
    try:
        data = json.loads(marker.read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
