"""The bot's settings, read from a TOML file (see config.example.toml) and the environment."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.request_pacing import DEFAULT_REQUESTS_PER_SECOND, DISCORD_GLOBAL_LIMIT

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
EXPIRY_POLICIES = ("ai", "forfeit")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(ValueError):
    """A setting that is missing or has a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    token: str = field(repr=False)
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL
    dev_guild_id: int | None = None
    """Sync commands to this guild too, where they appear at once (global sync is slower)."""
    requests_per_second: int = DEFAULT_REQUESTS_PER_SECOND
    """The bot's own pace for REST requests, under Discord's global limit of 50 per second."""


@dataclass(frozen=True, slots=True)
class MatchDefaults:
    """Defaults for every server; `/hanamikoji settings` overrides some per server."""

    turn_timer_seconds: int = 24 * 3600
    reminder_before_seconds: int = 3600
    expiry_policy: str = "ai"
    challenge_expiry_seconds: int = 14 * 60
    """Under the 15 minutes an interaction token lasts, so the expired challenge is closed
    through its own interaction, which needs no channel permission."""
    max_active_matches: int = 5
    thread_per_match: bool = True
    three_rounds: bool = False
    ai_move_delay_seconds: float = 1.5


@dataclass(frozen=True, slots=True)
class BotConfig:
    discord: DiscordSettings
    database_path: str = "hanamikoji.sqlite3"
    matches: MatchDefaults = MatchDefaults()
    log_level: str = "INFO"


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise ConfigError(f"[{name}] must be a table, got {section!r}")
    return section


def _typed(section: dict[str, Any], where: str, key: str, kind: type, default: Any) -> Any:
    value = section.get(key, default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if value is not None and (
        not isinstance(value, kind) or isinstance(value, bool) != (kind is bool)
    ):
        raise ConfigError(f"{where}.{key} must be {kind.__name__}, got {value!r}")
    return value


def load_config(path: Path | None, environ: dict[str, str] | None = None) -> BotConfig:
    """Read the TOML file (if any); ``DISCORD_TOKEN`` in the environment wins over the file."""
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {str(path)!r}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{str(path)!r} is not valid TOML: {error}") from None
    discord = _section(data, "discord")
    token = env.get("DISCORD_TOKEN") or _typed(discord, "discord", "token", str, "")
    if not token:
        raise ConfigError(
            "no bot token: set DISCORD_TOKEN or [discord] token (from the Discord developer "
            "portal, Bot tab)"
        )
    dev_guild = _typed(discord, "discord", "dev_guild_id", int, None)
    pace = _typed(discord, "discord", "requests_per_second", int, DEFAULT_REQUESTS_PER_SECOND)
    if not 1 <= pace <= DISCORD_GLOBAL_LIMIT:
        raise ConfigError(
            f"discord.requests_per_second must be 1–{DISCORD_GLOBAL_LIMIT} (Discord's limit), "
            f"got {pace}"
        )
    defaults = MatchDefaults()
    m = _section(data, "matches")
    matches = MatchDefaults(
        turn_timer_seconds=_typed(
            m, "matches", "turn_timer_seconds", int, defaults.turn_timer_seconds
        ),
        reminder_before_seconds=_typed(
            m, "matches", "reminder_before_seconds", int, defaults.reminder_before_seconds
        ),
        expiry_policy=_typed(m, "matches", "expiry_policy", str, defaults.expiry_policy),
        challenge_expiry_seconds=_typed(
            m, "matches", "challenge_expiry_seconds", int, defaults.challenge_expiry_seconds
        ),
        max_active_matches=_typed(
            m, "matches", "max_active_matches", int, defaults.max_active_matches
        ),
        thread_per_match=_typed(m, "matches", "thread_per_match", bool, defaults.thread_per_match),
        three_rounds=_typed(m, "matches", "three_rounds", bool, defaults.three_rounds),
        ai_move_delay_seconds=_typed(
            m, "matches", "ai_move_delay_seconds", float, defaults.ai_move_delay_seconds
        ),
    )
    if matches.expiry_policy not in EXPIRY_POLICIES:
        raise ConfigError(
            f"matches.expiry_policy must be 'ai' or 'forfeit', got {matches.expiry_policy!r}"
        )
    if matches.turn_timer_seconds < 60:
        raise ConfigError(
            f"matches.turn_timer_seconds must be at least 60, got {matches.turn_timer_seconds}"
        )
    log_level = str(_typed(_section(data, "logging"), "logging", "level", str, "INFO")).upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(
            f"logging.level must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}"
        )
    return BotConfig(
        discord=DiscordSettings(
            token=token,
            api_base=_typed(discord, "discord", "api_base", str, DISCORD_API_BASE).rstrip("/"),
            gateway_url=_typed(discord, "discord", "gateway_url", str, DISCORD_GATEWAY_URL),
            dev_guild_id=dev_guild,
            requests_per_second=pace,
        ),
        database_path=_typed(
            _section(data, "database"), "database", "path", str, "hanamikoji.sqlite3"
        ),
        matches=matches,
        log_level=log_level,
    )
