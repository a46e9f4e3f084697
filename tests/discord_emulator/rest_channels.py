"""Channels, threads, thread members and DM channels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord_emulator.errors import (
    UNKNOWN_USER,
    DiscordError,
    Failure,
    invalid_form_body,
    unknown_channel,
    unknown_message,
)
from tests.discord_emulator.gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS
from tests.discord_emulator.http_responses import json_response, no_content
from tests.discord_emulator.message_bodies import read_json
from tests.discord_emulator.payloads import channel_payload, member_payload
from tests.discord_emulator.permissions import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    missing_permissions,
    require_bot,
)
from tests.discord_emulator.thread_archive import refuse_if_archived
from tests.discord_emulator.thread_fields import check_thread_fields
from tests.discord_emulator.world import ChannelRecord, ChannelType

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

THREAD_ALREADY_CREATED = 160004
RENAMES_PER_WINDOW = 2
RENAME_WINDOW = 600.0  # seconds


class ChannelRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self._threads = emulator.thread_archive
        self._renames: dict[int, list[float]] = {}

    def add_to(self, app: web.Application, api: str) -> None:
        channel = api + "/channels/{channel_id}"
        app.router.add_get(channel, self.fetch)
        app.router.add_patch(channel, self.edit)
        app.router.add_delete(channel, self.delete)
        app.router.add_post(channel + "/messages/{message_id}/threads", self.thread_from_message)
        app.router.add_post(channel + "/threads", self.thread_without_message)
        app.router.add_put(channel + "/thread-members/{user_id}", self.add_thread_member)
        app.router.add_delete(channel + "/thread-members/{user_id}", self.remove_thread_member)
        app.router.add_get(channel + "/thread-members", self.list_thread_members)
        app.router.add_post(api + "/users/@me/channels", self.open_dm)

    def _channel(self, request: web.Request) -> ChannelRecord:
        return self._world.channel(int(request.match_info["channel_id"]))

    def _payload(self, channel: ChannelRecord) -> dict[str, Any]:
        return channel_payload(self._world, channel)

    async def fetch(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        require_bot(self._world, channel)
        return json_response(self._payload(channel))

    async def edit(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        changes = await read_json(request)
        check_thread_fields(changes, creating=False)
        permissions = require_bot(self._world, channel)
        bot_id = self._world.bot.id
        self._threads.check_edit(channel, changes, editor_id=bot_id, permissions=permissions)
        if "name" in changes and changes["name"] != channel.name:
            self._count_rename(channel)
            channel.name = str(changes["name"])
        for key in ("locked", "invitable"):
            if key in changes and channel.is_thread:
                setattr(channel, key, bool(changes[key]))
        archived = changes.get("archived")
        if channel.is_thread and archived is not None and bool(archived) != channel.archived:
            self._threads.set_archived(channel, archived=bool(archived))
        duration = changes.get("auto_archive_duration")
        if channel.is_thread and duration is not None and duration != channel.auto_archive_duration:
            # Only a change is activity ("Active & Archived Threads"); the same value is not.
            self._threads.touch_duration(channel, int(duration))
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self._emulator.gateway.dispatch(event, self._payload(channel), intent=INTENT_GUILDS)
        return json_response(self._payload(channel))

    def _count_rename(self, channel: ChannelRecord) -> None:
        """Discord allows 2 renames per channel per 10 minutes, then makes the bot wait.

        The emulator applies the rename anyway (a real 429 here would stall the test for
        minutes inside discord.py) and records the failure instead.
        """
        now = self._emulator.clock.now()
        recent = [t for t in self._renames.get(channel.id, []) if now - t < RENAME_WINDOW]
        recent.append(now)
        self._renames[channel.id] = recent
        if len(recent) > RENAMES_PER_WINDOW:
            self._emulator.record_failure(
                Failure(
                    f"rename of channel {channel.id} to a {len(recent)}th name within 10 minutes",
                    status=429,
                    detail="Discord would rate limit this for minutes",
                )
            )

    async def delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.guild_id is not None:
            # "Delete/Close Channel": Manage Threads for a thread, Manage Channels otherwise.
            require_bot(
                self._world, channel, MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
            )
        payload = self._payload(channel)
        if channel.guild_id is not None:  # closing a DM deletes nothing
            self._world.delete_channel(channel)  # a channel's threads go with it
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            await self._emulator.gateway.dispatch(event, payload, intent=INTENT_GUILDS)
        return json_response(payload)

    async def _announce_thread(self, thread: ChannelRecord) -> web.Response:
        payload = {**self._payload(thread), "newly_created": True}
        await self._emulator.gateway.dispatch("THREAD_CREATE", payload, intent=INTENT_GUILDS)
        return json_response(self._payload(thread), status=201)

    def _thread_parent(self, request: web.Request) -> ChannelRecord:
        parent = self._channel(request)
        if parent.type is not ChannelType.GUILD_TEXT:
            raise invalid_form_body(
                {
                    "channel_id": {
                        "_errors": [
                            {
                                "code": "CHANNEL_TYPE_INVALID",
                                "message": "Cannot start a thread here",
                            }
                        ]
                    }
                }
            )
        return parent

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._thread_parent(request)
        message = self._world.message(int(request.match_info["message_id"]))
        if message.channel_id != parent.id or message.ephemeral_to is not None:
            raise unknown_message()
        if message.thread_id is not None:
            raise DiscordError(
                400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        options = await read_json(request)
        check_thread_fields(options, creating=True)
        require_bot(self._world, parent, CREATE_PUBLIC_THREADS)
        self._threads.check_room_for_one_more(parent.guild_id)
        # A thread started from a message shares the message's id, as on Discord.
        thread = self._world.add_thread(
            parent,
            name=str(options.get("name") or "thread"),
            owner_id=self._world.bot.id,
            private=False,
            thread_id=message.id,
            auto_archive_duration=int(options.get("auto_archive_duration") or 1440),
        )
        message.thread_id = thread.id
        return await self._announce_thread(thread)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._thread_parent(request)
        options = await read_json(request)
        check_thread_fields(options, creating=True)
        private = (
            int(options.get("type") or ChannelType.PRIVATE_THREAD) == ChannelType.PRIVATE_THREAD
        )
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        require_bot(self._world, parent, needed)
        self._threads.check_room_for_one_more(parent.guild_id)
        thread = self._world.add_thread(
            parent,
            name=str(options.get("name") or "thread"),
            owner_id=self._world.bot.id,
            private=private,
            auto_archive_duration=int(options.get("auto_archive_duration") or 1440),
            invitable=bool(options.get("invitable", True)),
        )
        return await self._announce_thread(thread)

    def _thread_and_user(self, request: web.Request) -> tuple[ChannelRecord, int]:
        thread = self._channel(request)
        if not thread.is_thread:
            raise unknown_channel()
        require_bot(self._world, thread)
        raw = request.match_info["user_id"]
        user_id = self._world.bot.id if raw == "@me" else int(raw)
        if user_id not in self._world.users or not self._world.is_member(user_id, thread.guild_id):
            raise DiscordError(404, UNKNOWN_USER, "Unknown User")
        return thread, user_id

    async def _members_update(
        self, thread: ChannelRecord, *, added: int | None, removed: int | None
    ) -> None:
        event: dict[str, Any] = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": len(thread.thread_member_ids),
        }
        if added is not None:
            event["added_members"] = [
                {
                    "id": str(thread.id),
                    "user_id": str(added),
                    "join_timestamp": self._emulator.clock.iso_now(),
                    "flags": 0,
                    "member": member_payload(self._world, self._world.users[added]),
                }
            ]
        if removed is not None:
            event["removed_member_ids"] = [str(removed)]
        await self._emulator.gateway.dispatch(
            "THREAD_MEMBERS_UPDATE", event, intent=INTENT_GUILD_MEMBERS
        )

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        if user_id != self._world.bot.id:
            # "Add Thread Member": the ability to send messages in the thread.
            require_bot(self._world, thread, SEND_MESSAGES_IN_THREADS)
        refuse_if_archived(thread)  # joining or adding: 50083, as the docs' example says
        if user_id not in thread.thread_member_ids:
            thread.thread_member_ids.add(user_id)
            await self._members_update(thread, added=user_id, removed=None)
        return no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        if user_id != self._world.bot.id:
            # "Remove Thread Member": Manage Threads, or the creator of a private thread.
            permissions = require_bot(self._world, thread)
            creator = thread.is_private_thread and thread.owner_id == self._world.bot.id
            if not permissions & MANAGE_THREADS and not creator:
                raise missing_permissions()
        refuse_if_archived(thread)
        if user_id in thread.thread_member_ids:
            thread.thread_member_ids.discard(user_id)
            await self._members_update(thread, added=None, removed=user_id)
        return no_content()

    async def list_thread_members(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        require_bot(self._world, thread)
        return json_response(
            [
                {
                    "id": str(thread.id),
                    "user_id": str(uid),
                    "join_timestamp": thread.created_at,
                    "flags": 0,
                }
                for uid in sorted(thread.thread_member_ids)
            ]
        )

    async def open_dm(self, request: web.Request) -> web.Response:
        body = await read_json(request)
        recipient_id = int(body.get("recipient_id") or 0)
        if recipient_id not in self._world.users:
            raise DiscordError(404, UNKNOWN_USER, "Unknown User")
        # Opening the channel succeeds even when the user has closed DMs; sending fails.
        return json_response(self._payload(self._world.dm_channel_with(recipient_id)))
