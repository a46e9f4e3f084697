"""Everything the bot sent, each entry labelled with who could see it."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from typing import Any

from tests.discord_emulator.component_media import shown_attachments
from tests.discord_emulator.message_text import message_text
from tests.discord_emulator.world import MessageRecord, World


class Scope(enum.Enum):
    # Everyone who can see the channel or thread; in a DM between users or a group DM, its
    # recipients: a message there is public to them all (the other player included).
    PUBLIC = "public"
    EPHEMERAL = "ephemeral"  # only the user of the interaction
    DM = "dm"  # the bot's DM with one user


@dataclasses.dataclass(frozen=True)
class Visibility:
    scope: Scope
    channel_id: int
    user_id: int | None = None  # the one viewer of an ephemeral or a DM

    def __str__(self) -> str:
        if self.scope is Scope.PUBLIC:
            return f"public in channel {self.channel_id}"
        return f"{self.scope.value} to user {self.user_id} (channel {self.channel_id})"


class Action(enum.Enum):
    MESSAGE_CREATE = "message create"
    MESSAGE_EDIT = "message edit"
    MESSAGE_DELETE = "message delete"
    INTERACTION_RESPONSE = "interaction response"
    FOLLOWUP = "followup"
    ORIGINAL_EDIT = "edit of @original"
    WEBHOOK_EDIT = "interaction webhook edit"
    MODAL = "modal"


@dataclasses.dataclass(frozen=True)
class SentAttachment:
    filename: str
    data: bytes
    shown: bool = True
    """False for a file a components V2 message carries but none of its components shows;
    its bytes still count in `contains`, since every client receives the file."""


@dataclasses.dataclass(frozen=True)
class TranscriptEntry:
    """One thing the bot sent; for edits, the whole message as it reads afterwards."""

    index: int
    action: Action
    visibility: Visibility
    message_id: int | None
    content: str = ""
    embeds: tuple[dict[str, Any], ...] = ()
    components: tuple[dict[str, Any], ...] = ()
    attachments: tuple[SentAttachment, ...] = ()
    interaction_id: int | None = None
    response_type: int | None = None
    title: str = ""  # a modal's title

    def text(self) -> str:
        """Content, embed text, component labels and attachment names, one per line."""
        body = message_text(
            self.content,
            self.embeds,
            self.components,
            [a.filename for a in self.attachments if a.shown],
        )
        return f"[modal] {self.title}\n{body}" if self.title else body

    def contains(self, needle: str | bytes) -> bool:
        """Whether a string shows in the text or a byte string in any attachment."""
        if isinstance(needle, bytes):
            return any(needle in a.data for a in self.attachments)
        return needle in self.text()

    def __str__(self) -> str:
        return f"#{self.index} {self.action.value}, {self.visibility}:\n{self.text()}"


class Transcript:
    """The bot's output in order, with the questions tests ask of hidden information."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.entries: list[TranscriptEntry] = []

    def __iter__(self) -> Iterator[TranscriptEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def record_message(
        self,
        action: Action,
        message: MessageRecord,
        *,
        response_type: int | None = None,
    ) -> TranscriptEntry:
        return self._append(
            action=action,
            visibility=self.visibility_of(message),
            message_id=message.id,
            content=message.content,
            embeds=tuple(message.embeds),
            components=tuple(message.components),
            attachments=self._attachments(message),
            interaction_id=message.interaction_id,
            response_type=response_type,
        )

    @staticmethod
    def _attachments(message: MessageRecord) -> tuple[SentAttachment, ...]:
        attachments = message.attachments
        shown = {a.id for a in shown_attachments(message.flags, message.components, attachments)}
        return tuple(SentAttachment(a.filename, a.data, a.id in shown) for a in attachments)

    def record_modal(
        self, *, interaction_id: int, user_id: int, channel_id: int, data: dict[str, Any]
    ) -> TranscriptEntry:
        return self._append(
            action=Action.MODAL,
            visibility=Visibility(Scope.EPHEMERAL, channel_id, user_id),
            message_id=None,
            components=tuple(data.get("components") or ()),
            interaction_id=interaction_id,
            response_type=9,
            title=str(data.get("title") or ""),
        )

    def _append(self, **fields: Any) -> TranscriptEntry:
        entry = TranscriptEntry(index=len(self.entries), **fields)
        self.entries.append(entry)
        return entry

    def visibility_of(self, message: MessageRecord) -> Visibility:
        if message.ephemeral_to is not None:
            return Visibility(Scope.EPHEMERAL, message.channel_id, message.ephemeral_to)
        channel = self._world.channels[message.channel_id]
        if channel.is_bot_dm:
            return Visibility(Scope.DM, channel.id, channel.recipient_id)
        return Visibility(Scope.PUBLIC, channel.id)

    def can_see(self, user_id: int, entry: TranscriptEntry) -> bool:
        visibility = entry.visibility
        if visibility.scope is not Scope.PUBLIC:
            return visibility.user_id == user_id
        channel = self._world.channels.get(visibility.channel_id)
        return channel is not None and self._world.can_see_channel(user_id, channel)

    # the questions tests ask ----------------------------------------------------------

    def visible_to(self, user_id: int) -> list[TranscriptEntry]:
        """Entries this user could have read at some point."""
        return [e for e in self.entries if self.can_see(user_id, e)]

    def hidden_from(self, user_id: int) -> list[TranscriptEntry]:
        return [e for e in self.entries if not self.can_see(user_id, e)]

    def public(self) -> list[TranscriptEntry]:
        """Entries in guild channels and threads (private threads included), and in DMs
        between users and group DMs (seen by all their recipients)."""
        return [e for e in self.entries if e.visibility.scope is Scope.PUBLIC]

    def ephemeral_to(self, user_id: int) -> list[TranscriptEntry]:
        return [
            e
            for e in self.entries
            if e.visibility.scope is Scope.EPHEMERAL and e.visibility.user_id == user_id
        ]

    def dms_to(self, user_id: int) -> list[TranscriptEntry]:
        return [
            e
            for e in self.entries
            if e.visibility.scope is Scope.DM and e.visibility.user_id == user_id
        ]

    def in_channel(self, channel_id: int) -> list[TranscriptEntry]:
        return [e for e in self.entries if e.visibility.channel_id == channel_id]

    def containing(self, needle: str | bytes) -> list[TranscriptEntry]:
        return [e for e in self.entries if e.contains(needle)]

    def assert_never_seen_by(self, user_id: int, needle: str | bytes) -> None:
        """Fail if anything this user could see ever showed `needle`."""
        leaks = [e for e in self.visible_to(user_id) if e.contains(needle)]
        if leaks:
            shown = "\n\n".join(str(e) for e in leaks)
            raise AssertionError(f"{needle!r} was visible to user {user_id}:\n{shown}")

    def dump(self) -> str:
        return "\n\n".join(str(e) for e in self.entries)
