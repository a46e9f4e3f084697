"""Creating, editing and deleting messages: the store, the Gateway events, the transcript."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from tests.discord_emulator.form_errors import Problem
from tests.discord_emulator.gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    Gateway,
)
from tests.discord_emulator.layout_rules import numbered
from tests.discord_emulator.limits import (
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    check_message,
)
from tests.discord_emulator.message_bodies import MessageBody, UploadedFile
from tests.discord_emulator.payloads import message_payload
from tests.discord_emulator.transcript import Action, Transcript
from tests.discord_emulator.world import AttachmentRecord, ChannelRecord, MessageRecord, World

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
# The flags a message may be created with ("Create Message", resources/message); any other
# bit, ephemeral included outside an interaction response, is refused.
CREATABLE_FLAGS = (
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | MESSAGE_FLAG_COMPONENTS_V2
)
# The flags an edit may change ("Edit Message"); Discord ignores other bits without error.
EDITABLE_FLAGS = SUPPRESS_EMBEDS | MESSAGE_FLAG_COMPONENTS_V2
LOADING_FLAG = 1 << 7


def _laid_out(components: list[dict[str, Any]], flags: int) -> list[dict[str, Any]]:
    """The components as stored: a V2 message's get the ids Discord generates."""
    if flags & MESSAGE_FLAG_COMPONENTS_V2:
        return numbered(components)
    return copy.deepcopy(components)


