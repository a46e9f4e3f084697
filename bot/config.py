"""The bot's settings, read from a TOML file (see config.example.toml) and the environment.

Each TOML table is one dataclass and each key one field: :func:`load_config` walks the
fields and their type hints, so a key is either read into its field or refused by name
(with the nearest known name, for a typo), never parsed and dropped. Each dataclass checks
its own values in ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import ipaddress
import math
import os
import re
import tomllib
import types
import typing
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.request_pacing import DEFAULT_REQUESTS_PER_SECOND, DISCORD_GLOBAL_LIMIT
from engine.hosting import DEFAULT_SECONDS, DatabaseTimeouts
from engine.review.hint import HINT_ITERATIONS
from engine.review.judge import REVIEW_ITERATIONS
from engine.review.search import MOST_ITERATIONS
from engine.service.config import ServiceConfig

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("text", "json")
LOOPBACK = "127.0.0.1"
POSTGRES_SCHEMES = ("postgresql", "postgres")
NO_TOKEN = (
    "no bot token: set DISCORD_TOKEN or [discord] token (from the Discord developer portal, "
    "Bot tab)"
)


class ConfigError(ValueError):
    """A setting that is missing or has a value the bot cannot use."""


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    """``[discord]``: how the bot reaches Discord."""

    token: str = field(default="", repr=False)
    """The bot token; ``DISCORD_TOKEN`` in the environment wins over the file."""
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY_URL
    dev_guild_id: int | None = None
    """Sync commands to this guild too, where they appear at once (global sync is slower)."""
    requests_per_second: int | None = None
    """The bot's own pace for REST requests, under Discord's global limit of 50 per second
    for the whole bot; none: 45, shared out among processes by their part of the shards."""
    shards: str | None = None
    """The shards this process runs, ``"N"`` or ``"A-B"`` (needs ``shard_count``); none:
    every shard."""
    shard_count: int | None = None
    """How many shards the bot has in all; none: as many as Discord recommends."""

    def __post_init__(self) -> None:
        # A missing token is load_config's to refuse: `--check` reads settings without one.
        if self.shard_count is not None and self.shard_count < 1:
            raise ValueError(f"shard_count must be 1 or more, got {self.shard_count!r}")
        if self.shards is not None:
            if self.shard_count is None:
                raise ValueError(
                    f"shards {self.shards!r} needs shard_count, the bot's shards in all"
                )
            parse_shards(self.shards, self.shard_count)
        if self.requests_per_second is not None and not (
            1 <= self.requests_per_second <= DISCORD_GLOBAL_LIMIT
        ):
            raise ValueError(
                f"requests_per_second must be 1–{DISCORD_GLOBAL_LIMIT} (Discord's limit), "
                f"got {self.requests_per_second!r}"
            )
        # discord.py joins routes to the base with a slash of its own.
        object.__setattr__(self, "api_base", self.api_base.rstrip("/"))

    @property
    def shard_ids(self) -> list[int] | None:
        """The shards this process runs, or None for every shard there is."""
        if self.shard_count is None:
            return None
        if self.shards is None:
            return list(range(self.shard_count))
        return list(parse_shards(self.shards, self.shard_count))

    @property
    def pace(self) -> int:
        """REST requests per second this process allows itself: the global limit is the
        whole bot's, so by default a process takes its part of the shards' share of it."""
        if self.requests_per_second is not None:
            return self.requests_per_second
        ids = self.shard_ids
        if ids is None or self.shard_count is None:
            return DEFAULT_REQUESTS_PER_SECOND
        return max(1, DEFAULT_REQUESTS_PER_SECOND * len(ids) // self.shard_count)

    @property
    def holds_every_shard(self) -> bool:
        return self.shard_ids is None or len(self.shard_ids) == self.shard_count

    @property
    def process_name(self) -> str:
        """A stable name for this process among the bot's processes: its shards."""
        ids = self.shard_ids
        if ids is None or self.holds_every_shard:
            return "all shards"
        if len(ids) == 1:
            return f"shard {ids[0]}"
        return f"shards {ids[0]}-{ids[-1]}"


