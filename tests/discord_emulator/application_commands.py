"""Application commands: what the bot synced, and the data of a user's invocation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from tests.discord_emulator.errors import (
    MISSING_ACCESS,
    DiscordError,
    ImpossibleUserAction,
    invalid_form_body,
)
from tests.discord_emulator.limits import Path, Problem, refuse
from tests.discord_emulator.payloads import member_payload, user_payload
from tests.discord_emulator.snowflakes import SnowflakeFactory
from tests.discord_emulator.world import ChannelRecord, World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
CHAT_INPUT = 1
MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_COMMAND_SIZE = 8000
NESTING = (SUB_COMMAND, SUB_COMMAND_GROUP)

# "Application Command Naming": ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase
# where a letter has a lowercase form. `\w` stands in for \p{L}\p{N}; the two script blocks
# add their vowel signs, which are marks rather than letters.
_NAME = re.compile(r"^[-_'\w\u0900-\u097f\ua8e0-\ua8ff\u0e00-\u0e7f]{1,32}$")
# "Locales" (reference): the only keys a localisation dictionary may have.
LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
CONTEXTS = (GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT)
GUILD_INSTALL, USER_INSTALL = 0, 1
INTEGRATION_TYPES = (GUILD_INSTALL, USER_INSTALL)
# "Installation Context" (resources/application): an app is installable to servers, to
# users, or both; a new application has both on ("Installation" settings of the portal).
NEW_APPLICATION_INSTALLS = frozenset(INTEGRATION_TYPES)


class HasId(Protocol):
    @property
    def id(self) -> int: ...


OptionValue = str | int | float | bool | HasId


TextCheck = Callable[[Path, Any], Iterator[Problem]]


def _chat_name(path: Path, value: Any) -> Iterator[Problem]:
    if not isinstance(value, str) or not _NAME.match(value) or value != value.lower():
        yield path, "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {value!r}"


def _length(low: int, high: int) -> TextCheck:
    def check(path: Path, value: Any) -> Iterator[Problem]:
        if not isinstance(value, str) or not low <= len(value) <= high:
            yield path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."

    return check


def _text_problems(
    at: Path, entry: Mapping[str, Any], field: str, check: TextCheck
) -> Iterator[Problem]:
    """A name or description and each of its localisations, which follow the same rule."""
    yield from check((*at, field), entry.get(field))
    for locale, value in (entry.get(f"{field}_localizations") or {}).items():
        here = (*at, f"{field}_localizations", locale)
        if locale not in LOCALES:
            yield here, "ENUM_TYPE_COERCE", f"Value {locale!r} is not a valid enum value."
        elif value is not None:
            yield from check(here, value)


def _enum_list_problems(path: Path, values: Any, allowed: Sequence[int]) -> Iterator[Problem]:
    for index, value in enumerate(values or []):
        if value not in allowed:
            yield (*path, index), "ENUM_TYPE_COERCE", f"Value {value!r} is not a valid enum value."


def _longest(entry: Mapping[str, Any], field: str) -> int:
    texts = [entry.get(field), *(entry.get(f"{field}_localizations") or {}).values()]
    return max(len(str(text or "")) for text in texts)


def command_size(node: Mapping[str, Any]) -> int:
    """What counts towards a slash command's 8000 characters: every name, description and
    choice value, each field at its longest localisation."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(command_size(option) for option in node.get("options") or [])


def command_problems(command: Mapping[str, Any]) -> Iterator[Problem]:
    """Everything Discord refuses in one command of a sync, with its path in the body."""
    kind = command.get("type", CHAT_INPUT)
    if kind == CHAT_INPUT:
        yield from _text_problems((), command, "name", _chat_name)
        yield from _text_problems((), command, "description", _length(1, MAX_DESCRIPTION))
        yield from _options_problems((), command.get("options") or [], inside=None)
        if command_size(command) > MAX_COMMAND_SIZE:
            yield (
                (),
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
            )
    else:  # user and message commands: mixed case and spaces allowed
        yield from _text_problems((), command, "name", _length(1, MAX_NAME))
    yield from _enum_list_problems(("contexts",), command.get("contexts"), CONTEXTS)
    yield from _enum_list_problems(
        ("integration_types",), command.get("integration_types"), INTEGRATION_TYPES
    )


