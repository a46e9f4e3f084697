"""Discord's size and shape limits on messages, components and modals.

Each check yields `(path, code, message)` (`form_errors.py`); `check_message` and
`check_modal` turn them into the nested `errors` object of a 400 "Invalid Form Body" (code
50035). Buttons, selects and action rows are `component_rules.py`; the layout of a
components V2 message is `layout_rules.py`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from tests.discord_emulator.component_rules import (
    ACTION_ROW,
    LABEL,
    MAX_CUSTOM_ID,
    TEXT_INPUT,
    action_row_problems,
    custom_id_problems,
    is_select,
    select_problems,
)
from tests.discord_emulator.errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    DiscordError,
    invalid_form_body,
)
from tests.discord_emulator.form_errors import (
    Path,
    Problem,
    nest,
    not_in_enum,
    out_of_range,
    refuse,
    too_long,
    too_many,
)
from tests.discord_emulator.layout_rules import ATTACHMENT_SCHEME, layout_problems

__all__ = ["Path", "Problem", "check_message", "check_modal", "message_problems", "refuse"]

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
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_VALUE = 4000
MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_DESCRIPTION = 1024
MAX_EMBED_COLOR = 0xFFFFFF
MAX_ALLOWED_MENTION_IDS = 100
MENTION_TYPES = ("roles", "users", "everyone")

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15
# "When the flag IS_COMPONENTS_V2 is set, the message can only contain components"
# ("Create Message"; "Edit Message" asks for these reset to null or [] when setting it).
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


def embed_text_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6000 total of a message's embeds."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def embed_problems(embeds: Sequence[dict[str, Any]]) -> Iterator[Problem]:
    yield from too_many(("embeds",), embeds, MAX_EMBEDS)
    for index, embed in enumerate(embeds):
        at: Path = ("embeds", index)
        if embed.get("color") is not None:
            yield from out_of_range((*at, "color"), embed["color"], 0, MAX_EMBED_COLOR)
        yield from too_long((*at, "title"), embed.get("title"), MAX_EMBED_TITLE)
        yield from too_long((*at, "description"), embed.get("description"), MAX_EMBED_DESCRIPTION)
        footer = embed.get("footer") or {}
        yield from too_long((*at, "footer", "text"), footer.get("text"), MAX_EMBED_FOOTER)
        author = embed.get("author") or {}
        yield from too_long((*at, "author", "name"), author.get("name"), MAX_EMBED_AUTHOR)
        fields = embed.get("fields") or []
        yield from too_many((*at, "fields"), fields, MAX_EMBED_FIELDS)
        for field_index, field in enumerate(fields):
            field_at = (*at, "fields", field_index)
            yield from too_long((*field_at, "name"), field.get("name"), MAX_EMBED_FIELD_NAME)
            yield from too_long((*field_at, "value"), field.get("value"), MAX_EMBED_FIELD_VALUE)
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


def component_problems(
    components: Sequence[dict[str, Any]],
    *,
    flags: int,
    attachment_names: Collection[str] | None = None,
    known_emoji_ids: Collection[int] | None = None,
) -> Iterator[Problem]:
    """A legacy message: up to 5 action rows ("Legacy Message Component Behavior"); a
    components V2 message: the layout rules."""
    if flags & MESSAGE_FLAG_COMPONENTS_V2:
        yield from layout_problems(
            components, attachment_names=attachment_names, known_emoji_ids=known_emoji_ids
        )
        return
    seen: set[str] = set()
    yield from too_many(("components",), components, MAX_ACTION_ROWS)
    for row_index, row in enumerate(components):
        at: Path = ("components", row_index)
        if row.get("type") != ACTION_ROW:
            yield (
                (*at, "type"),
                "UNION_TYPE_CHOICES",
                "Top-level components must be action rows",
            )
            continue
        yield from action_row_problems(at, row, seen, known_emoji_ids)


def allowed_mentions_problems(allowed: Any) -> Iterator[Problem]:
    """`parse` excludes an explicit id list of the same kind; at most 100 ids of each."""
    if not isinstance(allowed, dict):
        return
    at: Path = ("allowed_mentions",)
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            yield not_in_enum((*at, "parse", index), kind)
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        yield from too_many((*at, kind), ids, MAX_ALLOWED_MENTION_IDS)
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
    media_attachment_names: Collection[str] | None = None,
    known_emoji_ids: Collection[int] | None = None,
) -> Iterator[Problem]:
    """`allowed_flags` None skips the flag check (edits ignore unsupported bits);
    `attachment_names` None skips the `attachment://` check of embeds (not sent now), and
    `media_attachment_names` None that of components V2 media; `known_emoji_ids` None skips
    the check that a component's custom emoji is one the app may use."""
    if allowed_flags is not None and payload.get("flags") is not None:
        yield from flag_problems(payload["flags"], allowed_flags)
    flags = int(payload.get("flags") or 0)
    content = payload.get("content")
    if not flags & MESSAGE_FLAG_COMPONENTS_V2:
        yield from too_long(("content",), content, MAX_CONTENT)
    else:
        for key in LEGACY_FIELDS:
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
    yield from component_problems(
        payload.get("components") or [],
        flags=flags,
        attachment_names=media_attachment_names,
        known_emoji_ids=known_emoji_ids,
    )
    if attachment_count > MAX_ATTACHMENTS:
        yield ("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ATTACHMENTS} or fewer."
    for index, attachment in enumerate(payload.get("attachments") or []):
        if isinstance(attachment, dict):
            yield from too_long(
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
    media_attachment_names: Collection[str] | None = None,
    known_emoji_ids: Collection[int] | None = None,
    earlier_problems: Sequence[Problem] = (),
) -> None:
    """Raise the 400 Discord would send for this message body, if any; `earlier_problems`
    are ones the caller found (an edit's flag change) to report in the same answer."""
    found = [
        *earlier_problems,
        *message_problems(
            payload,
            attachment_count=attachment_count,
            allowed_flags=allowed_flags,
            attachment_names=attachment_names,
            media_attachment_names=media_attachment_names,
            known_emoji_ids=known_emoji_ids,
        ),
    ]
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
        yield from too_long((*path, "label"), component.get("label"), MAX_TEXT_INPUT_LABEL)
        inner = component.get("component")
        if isinstance(inner, dict):
            yield from _modal_component_problems((*path, "component"), inner, seen)
    elif kind == TEXT_INPUT:
        yield from custom_id_problems(path, component, seen)
        yield from too_long((*path, "label"), component.get("label"), MAX_TEXT_INPUT_LABEL)
        yield from too_long((*path, "value"), component.get("value"), MAX_TEXT_INPUT_VALUE)
        yield from too_long((*path, "placeholder"), component.get("placeholder"), 100)
    elif is_select(component):
        # Custom emoji ids are checked in messages only (None); names still are.
        yield from select_problems(path, component, seen, None)


def check_modal(data: dict[str, Any], *, prefix: Path = ()) -> None:
    """Raise the 400 Discord would send for this modal, if any."""
    problems: list[Problem] = []
    title = data.get("title")
    if not title:
        problems.append((("title",), "BASE_TYPE_REQUIRED", "This field is required"))
    problems.extend(too_long(("title",), title, MAX_MODAL_TITLE))
    if not data.get("custom_id"):
        problems.append((("custom_id",), "BASE_TYPE_REQUIRED", "This field is required"))
    problems.extend(too_long(("custom_id",), data.get("custom_id"), MAX_CUSTOM_ID))
    components = data.get("components") or []
    if not components:
        problems.append((("components",), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
    problems.extend(too_many(("components",), components, MAX_MODAL_COMPONENTS))
    seen: set[str] = set()
    for index, component in enumerate(components):
        problems.extend(_modal_component_problems(("components", index), component, seen))
    if problems:
        raise invalid_form_body(nest([((*prefix, *p), c, m) for p, c, m in problems]))
