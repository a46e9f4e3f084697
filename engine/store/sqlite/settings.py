"""SQLite's own SQL of the ``guild_settings`` and ``user_settings`` tables (the rest is in
:mod:`engine.store.shared_sql.settings`)."""

from __future__ import annotations

from engine.model import GuildSettings, UserSettings
from engine.store import shared_sql
from engine.store.shared_sql.settings import INSERT_GUILD, INSERT_USER
from engine.store.sqlite.writer import Statement

REPLACE_GUILD = INSERT_GUILD.replace("INSERT", "INSERT OR REPLACE", 1)
REPLACE_USER = INSERT_USER.replace("INSERT", "INSERT OR REPLACE", 1)


def save_guild(s: GuildSettings) -> Statement:
    return REPLACE_GUILD, shared_sql.settings.guild_params(s)


def save_user(s: UserSettings) -> Statement:
    return REPLACE_USER, shared_sql.settings.user_params(s)
