"""Threads that archive after inactivity, and what archived and locked threads refuse.

From topics/threads ("Active & Archived Threads", "Locked Threads", "Editing & Deleting
Threads") and resources/channel ("Modify Channel", thread members): a thread archives after
`auto_archive_duration` minutes without activity (a message, unarchiving, or a new
duration); in an archived thread nobody edits messages, adds members or uses application
commands, and only deletions happen; sending a message unarchives it unless it is locked;
a guild holds at most `World.max_active_threads` active threads. In a locked thread, archived
or not, only members with Manage Threads post, edit messages or change the thread ("Locked
Threads"), and only they unarchive it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.discord_emulator.errors import DiscordError
from tests.discord_emulator.gateway import INTENT_GUILDS
from tests.discord_emulator.payloads import channel_payload
from tests.discord_emulator.permissions import (
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    missing_permissions,
)

if TYPE_CHECKING:
    from tests.discord_emulator.gateway import Gateway
    from tests.discord_emulator.world import ChannelRecord, World

THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
MAX_ACTIVE_THREADS_REACHED = 160006
# Thread fields only Manage Threads may change, or, for these, the thread's creator too.
_MODERATOR_FIELDS = frozenset({"locked", "rate_limit_per_user", "invitable"})
_CREATOR_FIELDS = frozenset({"name", "auto_archive_duration", "archived"})


def thread_archived() -> DiscordError:
    return DiscordError(400, THREAD_ARCHIVED, "Thread is archived")


def thread_locked() -> DiscordError:
    return DiscordError(400, THREAD_LOCKED, "Thread is locked")


def too_many_active_threads() -> DiscordError:
    return DiscordError(400, MAX_ACTIVE_THREADS_REACHED, "Maximum number of active threads reached")


def refuse_if_archived(channel: ChannelRecord) -> None:
    """Editing a message in, or adding a member to, an archived thread: 400 code 50083."""
    if channel.is_thread and channel.archived:
        raise thread_archived()


def refuse_deletion_if_locked(channel: ChannelRecord, permissions: int) -> None:
    """Deleting is the one thing an archived thread allows, unless it is also locked and the
    deleter lacks Manage Threads ("Locked Threads")."""
    locked_archive = channel.is_thread and channel.archived and channel.locked
    if locked_archive and not permissions & MANAGE_THREADS:
        raise thread_archived()


class ThreadArchive:
    """Archives idle threads, reopens them when a message arrives, and announces both."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self._world = world
        self._clock = world.clock
        self._gateway = gateway

    def archive_idle(self) -> list[ChannelRecord]:
        """Archive every active thread idle for its whole `auto_archive_duration`."""
        now = self._clock.now()
        idle = [
            thread
            for thread in self._world.active_threads()
            if now - thread.last_activity >= thread.auto_archive_duration * 60
        ]
        for thread in idle:
            self.set_archived(thread, archived=True)
        return idle

    def set_archived(self, thread: ChannelRecord, *, archived: bool) -> None:
        thread.archived = archived
        thread.archive_timestamp = self._clock.iso_now()
        if not archived:
            thread.last_activity = self._clock.now()  # unarchiving is activity

    def touch_duration(self, thread: ChannelRecord, minutes: int) -> None:
        """A changed `auto_archive_duration` counts as activity (the idle count starts again
        from the change) and moves `archive_timestamp` (topics/threads, "Thread Fields")."""
        thread.auto_archive_duration = minutes
        thread.archive_timestamp = self._clock.iso_now()
        thread.last_activity = self._clock.now()

    def check_room_for_one_more(self, guild_id: int | None) -> None:
        """Creating or unarchiving a thread at the guild's cap: 400 code 160006."""
        if len(self._world.active_threads(guild_id)) >= self._world.max_active_threads:
            raise too_many_active_threads()

    def thread_update(self, thread: ChannelRecord) -> dict[str, Any]:
        return channel_payload(self._world, thread)

    async def announce(self, payload: dict[str, Any]) -> None:
        await self._gateway.dispatch("THREAD_UPDATE", payload, intent=INTENT_GUILDS)

    async def reopen_for_message(self, channel: ChannelRecord, permissions: int) -> None:
        """Before a new message lands in a thread: refuse it if the thread is locked (without
        Manage Threads), else unarchive an archived thread, as Discord does."""
        if not channel.is_thread:
            return
        moderator = bool(permissions & MANAGE_THREADS)
        if channel.locked and not moderator:
            raise thread_archived() if channel.archived else thread_locked()
        if not channel.archived:
            return
        self.check_room_for_one_more(channel.guild_id)
        self.set_archived(channel, archived=False)
        await self.announce(self.thread_update(channel))

    def check_edit(
        self, channel: ChannelRecord, changes: dict[str, Any], *, editor_id: int, permissions: int
    ) -> None:
        """Refuse a PATCH /channels/{id} as "Modify Channel" does, before anything changes."""
        if not channel.is_thread:
            if not permissions & MANAGE_CHANNELS:
                raise missing_permissions()
            return
        moderator = bool(permissions & MANAGE_THREADS)
        unarchiving = channel.archived and changes.get("archived") is False
        if channel.archived and not unarchiving:
            raise thread_archived()
        if unarchiving:
            locked = bool(changes.get("locked", channel.locked))
            # Unlocked: Send Messages is enough; locked: only moderators unarchive.
            if not (moderator if locked else permissions & SEND_MESSAGES):
                raise missing_permissions()
            self.check_room_for_one_more(channel.guild_id)
        changed = {key for key in changes if changes[key] != _current(channel, key)}
        if changed & _MODERATOR_FIELDS and not moderator:
            raise missing_permissions()
        if changed and channel.locked and not moderator:
            raise thread_locked()  # even its creator: "Locked Threads"
        creator = channel.owner_id == editor_id
        if changed & _CREATOR_FIELDS - {"archived"} and not (moderator or creator):
            raise missing_permissions()
        if changes.get("archived") is True and not channel.archived and not (moderator or creator):
            raise missing_permissions()


def _current(channel: ChannelRecord, key: str) -> Any:
    return getattr(channel, key, None)
