"""Application commands: what the bot synced, and the data of a user's invocation."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from tests.discord_emulator.errors import (
    MISSING_ACCESS,
    DiscordError,
    ImpossibleUserAction,
    invalid_form_body,
)
from tests.discord_emulator.payloads import member_payload, user_payload
from tests.discord_emulator.snowflakes import SnowflakeFactory
from tests.discord_emulator.world import ChannelRecord, World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
CHAT_INPUT = 1
MAX_COMMANDS = 100
MAX_OPTIONS = 25

_NAME = re.compile(r"^[-_\w]{1,32}$")
BOT_DM_CONTEXT = 1


class HasId(Protocol):
    @property
    def id(self) -> int: ...


OptionValue = str | int | float | bool | HasId


def _problem(message: str) -> dict[str, Any]:
    return {"_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": message}]}


def _command_problems(index: int, command: Mapping[str, Any]) -> dict[str, Any]:
    problems: dict[str, Any] = {}
    name = command.get("name")
    kind = command.get("type", CHAT_INPUT)
    if (
        not isinstance(name, str)
        or not _NAME.match(name)
        or (kind == CHAT_INPUT and name != name.lower())
    ):
        problems[f"{index}.name"] = _problem(f"Invalid command name {name!r}")
    description = command.get("description") or ""
    if kind == CHAT_INPUT and not 1 <= len(description) <= 100:
        problems[f"{index}.description"] = _problem("Must be 1-100 characters")
    _option_problems(f"{index}", command.get("options") or [], problems)
    return problems


def _option_problems(
    at: str, options: Sequence[Mapping[str, Any]], problems: dict[str, Any]
) -> None:
    if len(options) > MAX_OPTIONS:
        problems[f"{at}.options"] = _problem(f"Must be {MAX_OPTIONS} or fewer in length.")
    seen_optional = False
    for index, option in enumerate(options):
        here = f"{at}.options.{index}"
        name = option.get("name")
        if not isinstance(name, str) or not _NAME.match(name) or name != name.lower():
            problems[f"{here}.name"] = _problem(f"Invalid option name {name!r}")
        if not 1 <= len(option.get("description") or "") <= 100:
            problems[f"{here}.description"] = _problem("Must be 1-100 characters")
        if len(option.get("choices") or []) > 25:
            problems[f"{here}.choices"] = _problem("Must be 25 or fewer in length.")
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _option_problems(here, option.get("options") or [], problems)
        elif option.get("required"):
            if seen_optional:
                problems[f"{here}.required"] = _problem(
                    "Required options must be placed before non-required options"
                )
        else:
            seen_optional = True


class CommandRegistry:
    """Global and guild commands as Discord stores them after a sync."""

    def __init__(self, ids: SnowflakeFactory, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.sync_count = 0

    def _scope(self, guild_id: int | None) -> dict[str, dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, {})

    def _stored(
        self, payload: Mapping[str, Any], guild_id: int | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "type": CHAT_INPUT,
            "default_member_permissions": None,
            "nsfw": False,
            "options": [],
            **payload,
            # Discord keeps a command's id when an overwrite keeps its name.
            "id": old["id"] if old else str(self._ids.next()),
            "application_id": str(self._application_id),
            "version": str(self._ids.next()),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    def overwrite(
        self, payloads: Sequence[Mapping[str, Any]], guild_id: int | None
    ) -> list[dict[str, Any]]:
        """`PUT .../commands`: the list replaces whatever was there."""
        if not isinstance(payloads, list):
            raise invalid_form_body(
                {"_errors": [{"code": "LIST_TYPE", "message": "Must be a list"}]}
            )
        problems: dict[str, Any] = {}
        for index, payload in enumerate(payloads):
            problems.update(_command_problems(index, payload))
        if len(payloads) > MAX_COMMANDS:
            problems["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too many commands"}]
        names = [(p.get("name"), p.get("type", CHAT_INPUT)) for p in payloads]
        if len(set(names)) != len(names):
            problems["_errors"] = [
                {
                    "code": "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "message": "Duplicate command names",
                }
            ]
        if problems:
            raise invalid_form_body(problems)
        scope = self._scope(guild_id)
        fresh = {
            str(p["name"]): self._stored(p, guild_id, scope.get(str(p["name"]))) for p in payloads
        }
        scope.clear()
        scope.update(fresh)
        self.sync_count += 1
        return list(fresh.values())

    def upsert(self, payload: Mapping[str, Any], guild_id: int | None) -> dict[str, Any]:
        """`POST .../commands`: create or replace one command by name."""
        problems = _command_problems(0, payload)
        if problems:
            raise invalid_form_body(problems)
        scope = self._scope(guild_id)
        name = str(payload["name"])
        scope[name] = self._stored(payload, guild_id, scope.get(name))
        return scope[name]

    def listed(self, guild_id: int | None) -> list[dict[str, Any]]:
        return list(self._scope(guild_id).values())

    def find(self, name: str, *, guild_id: int | None) -> dict[str, Any]:
        """The command a user picks from the client's list; guild commands shadow global ones."""
        if guild_id is not None:
            command = self.guild_commands.get(guild_id, {}).get(name)
            if command is not None:
                return command
        command = self.global_commands.get(name)
        if command is None:
            where = "this guild" if guild_id is not None else "DMs"
            raise ImpossibleUserAction(f"no command /{name} is synced for {where}")
        if guild_id is None and not _usable_in_dms(command):
            raise ImpossibleUserAction(f"/{name} cannot be used in DMs")
        return command


