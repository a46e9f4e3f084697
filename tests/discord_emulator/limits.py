"""Discord's size and shape limits on messages, components and modals.

Each check yields `(path, code, message)`; `check_message` and `check_modal` turn them
into the nested `errors` object of a 400 "Invalid Form Body" (code 50035), the way
Discord reports them, so discord.py shows the same text as in production.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from tests.discord_emulator.errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    DiscordError,
    invalid_form_body,
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_EMBED_FIELD_NAME = 256
MAX_EMBED_FIELD_VALUE = 1024
MAX_EMBED_FOOTER = 2048
MAX_EMBED_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_OPTION_TEXT = 100
MAX_SELECT_PLACEHOLDER = 150
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_VALUE = 4000
MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_DESCRIPTION = 1024
MAX_EMBED_COLOR = 0xFFFFFF
MAX_SELECT_VALUES = 25
MAX_ALLOWED_MENTION_IDS = 100
MENTION_TYPES = ("roles", "users", "everyone")
ATTACHMENT_SCHEME = "attachment://"

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
ACTION_ROW = 1
LABEL = 18
AUTO_SELECTS = frozenset({5, 6, 7, 8})  # user, role, mentionable, channel selects
LINK_STYLE = 5
PREMIUM_STYLE = 6
BUTTON_STYLES = range(1, 7)  # primary, secondary, success, danger, link, premium

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]


def _too_long(path: Path, value: Any, limit: int) -> Iterator[Problem]:
    if isinstance(value, str) and len(value) > limit:
        yield path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def _too_many(path: Path, items: Sequence[Any], limit: int) -> Iterator[Problem]:
    if len(items) > limit:
        yield path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def _not_in_enum(path: Path, value: Any) -> Problem:
    return path, "ENUM_TYPE_COERCE", f"Value {value!r} is not a valid enum value."


def _out_of_range(path: Path, value: Any, low: int, high: int) -> Iterator[Problem]:
    if not isinstance(value, int) or isinstance(value, bool):
        yield path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not int."
    elif value < low:
        yield path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
    elif value > high:
        yield path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}."


def _nest(problems: list[Problem]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path, code, message in problems:
        node = root
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return root


def refuse(problems: Sequence[Problem]) -> None:
    """Raise Discord's 400 "Invalid Form Body" with the nested `errors` tree, if any."""
    if problems:
        raise invalid_form_body(_nest(list(problems)))