def parse_shards(text: str, shard_count: int) -> range:
    """``"N"`` or ``"A-B"`` (both ends included) as shard ids under ``shard_count``."""
    found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text, re.ASCII)
    if found is None:
        raise ValueError(f"shards must be 'N' or 'A-B' (shard ids from 0), got {text!r}")
    low = int(found[1])
    high = low if found[2] is None else int(found[2])
    if low > high:
        raise ValueError(f"shards {text!r} runs backwards: write the lower shard id first")
    if high >= shard_count:
        raise ValueError(
            f"shards {text!r} goes past shard_count {shard_count} (ids 0-{shard_count - 1})"
        )
    return range(low, high + 1)


@dataclass(frozen=True, slots=True)
class DatabaseSettings:
    """``[database]``: where matches are kept."""

    path: str = "hanamikoji.sqlite3"
    """A file path, relative to the working directory, or ``":memory:"``."""
    url: str | None = field(default=None, repr=False)
    """A PostgreSQL URL, used instead of ``path``; ``DATABASE_URL`` wins over the file."""
    command_timeout_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest one statement may take before the call gives up."""
    acquire_timeout_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest a call waits for a free connection of the pool."""
    connect_timeout_seconds: float = DEFAULT_SECONDS
    """PostgreSQL: the longest opening a connection may take."""
    busy_timeout_seconds: float = DEFAULT_SECONDS
    """SQLite: the longest a write waits for a lock another connection holds."""

    def __post_init__(self) -> None:
        _ = self.timeouts  # checks each bound (a ValueError names the bad one)
        if self.url is not None:
            scheme = urllib.parse.urlsplit(self.url).scheme
            if scheme not in POSTGRES_SCHEMES:
                raise ValueError(
                    "url must be a PostgreSQL URL (postgresql://user:password@host/database),"
                    f" got {masked_url(self.url)!r}"
                )
        if not self.path:
            # SQLite would open a temporary database and lose every match at exit.
            raise ValueError("path must name a file (or \":memory:\"), got ''")
        if "\0" in self.path:
            # No file name can hold one; SQLite and the OS would fail with a traceback.
            raise ValueError(f"path must not contain a NUL character, got {self.path!r}")

    @property
    def timeouts(self) -> DatabaseTimeouts:
        """The bounds on every database call, for the store."""
        try:
            return DatabaseTimeouts(
                command_seconds=self.command_timeout_seconds,
                acquire_seconds=self.acquire_timeout_seconds,
                connect_seconds=self.connect_timeout_seconds,
                busy_seconds=self.busy_timeout_seconds,
            )
        except ValueError as error:
            # Named as the table spells them: "command_seconds" -> "command_timeout_seconds".
            raise ValueError(str(error).replace("_seconds", "_timeout_seconds", 1)) from None


def masked_url(url: str) -> str:
    """``url`` fit to print: its password, in the address or as ``?password=``, is ``***``."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if parts.password is None and all(k != "password" for k, _ in query):
        return url
    hidden = [(k, "***" if k == "password" else v) for k, v in query]
    return urllib.parse.urlunsplit(
        parts._replace(netloc=netloc, query=urllib.parse.urlencode(hidden, safe="/*"))
    )


@dataclass(frozen=True, slots=True)
class LoggingSettings:
    """``[logging]``."""

    level: str = "INFO"
    """One of :data:`LOG_LEVELS`, in any case."""
    format: str = "text"
    """``"text"``: one readable line per record; ``"json"``: one JSON object per line, for a
    log collector (:mod:`bot.operations.json_logs`)."""

    def __post_init__(self) -> None:
        level = self.level.upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"level must be one of {', '.join(LOG_LEVELS)}, got {self.level!r}")
        object.__setattr__(self, "level", level)
        if self.format not in LOG_FORMATS:
            raise ValueError(
                f"format must be one of {', '.join(map(repr, LOG_FORMATS))}, got {self.format!r}"
            )


@dataclass(frozen=True, slots=True)
class MetricsSettings:
    """``[metrics]``: Prometheus metrics and health checks on an HTTP port of their own."""

    port: int | None = None
    """The port of ``/metrics``, ``/healthz`` and ``/readyz``; none: no metrics, no port
    (0: any free port, for tests)."""
    address: str = LOOPBACK
    """Where the port listens: loopback unless a scraper on another host must reach it."""
    admin_user_ids: tuple[int, ...] = ()
    """Users besides the application's owner who may use ``/hanamikoji status``."""

    def __post_init__(self) -> None:
        if self.port is not None and not 0 <= self.port <= 65535:
            raise ValueError(f"port must be from 0 to 65535, got {self.port!r}")
        try:
            ipaddress.ip_address(self.address)
        except ValueError:
            if not re.fullmatch(r"[A-Za-z0-9.-]{1,253}", self.address):
                raise ValueError(
                    f"address must be an IP address or a host name, got {self.address!r}"
                ) from None
        for user_id in self.admin_user_ids:
            if user_id <= 0:
                raise ValueError(f"admin_user_ids must be Discord user ids, got {user_id!r}")

    @property
    def enabled(self) -> bool:
        return self.port is not None