def _localized_name_clashes(at: Path, options: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    """A localised option name must differ from the other options' names, default or in
    that locale."""
    for index, option in enumerate(options):
        others = [o for o in options if o is not option]
        for locale, name in (option.get("name_localizations") or {}).items():
            taken = {o.get("name") for o in others}
            taken |= {(o.get("name_localizations") or {}).get(locale) for o in others}
            if name is not None and name in taken:
                yield (
                    (*at, index, "name_localizations", locale),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    f"Option name {name!r} is already used",
                )


def _options_problems(
    at: Path, options: Sequence[Mapping[str, Any]], *, inside: int | None
) -> Iterator[Problem]:
    """One level of options: in a command, in a subcommand group, or in a subcommand."""
    here_at = (*at, "options")
    if len(options) > MAX_OPTIONS:
        yield here_at, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."
    nested = [option.get("type") in NESTING for option in options]
    if inside is None and any(nested) and not all(nested):
        yield (
            here_at,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Subcommands and subcommand groups cannot sit beside other options",
        )
    names = [option.get("name") for option in options]
    for index, name in enumerate(names):
        if name in names[:index]:
            yield (
                (*here_at, index, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                f"Option name {name!r} is already used",
            )
    yield from _localized_name_clashes(here_at, options)
    seen_optional = False
    for index, option in enumerate(options):
        here = (*here_at, index)
        kind = option.get("type")
        yield from _text_problems(here, option, "name", _chat_name)
        yield from _text_problems(here, option, "description", _length(1, MAX_DESCRIPTION))
        misplaced = (inside == SUB_COMMAND_GROUP and kind != SUB_COMMAND) or (
            inside == SUB_COMMAND and kind in NESTING
        )
        if misplaced:
            yield (
                (*here, "type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Only a command may hold subcommand groups, and only a group subcommands",
            )
        if kind in NESTING:
            yield from _options_problems(here, option.get("options") or [], inside=kind)
            continue
        yield from _choice_problems(here, option.get("choices") or [])
        if option.get("required"):
            if seen_optional:
                yield (
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True


def _choice_problems(at: Path, choices: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    if len(choices) > MAX_CHOICES:
        yield (*at, "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length."
    for index, choice in enumerate(choices):
        here = (*at, "choices", index)
        yield from _text_problems(here, choice, "name", _length(1, MAX_CHOICE_NAME))
        value = choice.get("value")
        if value is None:
            yield (*here, "value"), "BASE_TYPE_REQUIRED", "This field is required"
        elif isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
            yield (
                (*here, "value"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICE_VALUE} or fewer in length.",
            )


class CommandRegistry:
    """Global and guild commands as Discord stores them after a sync."""

    def __init__(self, ids: SnowflakeFactory, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.sync_count = 0
        self.application_installs = NEW_APPLICATION_INSTALLS
        """The installation contexts set on the application, which a global command without
        `integration_types` gets ("Defaults to your app's configured contexts",
        interactions/application-commands, Application Command Object)."""
        self.user_installs: set[int] = set()
        """Users who added the app to their account (a user install)."""

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
        problems: list[Problem] = [
            ((index, *path), code, message)
            for index, payload in enumerate(payloads)
            for path, code, message in command_problems(payload)
        ]
        if len(payloads) > MAX_COMMANDS:
            problems.append(((), "BASE_TYPE_MAX_LENGTH", "Too many commands"))
        names = [(p.get("name"), p.get("type", CHAT_INPUT)) for p in payloads]
        if len(set(names)) != len(names):
            problems.append(((), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate command names"))
        refuse(problems)
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
        refuse(list(command_problems(payload)))
        scope = self._scope(guild_id)
        name = str(payload["name"])
        scope[name] = self._stored(payload, guild_id, scope.get(name))
        return scope[name]

    def listed(self, guild_id: int | None) -> list[dict[str, Any]]:
        return list(self._scope(guild_id).values())

    def installed_by(self, user_id: int | None) -> bool:
        """Whether this user added the app to their account, and the app allows that."""
        return user_id in self.user_installs and USER_INSTALL in self.application_installs

    def find(
        self,
        name: str,
        *,
        guild_id: int | None,
        user_id: int | None = None,
        context: int | None = None,
        bot_present: bool = True,
    ) -> dict[str, Any]:
        """The command a user picks from the client's list: where the bot is (a guild of
        the bot's, where guild commands shadow global ones, or its DMs), or else through
        the user's own install (a private channel, or a server without the bot). `context`
        defaults to GUILD with a guild, BOT_DM without."""
        if context is None:
            context = BOT_DM_CONTEXT if guild_id is None else GUILD_CONTEXT
        if context == PRIVATE_CHANNEL_CONTEXT or not bot_present:
            return self._through_user_install(name, context=context, user_id=user_id)
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
        contexts = command.get("contexts")
        if guild_id is not None and contexts is not None and GUILD_CONTEXT not in contexts:
            raise ImpossibleUserAction(f"/{name} cannot be used in a guild")
        installs = self.installs_of(command)
        through_user = USER_INSTALL in installs and self.installed_by(user_id)
        if GUILD_INSTALL not in installs and not through_user:
            raise ImpossibleUserAction(f"/{name} is only for users who installed the app")
        return command

    def _through_user_install(
        self, name: str, *, context: int, user_id: int | None
    ) -> dict[str, Any]:
        """Where the bot is not, only the user's own install offers commands: global ones
        with USER_INSTALL in their `integration_types` and the context in their `contexts`
        (interactions/application-commands, "Contexts"). PRIVATE_CHANNEL must be listed
        explicitly: the docs give a global command no default `contexts`, and Discord has
        offered none there for commands without them (discord-api-docs issue 7108)."""
        private = context == PRIVATE_CHANNEL_CONTEXT
        where = "a DM between users or a group DM" if private else "a server without the bot"
        if not self.installed_by(user_id):
            raise ImpossibleUserAction(
                f"/{name} in {where}: only a user install offers commands there, and this "
                "user has not installed the app (`user.install_app()`)"
            )
        command = self.global_commands.get(name)
        if command is None or USER_INSTALL not in self.installs_of(command):
            raise ImpossibleUserAction(f"/{name} has no user install: not offered in {where}")
        contexts = command.get("contexts")
        if private and (contexts is None or PRIVATE_CHANNEL_CONTEXT not in contexts):
            raise ImpossibleUserAction(
                f"/{name} cannot be used in private channels: its contexts leave out 2"
            )
        if not private and contexts is not None and GUILD_CONTEXT not in contexts:
            raise ImpossibleUserAction(f"/{name} cannot be used in a guild")
        return command

    def installs_of(self, command: Mapping[str, Any]) -> frozenset[int]:
        """The installation contexts a command is available in: a guild command's is the
        guild's install only ("only for globally-scoped commands"; the guild bulk overwrite
        defaults `integration_types` to GUILD_INSTALL)."""
        if "guild_id" in command:
            return frozenset({GUILD_INSTALL})
        types = command.get("integration_types")
        return self.application_installs if types is None else frozenset(types)

    def owners_for(
        self,
        command: Mapping[str, Any],
        *,
        context: int,
        guild_id: int | None,
        bot_present: bool,
        user_id: int,
    ) -> dict[str, str]:
        """`authorizing_integration_owners` of an invocation ("Authorizing Integration Owners
        Object"): a key for each installation the app has there, that supports the context
        and that the command's `integration_types` include; "0" is the guild id in a server
        and "0" in the bot's DMs, "1" the id of the user who installed the app."""
        installs = self.installs_of(command)
        owners: dict[str, str] = {}
        if GUILD_INSTALL in installs and bot_present and context != PRIVATE_CHANNEL_CONTEXT:
            owners[str(GUILD_INSTALL)] = "0" if context == BOT_DM_CONTEXT else str(guild_id)
        if USER_INSTALL in installs and self.installed_by(user_id):
            owners[str(USER_INSTALL)] = str(user_id)
        return owners

    def offered_where_the_bot_is_not(self, user_id: int) -> list[str]:
        """The global commands the client lists for this user in a server the bot is not
        in: those of a user install ("User-installed apps ... can be used in all servers",
        Change Log, June 27 2024), whose contexts allow servers. A guild install offers
        nothing there, and guild commands belong to their own guild."""
        offered = []
        for name in self.global_commands:
            try:
                self._through_user_install(name, context=GUILD_CONTEXT, user_id=user_id)
            except ImpossibleUserAction:
                continue
            offered.append(name)
        return offered


def _usable_in_dms(command: Mapping[str, Any]) -> bool:
    """The client offers a global command in the bot's DMs unless its `contexts` leave out
    BOT_DM or, with no `contexts`, the legacy `dm_permission` is false."""
    contexts = command.get("contexts")
    if contexts is not None:
        return BOT_DM_CONTEXT in contexts
    return command.get("dm_permission") is not False


def check_guild_access(world: World, guild_id: int) -> None:
    if not world.bot_is_in(guild_id):  # unknown, or it removed the bot
        raise DiscordError(403, MISSING_ACCESS, "Missing Access")


class CommandInvocation:
    """Turns `/hanamikoji challenge opponent:@ben` into interaction data with `resolved`."""

    def __init__(self, world: World, *, guild_id: int | None) -> None:
        self._world = world
        self._guild_id = guild_id
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
        guild_id = self._guild_id
        if guild_id is not None and world.is_member(user_id, guild_id):
            self.resolved.setdefault("members", {})[str(user_id)] = member_payload(
                world, user, with_user=False, guild_id=guild_id
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
