"""The ``guild_settings`` and ``user_settings`` tables: columns, the SQL both stores run
alike, and the conversions between their rows and the settings."""

from __future__ import annotations

from typing import Any

from engine.model import ExpiryPolicy, GuildSettings, SeasonLength, UserSettings
from engine.store.shared_sql.sql import Row, insert, select

GUILD_COLUMNS = (
    "guild_id",
    "turn_seconds",
    "expiry_policy",
    "thread_per_match",
    "three_rounds_default",
    "language",
    "season_length",
    "season_channel_id",
    "lobby_channel_id",
    "tournament_role_id",
    "time_control",
    "vacation_days",
    "puzzle_channel_id",
)
USER_COLUMNS = ("user_id", "dm_notifications", "share_reviews")

SELECT_GUILD = f"{select('guild_settings', GUILD_COLUMNS)} WHERE guild_id = :guild_id"
SELECT_USER = f"{select('user_settings', USER_COLUMNS)} WHERE user_id = :user_id"
# Saving replaces the whole row (each store says how): every setting not given falls back
# to the default.
INSERT_GUILD = insert("guild_settings", GUILD_COLUMNS)
INSERT_USER = insert("user_settings", USER_COLUMNS)


def guild_params(s: GuildSettings) -> dict[str, Any]:
    return {
        "guild_id": s.guild_id,
        "turn_seconds": s.turn_seconds,
        "expiry_policy": None if s.expiry_policy is None else str(s.expiry_policy),
        "thread_per_match": s.thread_per_match,
        "three_rounds_default": s.three_rounds_default,
        "language": s.language,
        "season_length": None if s.season_length is None else str(s.season_length),
        "season_channel_id": s.season_channel_id,
        "lobby_channel_id": s.lobby_channel_id,
        "tournament_role_id": s.tournament_role_id,
        "time_control": s.time_control,
        "vacation_days": s.vacation_days,
        "puzzle_channel_id": s.puzzle_channel_id,
    }


def user_params(s: UserSettings) -> dict[str, Any]:
    return {
        "user_id": s.user_id,
        "dm_notifications": s.dm_notifications,
        "share_reviews": s.share_reviews,
    }


def guild_from_row(row: Row) -> GuildSettings:
    policy = row["expiry_policy"]
    return GuildSettings(
        row["guild_id"],
        turn_seconds=row["turn_seconds"],
        expiry_policy=None if policy is None else ExpiryPolicy(policy),
        thread_per_match=_flag(row["thread_per_match"]),
        three_rounds_default=_flag(row["three_rounds_default"]),
        language=row["language"],
        season_length=None if row["season_length"] is None else SeasonLength(row["season_length"]),
        season_channel_id=row["season_channel_id"],
        lobby_channel_id=row["lobby_channel_id"],
        tournament_role_id=row["tournament_role_id"],
        time_control=row["time_control"],
        vacation_days=row["vacation_days"],
        puzzle_channel_id=row["puzzle_channel_id"],
    )


def user_from_row(row: Row) -> UserSettings:
    return UserSettings(
        row["user_id"],
        dm_notifications=bool(row["dm_notifications"]),
        share_reviews=bool(row["share_reviews"]),
    )


def _flag(value: bool | int | None) -> bool | None:
    """SQLite keeps a flag as 0 or 1 (PostgreSQL as a boolean); NULL is no setting."""
    return None if value is None else bool(value)
