"""PostgreSQL's own SQL of the ``guild_settings`` and ``user_settings`` tables (the rest is
in :mod:`engine.store.shared_sql.settings`)."""

from __future__ import annotations

from typing import Any

from engine.model import GuildSettings, UserSettings
from engine.store import shared_sql
from engine.store.postgres.sql import execute, replacing
from engine.store.shared_sql.settings import GUILD_COLUMNS, INSERT_GUILD, INSERT_USER, USER_COLUMNS

# Saving replaces the whole row: every setting not given falls back to the default.
UPSERT_GUILD = INSERT_GUILD + replacing(("guild_id",), GUILD_COLUMNS)
UPSERT_USER = INSERT_USER + replacing(("user_id",), USER_COLUMNS)


async def save_guild(conn: Any, s: GuildSettings) -> None:
    await execute(conn, UPSERT_GUILD, shared_sql.settings.guild_params(s))


async def save_user(conn: Any, s: UserSettings) -> None:
    await execute(conn, UPSERT_USER, shared_sql.settings.user_params(s))
