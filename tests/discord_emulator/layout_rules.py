"""The layout of a components V2 message (flag IS_COMPONENTS_V2), as Discord documents it.

Sources: Component Reference (docs.discord.com/developers/components/reference): which
components go where, Section "one to three" text displays and one accessory, Media Gallery
"1 to 10" items, alt text "max 1024 characters", Separator spacing 1 or 2, Container
`accent_color` 0x000000-0xFFFFFF, a File "only supports attachment references", an `id`
"unique within the message", "Messages allow up to 40 total components"; change log "Raised
Component Limits" (April 29, 2025: 40 counting nested ones, no top-level or Container limit);
docs.discord.food/resources/components: all text displays together at most 4000 characters,
each 1-4000, a Container holds at least one component (discord-api-docs PR 8562 documents the
4000 too). Where Discord documents no error code, the code is a descriptive stand-in.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from tests.discord_emulator.component_rules import (
    ACTION_ROW,
    BUTTON,
    action_row_problems,
    button_problems,
)
from tests.discord_emulator.form_errors import (
    Path,
    Problem,
    bad_length,
    not_in_enum,
    out_of_range,
    required,
    too_long,
)

SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17

TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
IN_CONTAINER = frozenset({ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE})
IN_SECTION = frozenset({TEXT_DISPLAY})
SECTION_ACCESSORIES = frozenset({BUTTON, THUMBNAIL})

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_SECTION_TEXTS = 3
MAX_GALLERY_ITEMS = 10
MAX_MEDIA_DESCRIPTION = 1024
MAX_ACCENT_COLOR = 0xFFFFFF
SEPARATOR_SPACINGS = (1, 2)
# "32 bit integer used as an optional identifier"; 0 "will be treated as empty".
COMPONENT_ID_RANGE = (-(2**31), 2**31 - 1)
ATTACHMENT_SCHEME = "attachment://"


def walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, nested ones included, in document order (an accessory after the
    section's text)."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from walk([accessory])


@dataclasses.dataclass
class _LayoutWalk:
    """One pass over a message's components, with the totals that span the whole message."""

    attachment_names: Collection[str] | None
    known_emoji_ids: Collection[int] | None
    custom_ids: set[str] = dataclasses.field(default_factory=set)
    ids: set[int] = dataclasses.field(default_factory=set)
    count: int = 0
    text: int = 0

    def each(
        self, path: Path, components: Sequence[Any], allowed: frozenset[int]
    ) -> Iterator[Problem]:
        for index, component in enumerate(components):
            yield from self.one((*path, index), component, allowed)

    def one(self, at: Path, component: Any, allowed: frozenset[int]) -> Iterator[Problem]:
        if not isinstance(component, dict):
            yield at, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
            return
        self.count += 1
        yield from self._id(at, component)
        kind = component.get("type")
        if kind not in allowed:
            yield (
                (*at, "type"),
                "UNION_TYPE_CHOICES",
                f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
            )
            return
        if kind == ACTION_ROW:
            yield from self._action_row(at, component)
        elif kind == BUTTON:
            yield from button_problems(at, component, self.custom_ids, self.known_emoji_ids)
        elif kind == SECTION:
            yield from self._section(at, component)
        elif kind == TEXT_DISPLAY:
            yield from self._text_display(at, component)
        elif kind == THUMBNAIL:
            yield from self._media((*at, "media"), component.get("media"))
            yield from self._description(at, component)
        elif kind == MEDIA_GALLERY:
            yield from self._gallery(at, component)
        elif kind == FILE:
            yield from self._file(at, component)
        elif kind == SEPARATOR:
            spacing = component.get("spacing")
            if spacing is not None and spacing not in SEPARATOR_SPACINGS:
                yield not_in_enum((*at, "spacing"), spacing)
        elif kind == CONTAINER:
            yield from self._container(at, component)

    def _id(self, at: Path, component: dict[str, Any]) -> Iterator[Problem]:
        value = component.get("id")
        if value is None:
            return
        low, high = COMPONENT_ID_RANGE
        problems = list(out_of_range((*at, "id"), value, low, high))
        yield from problems
        if problems or value == 0:
            return
        if value in self.ids:
            yield (
                (*at, "id"),
                "COMPONENT_ID_DUPLICATED",
                f"Component id {value} is used twice; it must be unique within the message",
            )
        self.ids.add(value)

    def _action_row(self, at: Path, row: dict[str, Any]) -> Iterator[Problem]:
        # Its buttons and selects count towards the 40 and carry ids like any component.
        for index, child in enumerate(row.get("components") or []):
            if isinstance(child, dict):
                self.count += 1
                yield from self._id((*at, "components", index), child)
        yield from action_row_problems(at, row, self.custom_ids, self.known_emoji_ids)

    def _section(self, at: Path, section: dict[str, Any]) -> Iterator[Problem]:
        texts = section.get("components") or []
        if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
            yield bad_length((*at, "components"), 1, MAX_SECTION_TEXTS)
        yield from self.each((*at, "components"), texts, IN_SECTION)
        accessory = section.get("accessory")
        if accessory is None:
            yield required((*at, "accessory"))
        else:
            yield from self.one((*at, "accessory"), accessory, SECTION_ACCESSORIES)

    def _text_display(self, at: Path, display: dict[str, Any]) -> Iterator[Problem]:
        content = display.get("content")
        if not isinstance(content, str) or not 1 <= len(content) <= MAX_TEXT:
            yield bad_length((*at, "content"), 1, MAX_TEXT)
        if isinstance(content, str):
            self.text += len(content)

    def _gallery(self, at: Path, gallery: dict[str, Any]) -> Iterator[Problem]:
        items = gallery.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            yield bad_length((*at, "items"), 1, MAX_GALLERY_ITEMS)
        for index, item in enumerate(items):
            item_at = (*at, "items", index)
            if not isinstance(item, dict):
                yield required(item_at)
                continue
            yield from self._media((*item_at, "media"), item.get("media"))
            yield from self._description(item_at, item)

    def _file(self, at: Path, file: dict[str, Any]) -> Iterator[Problem]:
        media = file.get("file")
        yield from self._media((*at, "file"), media)
        url = media.get("url") if isinstance(media, dict) else None
        if isinstance(url, str) and url and not url.startswith(ATTACHMENT_SCHEME):
            yield (
                (*at, "file", "url"),
                "COMPONENT_FILE_NOT_AN_ATTACHMENT",
                "A file component only supports attachment://<filename> references",
            )

    def _container(self, at: Path, container: dict[str, Any]) -> Iterator[Problem]:
        children = container.get("components") or []
        if not children:
            yield (*at, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."
        yield from self.each((*at, "components"), children, IN_CONTAINER)
        color = container.get("accent_color")
        if color is not None:
            yield from out_of_range((*at, "accent_color"), color, 0, MAX_ACCENT_COLOR)

    def _media(self, at: Path, media: Any) -> Iterator[Problem]:
        """An unfurled media item: only `url` is the app's to set; `attachment://name` names
        a file of the message."""
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            yield required((*at, "url"))
            return
        if not url.startswith(ATTACHMENT_SCHEME) or self.attachment_names is None:
            return
        if url.removeprefix(ATTACHMENT_SCHEME) not in self.attachment_names:
            yield (*at, "url"), "ATTACHMENT_NOT_FOUND", f"{url} names no attachment of this message"

    def _description(self, at: Path, holder: dict[str, Any]) -> Iterator[Problem]:
        description = holder.get("description")
        yield from too_long((*at, "description"), description, MAX_MEDIA_DESCRIPTION)


def layout_problems(
    components: Sequence[Any],
    *,
    attachment_names: Collection[str] | None,
    known_emoji_ids: Collection[int] | None,
) -> Iterator[Problem]:
    """Everything Discord refuses in a components V2 message's `components`.

    `attachment_names` None skips the `attachment://` check (components not sent now);
    `known_emoji_ids` None skips the custom emoji check."""
    layout = _LayoutWalk(attachment_names, known_emoji_ids)
    yield from layout.each(("components",), components, TOP_LEVEL)
    if layout.count > MAX_COMPONENTS:
        yield (
            ("components",),
            "MESSAGE_COMPONENTS_TOO_MANY",
            f"A components V2 message holds at most {MAX_COMPONENTS} components, nested ones "
            f"included ({layout.count} sent)",
        )
    if layout.text > MAX_TEXT:
        yield (
            ("components",),
            "MESSAGE_COMPONENTS_TEXT_TOO_LONG",
            f"The text displays of a message hold at most {MAX_TEXT} characters together "
            f"({layout.text} sent)",
        )


def numbered(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy with every `id` left empty (or 0) filled in, as Discord does: "generated
    sequentially", never reusing an id another component of the message has."""
    copied = copy.deepcopy(list(components))
    taken = {c["id"] for c in walk(copied) if isinstance(c.get("id"), int) and c["id"]}
    next_id = 1
    for component in walk(copied):
        if component.get("id"):
            continue
        while next_id in taken:
            next_id += 1
        component["id"] = next_id
        taken.add(next_id)
    return copied