def _flag_change_problems(message: MessageRecord, requested: int) -> list[Problem]:
    """IS_COMPONENTS_V2 "can only be set": an edit whose flags leave it out of a V2 message
    is refused ("Edit Message"; "Once a message has been sent with this flag, it can't be
    removed", Component Reference)."""
    if message.flags & MESSAGE_FLAG_COMPONENTS_V2 and not requested & MESSAGE_FLAG_COMPONENTS_V2:
        return [
            (
                ("flags",),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        ]
    return []


class MessageWriter:
    def __init__(
        self,
        world: World,
        gateway: Gateway,
        transcript: Transcript,
        base_url: Callable[[], str],
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._transcript = transcript
        self._base_url = base_url

    def payload(self, message: MessageRecord) -> dict[str, Any]:
        return message_payload(self._world, message, base_url=self._base_url())

    def payload_as_read(self, message: MessageRecord) -> dict[str, Any]:
        """A message as the bot reads it over REST, where the content intent applies too."""
        payload = self.payload(message)
        sessions = self._gateway.live_sessions
        has_intent = any(s.wants(INTENT_MESSAGE_CONTENT) for s in sessions)
        if sessions and not has_intent and not self._content_exempt(message):
            payload.update(content="", embeds=[], attachments=[], components=[])
        return payload

    # building ----------------------------------------------------------------------

    def _attachments(
        self, listed: Sequence[dict[str, Any]], files: Sequence[UploadedFile]
    ) -> list[AttachmentRecord]:
        described = {str(entry.get("id")): entry for entry in listed}
        records = []
        for upload in files:
            entry = described.get(str(upload.index), {})
            records.append(
                AttachmentRecord(
                    id=self._world.ids.next(),
                    filename=str(entry.get("filename") or upload.filename),
                    data=upload.data,
                    content_type=upload.content_type,
                    description=entry.get("description"),
                )
            )
        return records

    def build(
        self,
        body: MessageBody,
        *,
        channel: ChannelRecord,
        author_id: int,
        allowed_flags: int = CREATABLE_FLAGS,
        error_prefix: tuple[str | int, ...] = (),
        message_type: int = 0,
    ) -> MessageRecord:
        """A new message from a request body, checked against Discord's limits; not stored yet."""
        payload = body.payload
        attachments = self._attachments(payload.get("attachments") or [], body.files)
        names = {a.filename for a in attachments}
        check_message(
            payload,
            attachment_count=len(body.files),
            require_body=True,
            prefix=error_prefix,
            allowed_flags=allowed_flags,
            attachment_names=names,
            media_attachment_names=names,
            known_emoji_ids=self._world.application_emojis.keys(),
        )
        flags = int(payload.get("flags") or 0) & allowed_flags
        reference = payload.get("message_reference")
        return MessageRecord(
            id=self._world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id,
            created_at=self._world.clock.iso_now(),
            type=19 if reference else message_type,
            content=str(payload.get("content") or ""),
            embeds=copy.deepcopy(list(payload.get("embeds") or [])),
            components=_laid_out(list(payload.get("components") or []), flags),
            attachments=attachments,
            flags=flags,
            message_reference=reference,
            sticker_ids=list(payload.get("sticker_ids") or []),
            poll=payload.get("poll"),
        )

    def apply_edit(
        self,
        message: MessageRecord,
        body: MessageBody,
        *,
        error_prefix: tuple[str | int, ...] = (),
    ) -> None:
        """Replace the fields the body names; Discord keeps the ones it leaves out."""
        payload = body.payload
        content = (payload["content"] or "") if "content" in payload else message.content
        embeds = (payload["embeds"] or []) if "embeds" in payload else message.embeds
        components = (
            (payload["components"] or []) if "components" in payload else message.components
        )
        attachments = list(message.attachments)
        if "attachments" in payload:
            kept_ids = {str(entry.get("id")) for entry in payload["attachments"] or []}
            attachments = [a for a in attachments if str(a.id) in kept_ids]
            new_files = [f for f in body.files if str(f.index) in kept_ids]
            attachments += self._attachments(payload["attachments"] or [], new_files)
        else:
            attachments += self._attachments([], body.files)
        sticker_ids = (
            (payload["sticker_ids"] or []) if "sticker_ids" in payload else message.sticker_ids
        )
        poll = payload.get("poll", message.poll)
        flags = message.flags
        flag_problems: list[Problem] = []
        if "flags" in payload and payload["flags"] is not None:
            requested = int(payload["flags"])
            flag_problems = _flag_change_problems(message, requested)
            # "Suppress embeds" may be set or unset, "components V2" only set; ephemerality
            # never changes.
            flags = (flags & ~SUPPRESS_EMBEDS) | (requested & EDITABLE_FLAGS)
        # The resulting message is checked whole: setting IS_COMPONENTS_V2 needs content,
        # embeds, stickers and poll emptied ("Edit Message"), and a V2 message takes none.
        merged = {
            "content": content,
            "embeds": embeds,
            "components": components,
            "flags": flags,
            "sticker_ids": sticker_ids,
            "poll": poll,
            "allowed_mentions": payload.get("allowed_mentions"),
        }
        # What is sent now may reference files uploaded now or kept; stored parts were checked.
        names = {a.filename for a in attachments}
        sends_components = "components" in payload
        check_message(
            merged,
            attachment_count=len(attachments),
            require_body=True,
            prefix=error_prefix,
            attachment_names=names if "embeds" in payload else None,
            media_attachment_names=names if sends_components else None,
            known_emoji_ids=self._world.application_emojis.keys() if sends_components else None,
            earlier_problems=flag_problems,
        )
        message.content = str(content)
        message.embeds = copy.deepcopy(list(embeds))
        message.components = _laid_out(list(components), flags)
        message.attachments = attachments
        message.sticker_ids = list(sticker_ids)
        message.poll = poll
        message.flags = flags & ~LOADING_FLAG
        message.loading = False
        message.edited_at = self._world.clock.iso_now()

    # publishing --------------------------------------------------------------------

    def _intent_for(self, message: MessageRecord) -> int:
        return INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES

    async def publish_create(
        self, message: MessageRecord, action: Action, *, response_type: int | None = None
    ) -> dict[str, Any]:
        self._world.add_message(message)
        if message.author_id == self._world.bot.id and not message.loading:
            self._transcript.record_message(action, message, response_type=response_type)
        payload = self.payload(message)
        # The bot never receives events for ephemeral messages.
        if not message.flags & MESSAGE_FLAG_EPHEMERAL and not message.loading:
            await self._dispatch_message("MESSAGE_CREATE", message)
        return payload

    async def publish_update(
        self, message: MessageRecord, action: Action, *, response_type: int | None = None
    ) -> dict[str, Any]:
        self._transcript.record_message(action, message, response_type=response_type)
        if not message.flags & MESSAGE_FLAG_EPHEMERAL:
            await self._dispatch_message("MESSAGE_UPDATE", message)
        return self.payload(message)

    async def publish_delete(self, message: MessageRecord, action: Action) -> None:
        message.deleted = True
        self._transcript.record_message(action, message)
        if message.flags & MESSAGE_FLAG_EPHEMERAL or not self._bot_hears(message):
            return
        event: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            event["guild_id"] = str(message.guild_id)
        await self._gateway.dispatch("MESSAGE_DELETE", event, intent=self._intent_for(message))

    def _bot_hears(self, message: MessageRecord) -> bool:
        """The bot gets no events of a channel it is not in: a DM between users, a group DM
        or a server without it, even of the messages it answered there with."""
        channel = self._world.channels.get(message.channel_id)
        return channel is None or self._world.bot_is_in(channel)

    async def _dispatch_message(self, event: str, message: MessageRecord) -> None:
        if not self._bot_hears(message):
            return
        intent = self._intent_for(message)
        for session in self._gateway.live_sessions:
            if not (session.wants(intent) and session.holds(message.guild_id)):
                continue
            payload = self.payload(message)
            if not session.wants(INTENT_MESSAGE_CONTENT) and not self._content_exempt(message):
                # Without the message content intent Discord blanks other users' messages.
                payload.update(content="", embeds=[], attachments=[], components=[])
            await self._gateway.dispatch_to(session, event, payload)

    def _content_exempt(self, message: MessageRecord) -> bool:
        return message.author_id == self._world.bot.id or message.guild_id is None