def _usable_in_dms(command: Mapping[str, Any]) -> bool:
    contexts = command.get("contexts")
    if contexts is not None:
        return BOT_DM_CONTEXT in contexts
    return command.get("dm_permission") is not False


def check_guild_access(world: World, guild_id: int) -> None:
    if guild_id != world.guild.id:
        raise DiscordError(403, MISSING_ACCESS, "Missing Access")


class CommandInvocation:
    """Turns `/hanamikoji challenge opponent:@ben` into interaction data with `resolved`."""

    def __init__(self, world: World, *, in_guild: bool) -> None:
        self._world = world
        self._in_guild = in_guild
        self.resolved: dict[str, dict[str, Any]] = {}

    def data(
        self, command: Mapping[str, Any], path: Sequence[str], values: Mapping[str, OptionValue]
    ) -> dict[str, Any]:
        options = self._walk(command, list(path), values, f"/{command['name']}")
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": CHAT_INPUT,
            "options": options,
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if self.resolved:
            data["resolved"] = self.resolved
        return data

    def _walk(
        self,
        node: Mapping[str, Any],
        path: list[str],
        values: Mapping[str, OptionValue],
        shown: str,
    ) -> list[dict[str, Any]]:
        declared: list[Mapping[str, Any]] = list(node.get("options") or [])
        nested = [o for o in declared if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if nested:
            if not path:
                names = ", ".join(str(o["name"]) for o in nested)
                raise ImpossibleUserAction(f"{shown} needs a subcommand: one of {names}")
            word = path.pop(0)
            chosen = next((o for o in nested if o["name"] == word), None)
            if chosen is None:
                raise ImpossibleUserAction(f"{shown} has no subcommand {word!r}")
            inner = self._walk(chosen, path, values, f"{shown} {word}")
            return [{"name": word, "type": chosen["type"], "options": inner}]
        if path:
            raise ImpossibleUserAction(f"{shown} has no subcommand {path[0]!r}")
        return self._leaf_options(declared, values, shown)

    def _leaf_options(
        self,
        declared: Sequence[Mapping[str, Any]],
        values: Mapping[str, OptionValue],
        shown: str,
    ) -> list[dict[str, Any]]:
        by_name = {str(o["name"]): o for o in declared}
        unknown = sorted(set(values) - set(by_name))
        if unknown:
            raise ImpossibleUserAction(f"{shown} has no option(s) {', '.join(unknown)}")
        missing = [n for n, o in by_name.items() if o.get("required") and n not in values]
        if missing:
            raise ImpossibleUserAction(f"{shown} requires option(s) {', '.join(missing)}")
        return [
            {
                "name": name,
                "type": by_name[name]["type"],
                "value": self._value(by_name[name], value, shown),
            }
            for name, value in values.items()
        ]

    def _value(self, option: Mapping[str, Any], value: OptionValue, shown: str) -> Any:
        kind = option["type"]
        name = option["name"]
        if kind in (USER, MENTIONABLE):
            return self._resolve_user(_id_of(value, f"{shown} {name}"))
        if kind == CHANNEL:
            return self._resolve_channel(_id_of(value, f"{shown} {name}"))
        if kind == BOOLEAN:
            if not isinstance(value, bool):
                raise ImpossibleUserAction(f"{shown} {name} takes true or false, not {value!r}")
            return value
        if kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ImpossibleUserAction(f"{shown} {name} takes a number, not {value!r}")
            if kind == INTEGER and value != int(value):
                raise ImpossibleUserAction(f"{shown} {name} takes a whole number, not {value!r}")
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ImpossibleUserAction(f"{shown} {name} must lie in [{low}, {high}]")
            value = int(value) if kind == INTEGER else float(value)
        elif kind == STRING:
            if not isinstance(value, str):
                raise ImpossibleUserAction(f"{shown} {name} takes text, not {value!r}")
            low, high = option.get("min_length", 0), option.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ImpossibleUserAction(f"{shown} {name} must be {low}-{high} characters")
        else:
            raise ImpossibleUserAction(f"option type {kind} of {shown} {name} is not emulated")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ImpossibleUserAction(f"{shown} {name} must be one of the choices, not {value!r}")
        return value

    def _resolve_user(self, user_id: int) -> str:
        world = self._world
        user = world.users.get(user_id)
        if user is None:
            raise ImpossibleUserAction(f"no user {user_id} to pick")
        self.resolved.setdefault("users", {})[str(user_id)] = user_payload(user)
        if self._in_guild and world.is_member(user_id):
            self.resolved.setdefault("members", {})[str(user_id)] = member_payload(
                world, user, with_user=False
            )
        return str(user_id)

    def _resolve_channel(self, channel_id: int) -> str:
        channel: ChannelRecord | None = self._world.channels.get(channel_id)
        if channel is None or channel.guild_id is None:
            raise ImpossibleUserAction(f"no guild channel {channel_id} to pick")
        entry: dict[str, Any] = {
            "id": str(channel.id),
            "name": channel.name,
            "type": int(channel.type),
            "permissions": "0",
            "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        }
        if channel.is_thread:
            entry["thread_metadata"] = {
                "archived": channel.archived,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": channel.created_at,
                "locked": channel.locked,
            }
        self.resolved.setdefault("channels", {})[str(channel.id)] = entry
        return str(channel.id)


def _id_of(value: OptionValue, shown: str) -> int:
    if isinstance(value, bool | float | str):
        raise ImpossibleUserAction(f"{shown} takes a user or channel, not {value!r}")
    return value if isinstance(value, int) else int(value.id)
