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
from tests.discord_emulator.message_bodies import read_message_body
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.world import ChannelRecord, ChannelType, MessageRecord

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator


class MessageRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self._writer = emulator.writer

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

    def _message(self, request: web.Request) -> MessageRecord:
        """A message as the channel endpoints see it: ephemerals do not exist there."""
        channel = self._channel(request)
        message = self._world.message(int(request.match_info["message_id"]))
        if message.channel_id != channel.id or message.ephemeral_to is not None:
            raise unknown_message()
        return message

    async def create(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = await read_message_body(request)
        if channel.type is ChannelType.DM:
            recipient = self._world.users[channel.recipient_id or 0]
            if not recipient.dms_open:
                raise DiscordError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")
        message = self._writer.build(body, channel=channel, author_id=self._world.bot.id)
        return json_response(await self._writer.publish_create(message, Action.MESSAGE_CREATE))

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
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
        return json_response(self._writer.payload_as_read(self._message(request)))

    async def edit(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message.author_id != self._world.bot.id:
            raise DiscordError(
                403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
            )
        body = await read_message_body(request)
        self._writer.apply_edit(message, body)
        return json_response(await self._writer.publish_update(message, Action.MESSAGE_EDIT))

    async def delete(self, request: web.Request) -> web.Response:
        message = self._message(request)
        await self._writer.publish_delete(message, Action.MESSAGE_DELETE)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return no_content()
