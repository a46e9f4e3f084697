"""Read-only copies of what a user sees: messages with their buttons and selects, modals."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from typing import Any

from tests.discord_emulator.component_media import shown_attachments
from tests.discord_emulator.errors import ImpossibleUserAction
from tests.discord_emulator.limits import MESSAGE_FLAG_EPHEMERAL
from tests.discord_emulator.message_text import message_text
from tests.discord_emulator.world import MessageRecord


@dataclasses.dataclass(frozen=True)
class ButtonSnapshot:
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None


@dataclasses.dataclass(frozen=True)
class SelectOptionSnapshot:
    label: str
    value: str
    description: str | None
    default: bool


@dataclasses.dataclass(frozen=True)
class SelectSnapshot:
    custom_id: str
    type: int
    placeholder: str | None
    options: tuple[SelectOptionSnapshot, ...]
    min_values: int
    max_values: int
    disabled: bool


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])
        for key in ("accessory", "component"):
            inner = component.get(key)
            if isinstance(inner, dict):
                yield from _walk([inner])


@dataclasses.dataclass(frozen=True)
class MessageSnapshot:
    """A message as it looked when the snapshot was taken."""

    id: int
    channel_id: int
    author_id: int
    content: str
    embeds: tuple[dict[str, Any], ...]
    components: tuple[dict[str, Any], ...]
    attachments: tuple[tuple[str, bytes], ...]
    """(filename, bytes) of the attachments shown: in a components V2 message only those its
    components expose (`component_media.py`); the message itself keeps them all."""
    flags: int
    edited: bool
    loading: bool

    @classmethod
    def of(cls, message: MessageRecord) -> MessageSnapshot:
        return cls(
            id=message.id,
            channel_id=message.channel_id,
            author_id=message.author_id,
            content=message.content,
            embeds=tuple(copy.deepcopy(message.embeds)),
            components=tuple(copy.deepcopy(message.components)),
            attachments=tuple(
                (a.filename, a.data)
                for a in shown_attachments(message.flags, message.components, message.attachments)
            ),
            flags=message.flags,
            edited=message.edited_at is not None,
            loading=message.loading,
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def attachment_names(self) -> list[str]:
        return [name for name, _ in self.attachments]

    def text(self) -> str:
        return message_text(self.content, self.embeds, self.components, self.attachment_names)

    def text_displays(self) -> list[str]:
        """The text of each text display of a components V2 layout, in order."""
        return [str(c.get("content", "")) for c in _walk(list(self.components)) if c["type"] == 10]

    def buttons(self) -> list[ButtonSnapshot]:
        return [
            ButtonSnapshot(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                style=int(c.get("style", 1)),
                disabled=bool(c.get("disabled")),
                url=c.get("url"),
                emoji=(c.get("emoji") or {}).get("name"),
            )
            for c in _walk(list(self.components))
            if c.get("type") == 2
        ]

    def selects(self) -> list[SelectSnapshot]:
        return [
            SelectSnapshot(
                custom_id=str(c.get("custom_id")),
                type=int(c["type"]),
                placeholder=c.get("placeholder"),
                options=tuple(
                    SelectOptionSnapshot(
                        label=str(o.get("label")),
                        value=str(o.get("value")),
                        description=o.get("description"),
                        default=bool(o.get("default")),
                    )
                    for o in c.get("options") or []
                ),
                min_values=int(c.get("min_values", 1)),
                max_values=int(c.get("max_values", 1)),
                disabled=bool(c.get("disabled")),
            )
            for c in _walk(list(self.components))
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def button(self, label_or_custom_id: str) -> ButtonSnapshot:
        """The one button with this label (or, failing that, this custom_id)."""
        buttons = self.buttons()
        found = [b for b in buttons if b.label == label_or_custom_id] or [
            b for b in buttons if b.custom_id == label_or_custom_id
        ]
        if len(found) != 1:
            shown = ", ".join(repr(b.label or b.custom_id) for b in buttons) or "none"
            raise ImpossibleUserAction(
                f"{len(found)} buttons match {label_or_custom_id!r} on message {self.id}; "
                f"its buttons: {shown}"
            )
        return found[0]

    def select(self, placeholder_or_custom_id: str | None = None) -> SelectSnapshot:
        """The select with this placeholder or custom_id, or the only select."""
        selects = self.selects()
        if placeholder_or_custom_id is not None:
            selects = [
                s for s in selects if placeholder_or_custom_id in (s.placeholder, s.custom_id)
            ]
        if len(selects) != 1:
            raise ImpossibleUserAction(
                f"{len(selects)} selects match {placeholder_or_custom_id!r} on message {self.id}"
            )
        return selects[0]


@dataclasses.dataclass(frozen=True)
class ModalField:
    custom_id: str
    type: int
    label: str | None
    required: bool
    value: str | None  # pre-filled text
    options: tuple[str, ...]  # values of a select inside the modal


@dataclasses.dataclass(frozen=True)
class ModalSnapshot:
    custom_id: str
    title: str
    components: tuple[dict[str, Any], ...]

    def fields(self) -> list[ModalField]:
        fields = []
        for top in self.components:
            label = top.get("label") if top.get("type") == 18 else None
            inner = [top["component"]] if top.get("type") == 18 else top.get("components") or []
            for component in inner:
                if not component.get("custom_id"):
                    continue
                fields.append(
                    ModalField(
                        custom_id=str(component["custom_id"]),
                        type=int(component["type"]),
                        label=component.get("label") or label,
                        required=bool(component.get("required", True)),
                        value=component.get("value"),
                        options=tuple(str(o.get("value")) for o in component.get("options") or []),
                    )
                )
        return fields

    def text(self) -> str:
        return f"[modal] {self.title}\n" + message_text("", [], list(self.components), [])
