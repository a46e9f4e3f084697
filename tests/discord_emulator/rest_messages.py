"""Channel message endpoints: create, fetch, list, edit, delete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.discord_emulator.errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    CANNOT_SEND_TO_USER,
    DiscordError,
    unknown_message,
)
from tests.discord_emulator.http_responses import json_response, no_content
from tests.discord_emulator.message_bodies import MessageBody, read_message_body
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_TTS_MESSAGES,
    missing_permissions,
    require_bot,
    sending_permission,
)
from tests.discord_emulator.thread_archive import (
    refuse_deletion_if_locked,
    refuse_if_archived,
    thread_locked,
)
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.world import ChannelRecord, MessageRecord

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

CANNOT_REPLY_WITHOUT_HISTORY = 160002


def _fitted(body: MessageBody, permissions: int) -> MessageBody:
    """The body as Discord takes it from the bot: files need Attach Files and TTS needs Send
    TTS Messages (403 code 50013); without Embed Links the embeds are silently dropped
    (discord-api-docs issues 2601 and 5648), so embeds alone make an empty message (50006)."""
    if body.files and not permissions & ATTACH_FILES:
        raise missing_permissions()
    if body.payload.get("tts") and not permissions & SEND_TTS_MESSAGES:
        raise missing_permissions()
    if body.payload.get("embeds") and not permissions & EMBED_LINKS:
        return MessageBody({**body.payload, "embeds": []}, body.files)
    return body


class MessageRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self._writer = emulator.writer
        self._threads = emulator.thread_archive

    def add_to(self, app: web.Application, api: str) -> None:
        messages = api + "/channels/{channel_id}/messages"
        app.router.add_post(messages, self.create)
        app.router.add_get(messages, self.history)
        app.router.add_get(messages + "/{message_id}", self.fetch)
        app.router.add_patch(messages + "/{message_id}", self.edit)
        app.router.add_delete(messages + "/{message_id}", self.delete)
        app.router.add_post(api + "/channels/{channel_id}/typing", self.typing)

    def _channel(self, request: web.Request) -> ChannelRecord:
        return self._world.channel(int(request.match_info["channel_id"]))

    def _message(self, request: web.Request, needed: int = 0) -> tuple[MessageRecord, int]:
        """A message as the channel endpoints see it (ephemerals do not exist there), and the
        bot's permissions in its channel, which must include `needed`."""
        channel = self._channel(request)
        permissions = require_bot(self._world, channel, needed)
        message = self._world.message(int(request.match_info["message_id"]))
        if message.channel_id != channel.id or message.ephemeral_to is not None:
            raise unknown_message()
        return message, permissions

    async def create(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = await read_message_body(request)
        if channel.is_bot_dm:
            recipient = self._world.users[channel.recipient_id or 0]
            if not recipient.dms_open:
                raise DiscordError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")
        # "Create Message": Send Messages, in a thread Send Messages in Threads ("Threads").
        permissions = require_bot(self._world, channel, sending_permission(channel))
        if body.payload.get("message_reference") and not permissions & READ_MESSAGE_HISTORY:
            raise DiscordError(
                400,
                CANNOT_REPLY_WITHOUT_HISTORY,
                "Cannot reply without permission to read message history",
            )
        author_id = self._world.bot.id
        earlier = self._emulator.nonces.earlier_message(body.payload, author_id)
        if earlier is not None:
            return json_response(self._writer.payload(self._world.message(earlier)))
        body = _fitted(body, permissions)
        message = self._writer.build(body, channel=channel, author_id=author_id)
        # A message unarchives an archived thread, unless it is locked ("Threads").
        await self._threads.reopen_for_message(channel, permissions)
        payload = await self._writer.publish_create(message, Action.MESSAGE_CREATE)
        self._emulator.nonces.remember(body.payload, author_id, message.id)
        return json_response(payload)

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if not require_bot(self._world, channel) & READ_MESSAGE_HISTORY:
            return json_response([])  # "Get Channel Messages": no messages, not an error
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        found = [
            m
            for m in self._world.messages_in(channel.id)
            if m.ephemeral_to is None and not m.loading
        ]
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])]
            found = found[:limit]  # the oldest ones after the given id
        newest_first = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self._writer.payload_as_read(m) for m in newest_first])

    async def fetch(self, request: web.Request) -> web.Response:
        message, _ = self._message(request, READ_MESSAGE_HISTORY)
        return json_response(self._writer.payload_as_read(message))

    async def edit(self, request: web.Request) -> web.Response:
        message, permissions = self._message(request)
        if message.author_id != self._world.bot.id:
            raise DiscordError(
                403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
            )
        channel = self._world.channel(message.channel_id)
        refuse_if_archived(channel)  # "Users cannot edit messages ... in archived threads"
        if channel.locked and not permissions & MANAGE_THREADS:
            raise thread_locked()
        body = _fitted(await read_message_body(request), permissions)
        self._writer.apply_edit(message, body)
        payload = await self._writer.publish_update(message, Action.MESSAGE_EDIT)
        # A press answered with a deferred update sees its answer in this edit as well as
        # in one through its webhook: the message it was on, changed (rest_interactions.py).
        for interaction in self._emulator.deferred_updates.pop(message.id, []):
            interaction.filled_in(MessageSnapshot.of(message))
        return json_response(payload)

    async def delete(self, request: web.Request) -> web.Response:
        message, permissions = self._message(request)
        if message.author_id != self._world.bot.id and not permissions & MANAGE_MESSAGES:
            raise missing_permissions()  # "Delete Message": others' need Manage Messages
        # Deleting is what an archived thread still allows, unless it is locked too.
        refuse_deletion_if_locked(self._world.channel(message.channel_id), permissions)
        await self._writer.publish_delete(message, Action.MESSAGE_DELETE)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        require_bot(self._world, channel, sending_permission(channel))
        return no_content()