@dataclass(frozen=True, slots=True)
class AiSettings:
    """``[ai]``: how long the AI's search works on a review and on a hint. The match
    service reads them from its own config (:class:`ServiceConfig`), where
    :class:`BotConfig` puts them."""

    review_iterations: int = REVIEW_ITERATIONS
    """Play-outs per decision of a finished match's review: more is surer and slower."""
    hint_iterations: int = HINT_ITERATIONS
    """Play-outs behind one hint in a match against the AI with hints on."""

    def __post_init__(self) -> None:
        for name in AI_FIELDS:
            if not 1 <= getattr(self, name) <= MOST_ITERATIONS:
                raise ValueError(
                    f"{name} must be from 1 to {MOST_ITERATIONS:,} play-outs per decision, "
                    f"got {getattr(self, name)!r}"
                )


AI_FIELDS = ("review_iterations", "hint_iterations")
"""The :class:`ServiceConfig` fields set in ``[ai]``, not in ``[matches]``."""


@dataclass(frozen=True, slots=True)
class BotConfig:
    """Every setting, one field per TOML table."""

    discord: DiscordSettings
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    matches: ServiceConfig = field(default_factory=ServiceConfig)
    """Defaults for every server; ``/hanamikoji settings`` overrides some per server."""
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    metrics: MetricsSettings = field(default_factory=MetricsSettings)
    ai: AiSettings = field(default_factory=AiSettings)

    def __post_init__(self) -> None:
        # One place for each setting: the service's search budgets come from [ai].
        budgets = {name: getattr(self.ai, name) for name in AI_FIELDS}
        object.__setattr__(self, "matches", dataclasses.replace(self.matches, **budgets))


def table_keys(cls: type[DataclassInstance]) -> set[str]:
    """The keys a table's dataclass reads: its fields, less those another table sets."""
    keys = {f.name for f in dataclasses.fields(cls)}
    return keys - set(AI_FIELDS) if cls is ServiceConfig else keys


Section = TypeVar("Section", bound="DataclassInstance")


def load_config(
    path: Path | None,
    environ: Mapping[str, str] | None = None,
    discord_overrides: Mapping[str, object] | None = None,
    *,
    require_token: bool = True,
) -> BotConfig:
    """Read the TOML file (if any); ``DISCORD_TOKEN`` and ``DATABASE_URL`` in the environment
    win over the file, and ``discord_overrides`` (from the command line) over both.

    Without a token it refuses (:data:`NO_TOKEN`) unless ``require_token`` is false, as for
    checking the settings before the application exists."""
    env = os.environ if environ is None else environ
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {str(path)!r}") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{str(path)!r} is not valid TOML: {error}") from None
    if env.get("DISCORD_TOKEN"):
        discord = _table(data.get("discord", {}), "discord")
        data = {**data, "discord": {**discord, "token": env["DISCORD_TOKEN"]}}
    if env.get("DATABASE_URL"):
        database = _table(data.get("database", {}), "database")
        data = {**data, "database": {**database, "url": env["DATABASE_URL"]}}
    if discord_overrides:
        discord = _table(data.get("discord", {}), "discord")
        data = {**data, "discord": {**discord, **discord_overrides}}
    hints = typing.get_type_hints(BotConfig)
    sections: dict[str, Any] = {}
    for name, table in data.items():
        if name not in hints:
            raise ConfigError(_unknown_top_level(name, table, hints, path))
        sections[name] = _section(hints[name], _table(table, name), name, path)
    if "discord" not in sections:
        # No [discord] table: build it from defaults, so a missing token says so.
        sections["discord"] = _section(DiscordSettings, {}, "discord", path)
    config = BotConfig(**sections)
    if require_token and not config.discord.token:
        raise ConfigError(f"[discord] {NO_TOKEN}")
    return config


