"""SQL of the ``guild_settings`` and ``user_settings`` tables."""

from __future__ import annotations

import sqlite3

from engine.store.rows import ExpiryPolicy, GuildSettings, UserSettings
from engine.store.sqlite.writer import Statement

SELECT_GUILD = (
    "SELECT guild_id, turn_seconds, expiry_policy, thread_per_match, three_rounds_default,"
    " language FROM guild_settings WHERE guild_id = :guild_id"
)
SELECT_USER = "SELECT user_id, dm_notifications FROM user_settings WHERE user_id = :user_id"


def save_guild(s: GuildSettings) -> Statement:
    sql = (
        "INSERT OR REPLACE INTO guild_settings (guild_id, turn_seconds, expiry_policy,"
        " thread_per_match, three_rounds_default, language) VALUES (:guild_id, :turn_seconds,"
        " :expiry_policy, :thread_per_match, :three_rounds_default, :language)"
    )
    params = {
        "guild_id": s.guild_id,
        "turn_seconds": s.turn_seconds,
        "expiry_policy": None if s.expiry_policy is None else str(s.expiry_policy),
        "thread_per_match": s.thread_per_match,
        "three_rounds_default": s.three_rounds_default,
        "language": s.language,
    }
    return sql, params


def save_user(s: UserSettings) -> Statement:
    sql = (
        "INSERT OR REPLACE INTO user_settings (user_id, dm_notifications)"
        " VALUES (:user_id, :dm_notifications)"
    )
    return sql, {"user_id": s.user_id, "dm_notifications": s.dm_notifications}


def guild_from_row(row: sqlite3.Row) -> GuildSettings:
    policy = row["expiry_policy"]
    return GuildSettings(
        row["guild_id"],
        turn_seconds=row["turn_seconds"],
        expiry_policy=None if policy is None else ExpiryPolicy(policy),
        thread_per_match=_flag(row["thread_per_match"]),
        three_rounds_default=_flag(row["three_rounds_default"]),
        language=row["language"],
    )


def _flag(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def user_from_row(row: sqlite3.Row) -> UserSettings:
    return UserSettings(row["user_id"], dm_notifications=bool(row["dm_notifications"]))
