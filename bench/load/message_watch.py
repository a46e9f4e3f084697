"""Wakes the scripted players when the bot writes, and stamps each edit of a board."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.world import MessageRecord

T = TypeVar("T")

STEP_TIMEOUT = 20.0  # one wait for the bot (board, thread, offer); far above any target


class ScriptError(Exception):
    """The scripted players could not go on: the UI did not show what they needed."""


class MessageWatch:
    """Wakes the players when the bot writes in their thread, and times board edits.

    The emulator offers no "wait until this message changes", and polling would be costly:
    N coroutines waking every few ms steal the CPU the emulator (same process) needs, and
    `EmulatedUser.messages()` scans every message in the world. So this wraps the
    emulator's two publishing methods (instance attributes only; the emulator is unchanged):
    O(1) per write, and each edit of a board is stamped with the loop time at which the
    emulator stored it, the moment a user would see it, with its text as a user reads it.
    """

    def __init__(self, emulator: DiscordEmulator) -> None:
        self._world = emulator.world
        self._loop = asyncio.get_running_loop()
        self.in_channel: dict[int, list[int]] = defaultdict(list)  # ids, oldest first
        self.boards: dict[int, list[tuple[float, str]]] = {}  # board id -> (stamp, text)
        self.created_at: dict[int, float] = {}  # message id -> when the emulator stored it
        self.thread_by_name: dict[str, int] = {}
        self._wake: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self._named: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        writer = emulator.writer
        create, update = writer.publish_create, writer.publish_update

        async def publish_create(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            self._created(message)
            return await create(message, action, response_type=response_type)

        async def publish_update(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            self._updated(message)
            return await update(message, action, response_type=response_type)

        writer.publish_create = publish_create  # type: ignore[method-assign]
        writer.publish_update = publish_update  # type: ignore[method-assign]

    def _created(self, message: MessageRecord) -> None:
        ids = self.in_channel[message.channel_id]
        ids.append(message.id)
        self.created_at[message.id] = self._loop.time()
        channel = self._world.channels.get(message.channel_id)
        if len(ids) == 1 and channel is not None and channel.is_thread and channel.name:
            # The thread appears in the channel's thread list under this name.
            self.thread_by_name[channel.name] = channel.id
            self._named[channel.name].set()
        self._wake[message.channel_id].set()

    def _updated(self, message: MessageRecord) -> None:
        history = self.boards.get(message.id)
        if history is not None:
            history.append((self._loop.time(), MessageSnapshot.of(message).text()))
        self._wake[message.channel_id].set()

    def track_board(self, message_id: int, text: str) -> None:
        self.boards[message_id] = [(self._loop.time(), text)]

    def change_after(self, board_id: int, since: float, before: str) -> tuple[float, str] | None:
        """The first edit of the board at or after `since` that reads differently."""
        for stamp, text in self.boards[board_id]:
            if stamp >= since and text != before:
                return stamp, text
        return None

    async def wait(self, channel_id: int, ready: Callable[[], T | None], what: str) -> T:
        """Until `ready()` finds something, re-checked whenever the bot writes in the channel."""
        event = self._wake[channel_id]
        try:
            async with asyncio.timeout(STEP_TIMEOUT):
                while True:
                    event.clear()  # before the check, so no write between them is missed
                    found = ready()
                    if found is not None:
                        return found
                    await event.wait()
        except TimeoutError:
            raise ScriptError(f"no {what} after {STEP_TIMEOUT:g} s") from None

    async def wait_thread(self, name: str) -> int:
        try:
            async with asyncio.timeout(STEP_TIMEOUT):
                await self._named[name].wait()
        except TimeoutError:
            raise ScriptError(f"no thread {name!r} after {STEP_TIMEOUT:g} s") from None
        return self.thread_by_name[name]
