"""Buttons, selects and action rows as Discord's Component Reference allows them, in legacy
messages and in components V2 layouts alike (docs.discord.com/developers/components/reference)."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from tests.discord_emulator.form_errors import (
    Path,
    Problem,
    bad_length,
    not_in_enum,
    out_of_range,
    required,
    too_long,
    too_many,
)

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
AUTO_SELECTS = frozenset({5, 6, 7, 8})  # user, role, mentionable, channel selects
LABEL = 18
LINK_STYLE = 5
PREMIUM_STYLE = 6
BUTTON_STYLES = range(1, 7)  # primary, secondary, success, danger, link, premium

MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_OPTION_TEXT = 100
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_VALUES = 25

# What Discord answers for an emoji it cannot show on a component, buttons and select
# options alike (discord-api-docs issues 7128 and 8071; bwmarrin/discordgo issue 1479).
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")


def is_select(component: dict[str, Any]) -> bool:
    return component.get("type") == STRING_SELECT or component.get("type") in AUTO_SELECTS


def custom_id_problems(path: Path, component: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    """1-100 characters, unique in the message ("Custom ID")."""
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        yield required((*path, "custom_id"))
        return
    yield from too_long((*path, "custom_id"), custom_id, MAX_CUSTOM_ID)
    if custom_id in seen:
        yield (
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)


def emoji_problems(
    path: Path, emoji: Any, known_emoji_ids: Collection[int] | None
) -> Iterator[Problem]:
    """A custom emoji must be one the app can use (here: its application emojis); one
    without an id must be a Unicode emoji, which never is plain ASCII like "card_a".
    `known_emoji_ids` None skips the custom emoji check."""
    if not isinstance(emoji, dict):
        return
    raw_id = emoji.get("id")
    if raw_id is not None:
        try:
            emoji_id = int(raw_id)
        except (TypeError, ValueError):
            yield (*path, "id"), "NUMBER_TYPE_COERCE", f"Value {raw_id!r} is not snowflake."
            return
        if known_emoji_ids is not None and emoji_id not in known_emoji_ids:
            yield ((*path, "id"), *INVALID_EMOJI)
        return
    name = emoji.get("name")
    if not isinstance(name, str) or not name or name.isascii():
        yield ((*path, "name"), *INVALID_EMOJI)


def button_problems(
    path: Path, button: dict[str, Any], seen: set[str], known_emoji_ids: Collection[int] | None
) -> Iterator[Problem]:
    yield from too_long((*path, "label"), button.get("label"), MAX_BUTTON_LABEL)
    style = button.get("style")
    if style not in BUTTON_STYLES:
        yield not_in_enum((*path, "style"), style)
    if style == LINK_STYLE:
        if not button.get("url"):
            yield required((*path, "url"))
    elif style != PREMIUM_STYLE:
        yield from custom_id_problems(path, button, seen)
    # Link buttons carry only a url, the others only a custom_id (premium ones neither).
    if style in (LINK_STYLE, PREMIUM_STYLE) and button.get("custom_id"):
        yield (
            (*path, "custom_id"),
            "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
            "A link or premium button cannot have a custom_id",
        )
    if style != LINK_STYLE and button.get("url"):
        yield (*path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only a link button has a url"
    if not button.get("label") and not button.get("emoji") and style != PREMIUM_STYLE:
        yield (*path, "label"), "BASE_TYPE_REQUIRED", "A button needs a label or an emoji"
    yield from emoji_problems((*path, "emoji"), button.get("emoji"), known_emoji_ids)


def select_problems(
    path: Path, select: dict[str, Any], seen: set[str], known_emoji_ids: Collection[int] | None
) -> Iterator[Problem]:
    yield from custom_id_problems(path, select, seen)
    yield from too_long((*path, "placeholder"), select.get("placeholder"), MAX_SELECT_PLACEHOLDER)
    min_values, max_values = select.get("min_values", 1), select.get("max_values", 1)
    yield from out_of_range((*path, "min_values"), min_values, 0, MAX_SELECT_VALUES)
    yield from out_of_range((*path, "max_values"), max_values, 1, MAX_SELECT_VALUES)
    if isinstance(min_values, int) and isinstance(max_values, int) and min_values > max_values:
        yield (
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
            f"min_values ({min_values}) must be less than or equal to max_values ({max_values})",
        )
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    if not options:
        yield (*path, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
    yield from too_many((*path, "options"), options, MAX_SELECT_OPTIONS)
    for index, option in enumerate(options):
        at = (*path, "options", index)
        for key in ("label", "value"):
            if not isinstance(option.get(key), str) or not option[key]:
                yield bad_length((*at, key), 1, MAX_SELECT_OPTION_TEXT)
        for key in ("label", "value", "description"):
            yield from too_long((*at, key), option.get(key), MAX_SELECT_OPTION_TEXT)
        yield from emoji_problems((*at, "emoji"), option.get("emoji"), known_emoji_ids)
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        yield (*path, "options"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate values"
    if isinstance(max_values, int) and max_values > len(options):
        yield (
            (*path, "max_values"),
            "BASE_TYPE_MAX",
            f"int value should be less than or equal to {len(options)}.",
        )


def action_row_problems(
    at: Path, row: dict[str, Any], seen: set[str], known_emoji_ids: Collection[int] | None
) -> Iterator[Problem]:
    """An action row holds "up to 5 contextually grouped buttons" or "a single select
    component" ("Action Row")."""
    children = row.get("components") or []
    if not children:
        yield (*at, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
    kinds = {child.get("type") for child in children}
    if kinds == {BUTTON}:
        yield from too_many((*at, "components"), children, MAX_BUTTONS_PER_ROW)
    elif children and len(children) > 1:
        yield (
            (*at, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_at = (*at, "components", index)
        if child.get("type") == BUTTON:
            yield from button_problems(child_at, child, seen, known_emoji_ids)
        elif is_select(child):
            yield from select_problems(child_at, child, seen, known_emoji_ids)
        else:
            yield (*child_at, "type"), "UNION_TYPE_CHOICES", "Not allowed in a message"