def _unknown_top_level(
    name: str, value: object, hints: Mapping[str, Any], path: Path | None
) -> str:
    """Refuse a table or key outside the known tables, naming the nearest known one."""
    if isinstance(value, dict):
        nearest = difflib.get_close_matches(name, list(hints), n=1)
        hint = f"did you mean [{nearest[0]}]?" if nearest else _known_sections(hints)
        return f"unknown section [{name}]{_in(path)} ({hint})"
    # A key above every table: say which table the nearest key of that name belongs in.
    keys = {key: table for table, cls in hints.items() for key in table_keys(cls)}
    nearest = difflib.get_close_matches(name, list(keys), n=1)
    if not nearest:
        hint = "outside any [table]"
    elif nearest[0] == name:
        hint = f"it belongs under [{keys[name]}]"
    else:
        hint = f"did you mean {nearest[0]}, under [{keys[nearest[0]]}]?"
    return f"unknown setting {name}{_in(path)} ({hint})"


def _known_sections(hints: Mapping[str, Any]) -> str:
    return "the sections are " + ", ".join(f"[{name}]" for name in hints)


def _in(path: Path | None) -> str:
    return "" if path is None else f" in {path}"


def _table(value: object, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table, got {value!r}")
    return value


def _section(cls: type[Section], table: Mapping[str, Any], name: str, path: Path | None) -> Section:
    """One dataclass from its table: each key converted by its field's type hint."""
    hints = typing.get_type_hints(cls)
    fields = table_keys(cls)
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in fields:
            nearest = difflib.get_close_matches(key, sorted(fields), n=1)
            if key in AI_FIELDS:
                hint = "it belongs under [ai]"
            elif nearest:
                hint = f"did you mean {name}.{nearest[0]}?"
            else:
                hint = f"config.example.toml lists every setting of [{name}]"
            raise ConfigError(f"unknown setting {name}.{key}{_in(path)} ({hint})")
        values[key] = _convert(hints[key], value, f"{name}.{key}")
    try:
        return cls(**values)
    except ValueError as error:
        raise ConfigError(_where(name, fields, str(error))) from None


def _where(name: str, fields: set[str], message: str) -> str:
    """A field check's message, told which table it is in."""
    first = message.split(" ", 1)[0]
    return f"{name}.{message}" if first in fields else f"[{name}] {message}"


def _convert(hint: Any, value: object, where: str) -> Any:
    """``value`` as the type ``hint`` names, or a ConfigError quoting it."""
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(options) == 1:  # TOML has no null: an optional key is absent or a value
            return _convert(options[0], value, where)
    elif typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (Ellipsis,):
        if not isinstance(value, list):
            raise ConfigError(f"{where} must be a list, got {value!r}")
        item = typing.get_args(hint)[0]
        return tuple(_convert(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        choices = [member.value for member in hint]
        if value not in choices:
            raise ConfigError(
                f"{where} must be one of {', '.join(map(repr, choices))}, got {value!r}"
            )
        return hint(value)
    elif hint is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{where} must be true or false, got {value!r}")
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(f"{where} must be a whole number, got {value!r}")
    elif hint is float:
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{where} must be a finite number, got {value!r}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(f"{where} must be a number, got {value!r}")
    elif hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{where} must be a string, got {value!r}")
    raise TypeError(f"{where}: no TOML reading for the type {hint!r}")