def embed_text_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6000 total of a message's embeds."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def embed_problems(embeds: Sequence[dict[str, Any]]) -> Iterator[Problem]:
    yield from _too_many(("embeds",), embeds, MAX_EMBEDS)
    for index, embed in enumerate(embeds):
        at: Path = ("embeds", index)
        if embed.get("color") is not None:
            yield from _out_of_range((*at, "color"), embed["color"], 0, MAX_EMBED_COLOR)
        yield from _too_long((*at, "title"), embed.get("title"), MAX_EMBED_TITLE)
        yield from _too_long((*at, "description"), embed.get("description"), MAX_EMBED_DESCRIPTION)
        footer = embed.get("footer") or {}
        yield from _too_long((*at, "footer", "text"), footer.get("text"), MAX_EMBED_FOOTER)
        author = embed.get("author") or {}
        yield from _too_long((*at, "author", "name"), author.get("name"), MAX_EMBED_AUTHOR)
        fields = embed.get("fields") or []
        yield from _too_many((*at, "fields"), fields, MAX_EMBED_FIELDS)
        for field_index, field in enumerate(fields):
            field_at = (*at, "fields", field_index)
            yield from _too_long((*field_at, "name"), field.get("name"), MAX_EMBED_FIELD_NAME)
            yield from _too_long((*field_at, "value"), field.get("value"), MAX_EMBED_FIELD_VALUE)
            if not field.get("name") or not field.get("value"):
                yield field_at, "BASE_TYPE_REQUIRED", "This field is required"
    if sum(embed_text_length(embed) for embed in embeds) > MAX_EMBED_TOTAL:
        yield (
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def attachment_reference_problems(
    embeds: Sequence[dict[str, Any]], attachment_names: Collection[str]
) -> Iterator[Problem]:
    """`attachment://name` in an embed must name a file of the message."""
    for index, embed in enumerate(embeds):
        for part, key in (
            ("image", "url"),
            ("thumbnail", "url"),
            ("author", "icon_url"),
            ("footer", "icon_url"),
        ):
            url = (embed.get(part) or {}).get(key)
            if not isinstance(url, str) or not url.startswith(ATTACHMENT_SCHEME):
                continue
            name = url.removeprefix(ATTACHMENT_SCHEME)
            if name not in attachment_names:
                yield (
                    ("embeds", index, part, key),
                    "ATTACHMENT_NOT_FOUND",
                    f"{url} names no attachment of this message",
                )


def _custom_id_problems(path: Path, component: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        yield (*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"
        return
    yield from _too_long((*path, "custom_id"), custom_id, MAX_CUSTOM_ID)
    if custom_id in seen:
        yield (
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)


def _button_problems(path: Path, button: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    yield from _too_long((*path, "label"), button.get("label"), MAX_BUTTON_LABEL)
    style = button.get("style")
    if style not in BUTTON_STYLES:
        yield _not_in_enum((*path, "style"), style)
    if style == LINK_STYLE:
        if not button.get("url"):
            yield (*path, "url"), "BASE_TYPE_REQUIRED", "This field is required"
    elif style != PREMIUM_STYLE:
        yield from _custom_id_problems(path, button, seen)
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


def _select_problems(path: Path, select: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    yield from _custom_id_problems(path, select, seen)
    yield from _too_long((*path, "placeholder"), select.get("placeholder"), MAX_SELECT_PLACEHOLDER)
    min_values, max_values = select.get("min_values", 1), select.get("max_values", 1)
    yield from _out_of_range((*path, "min_values"), min_values, 0, MAX_SELECT_VALUES)
    yield from _out_of_range((*path, "max_values"), max_values, 1, MAX_SELECT_VALUES)
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
    yield from _too_many((*path, "options"), options, MAX_SELECT_OPTIONS)
    for index, option in enumerate(options):
        at = (*path, "options", index)
        for key in ("label", "value"):
            if not isinstance(option.get(key), str) or not option[key]:
                yield (
                    (*at, key),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTION_TEXT} in length.",
                )
        for key in ("label", "value", "description"):
            yield from _too_long((*at, key), option.get(key), MAX_SELECT_OPTION_TEXT)
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        yield (*path, "options"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Duplicate values"
    if isinstance(max_values, int) and max_values > len(options):
        yield (
            (*path, "max_values"),
            "BASE_TYPE_MAX",
            f"int value should be less than or equal to {len(options)}.",
        )


def _nested_problems(path: Path, component: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    """Components V2 layouts: only ids and the interactive parts are checked."""
    kind = component.get("type")
    if kind == BUTTON:
        yield from _button_problems(path, component, seen)
    elif kind == STRING_SELECT or kind in AUTO_SELECTS:
        yield from _select_problems(path, component, seen)
    for index, child in enumerate(component.get("components") or []):
        yield from _nested_problems((*path, "components", index), child, seen)
    accessory = component.get("accessory")
    if isinstance(accessory, dict):
        yield from _nested_problems((*path, "accessory"), accessory, seen)


def component_problems(components: Sequence[dict[str, Any]], *, flags: int) -> Iterator[Problem]:
    seen: set[str] = set()
    if flags & MESSAGE_FLAG_COMPONENTS_V2:
        for index, component in enumerate(components):
            yield from _nested_problems(("components", index), component, seen)
        return
    yield from _too_many(("components",), components, MAX_ACTION_ROWS)
    for row_index, row in enumerate(components):
        at: Path = ("components", row_index)
        if row.get("type") != ACTION_ROW:
            yield (
                (*at, "type"),
                "UNION_TYPE_CHOICES",
                "Top-level components must be action rows",
            )
            continue
        children = row.get("components") or []
        if not children:
            yield (*at, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
        kinds = {child.get("type") for child in children}
        if kinds == {BUTTON}:
            yield from _too_many((*at, "components"), children, MAX_BUTTONS_PER_ROW)
        elif children and len(children) > 1:
            yield (
                (*at, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for index, child in enumerate(children):
            child_at = (*at, "components", index)
            if child.get("type") == BUTTON:
                yield from _button_problems(child_at, child, seen)
            elif child.get("type") == STRING_SELECT or child.get("type") in AUTO_SELECTS:
                yield from _select_problems(child_at, child, seen)
            else:
                yield (*child_at, "type"), "UNION_TYPE_CHOICES", "Not allowed in a message"


def allowed_mentions_problems(allowed: Any) -> Iterator[Problem]:
    """`parse` excludes an explicit id list of the same kind; at most 100 ids of each."""
    if not isinstance(allowed, dict):
        return
    at: Path = ("allowed_mentions",)
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            yield _not_in_enum((*at, "parse", index), kind)
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        yield from _too_many((*at, kind), ids, MAX_ALLOWED_MENTION_IDS)
        if ids and kind in parse:
            yield (
                at,
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


def flag_problems(flags: Any, allowed_flags: int) -> Iterator[Problem]:
    if not isinstance(flags, int) or isinstance(flags, bool):
        yield ("flags",), "NUMBER_TYPE_COERCE", f"Value {flags!r} is not int."
    elif flags & ~allowed_flags:
        yield (
            ("flags",),
            "MESSAGE_FLAGS_INVALID",
            f"Flags {flags & ~allowed_flags:#x} cannot be set here (only {allowed_flags:#x})",
        )


def message_problems(
    payload: dict[str, Any],
    *,
    attachment_count: int,
    allowed_flags: int | None = None,
    attachment_names: Collection[str] | None = None,
) -> Iterator[Problem]:
    """`allowed_flags` None skips the flag check (edits ignore unsupported bits);
    `attachment_names` None skips the `attachment://` check (embeds not sent now)."""
    if allowed_flags is not None and payload.get("flags") is not None:
        yield from flag_problems(payload["flags"], allowed_flags)
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if not flags & MESSAGE_FLAG_COMPONENTS_V2:
        yield from _too_long(("content",), content, MAX_CONTENT)
    else:
        for key in ("content", "embeds", "sticker_ids", "poll"):
            if payload.get(key):
                yield (
                    (key,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "A components V2 message can only contain components",
                )
    yield from embed_problems(payload.get("embeds") or [])
    if attachment_names is not None:
        yield from attachment_reference_problems(payload.get("embeds") or [], attachment_names)
    yield from allowed_mentions_problems(payload.get("allowed_mentions"))
    yield from component_problems(payload.get("components") or [], flags=flags)
    if attachment_count > MAX_ATTACHMENTS:
        yield ("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer."
    for index, attachment in enumerate(payload.get("attachments") or []):
        if isinstance(attachment, dict):
            yield from _too_long(
                ("attachments", index, "description"),
                attachment.get("description"),
                MAX_ATTACHMENT_DESCRIPTION,
            )


def check_message(
    payload: dict[str, Any],
    *,
    attachment_count: int,
    require_body: bool,
    prefix: Path = (),
    allowed_flags: int | None = None,
    attachment_names: Collection[str] | None = None,
) -> None:
    """Raise the 400 Discord would send for this message body, if any."""
    found = message_problems(
        payload,
        attachment_count=attachment_count,
        allowed_flags=allowed_flags,
        attachment_names=attachment_names,
    )
    refuse([((*prefix, *path), code, message) for path, code, message in found])
    has_body = bool(
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or attachment_count
    )
    if require_body and not has_body:
        raise DiscordError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def _modal_component_problems(
    path: Path, component: dict[str, Any], seen: set[str]
) -> Iterator[Problem]:
    kind = component.get("type")
    if kind == ACTION_ROW:
        for index, child in enumerate(component.get("components") or []):
            yield from _modal_component_problems((*path, "components", index), child, seen)
    elif kind == LABEL:
        yield from _too_long((*path, "label"), component.get("label"), MAX_TEXT_INPUT_LABEL)
        inner = component.get("component")
        if isinstance(inner, dict):
            yield from _modal_component_problems((*path, "component"), inner, seen)
    elif kind == TEXT_INPUT:
        yield from _custom_id_problems(path, component, seen)
        yield from _too_long((*path, "label"), component.get("label"), MAX_TEXT_INPUT_LABEL)
        yield from _too_long((*path, "value"), component.get("value"), MAX_TEXT_INPUT_VALUE)
        yield from _too_long((*path, "placeholder"), component.get("placeholder"), 100)
    elif kind == STRING_SELECT or kind in AUTO_SELECTS:
        yield from _select_problems(path, component, seen)


def check_modal(data: dict[str, Any], *, prefix: Path = ()) -> None:
    """Raise the 400 Discord would send for this modal, if any."""
    problems: list[Problem] = []
    title = data.get("title")
    if not title:
        problems.append((("title",), "BASE_TYPE_REQUIRED", "This field is required"))
    problems.extend(_too_long(("title",), title, MAX_MODAL_TITLE))
    if not data.get("custom_id"):
        problems.append((("custom_id",), "BASE_TYPE_REQUIRED", "This field is required"))
    problems.extend(_too_long(("custom_id",), data.get("custom_id"), MAX_CUSTOM_ID))
    components = data.get("components") or []
    if not components:
        problems.append((("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
    problems.extend(_too_many(("components",), components, MAX_MODAL_COMPONENTS))
    seen: set[str] = set()
    for index, component in enumerate(components):
        problems.extend(_modal_component_problems(("components", index), component, seen))
    if problems:
        raise invalid_form_body(_nest([((*prefix, *p), c, m) for p, c, m in problems]))
