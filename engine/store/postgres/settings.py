"""SQL of the ``guild_settings`` and ``user_settings`` tables."""

from __future__ import annotations

from typing import Any

from engine.store.postgres.sql import execute
from engine.store.rows import ExpiryPolicy, GuildSettings, UserSettings

SELECT_GUILD = (
    "SELECT guild_id, turn_seconds, expiry_policy, thread_per_match, three_rounds_default,"
    " language FROM guild_settings WHERE guild_id = :guild_id"
)
SELECT_USER = "SELECT user_id, dm_notifications FROM user_settings WHERE user_id = :user_id"
# Saving replaces the whole row: every setting not given falls back to the default.
UPSERT_GUILD = (
    "INSERT INTO guild_settings (guild_id, turn_seconds, expiry_policy, thread_per_match,"
    " three_rounds_default, language) VALUES (:guild_id, :turn_seconds, :expiry_policy,"
    " :thread_per_match, :three_rounds_default, :language)"
    " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = EXCLUDED.turn_seconds,"
    " expiry_policy = EXCLUDED.expiry_policy, thread_per_match = EXCLUDED.thread_per_match,"
    " three_rounds_default = EXCLUDED.three_rounds_default, language = EXCLUDED.language"
)
UPSERT_USER = (
    "INSERT INTO user_settings (user_id, dm_notifications) VALUES (:user_id, :dm_notifications)"
    " ON CONFLICT (user_id) DO UPDATE SET dm_notifications = EXCLUDED.dm_notifications"
)


async def save_guild(conn: Any, s: GuildSettings) -> None:
    params = {
        "guild_id": s.guild_id,
        "turn_seconds": s.turn_seconds,
        "expiry_policy": None if s.expiry_policy is None else str(s.expiry_policy),
        "thread_per_match": s.thread_per_match,
        "three_rounds_default": s.three_rounds_default,
        "language": s.language,
    }
    await execute(conn, UPSERT_GUILD, params)


async def save_user(conn: Any, s: UserSettings) -> None:
    await execute(conn, UPSERT_USER, {"user_id": s.user_id, "dm_notifications": s.dm_notifications})


def guild_from_row(row: Any) -> GuildSettings:
    policy = row["expiry_policy"]
    return GuildSettings(
        row["guild_id"],
        turn_seconds=row["turn_seconds"],
        expiry_policy=None if policy is None else ExpiryPolicy(policy),
        thread_per_match=row["thread_per_match"],
        three_rounds_default=row["three_rounds_default"],
        language=row["language"],
    )


def user_from_row(row: Any) -> UserSettings:
    return UserSettings(row["user_id"], dm_notifications=row["dm_notifications"])
