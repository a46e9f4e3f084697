"""What the harness needs to see inside the emulator as it happens: every acknowledgement
of a move the moment a player receives it (to time kills after one, and to tell later
which clicks were acknowledged), and the Gateway sessions a killed bot left behind."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.transcript import Action
from tests.discord_emulator.world import MessageRecord

ACK_MARK = "✅"
"""How the bot tells a player their move was played: the panel's ``✅ Gift: C D E (3CDE)``
or, after a Take, ``✅ You took E.`` (bot/words/locales/en.toml, panel.done and
panel.took), always in a message only that player sees."""


class AckWatch:
    """Records each acknowledgement as the emulator stores it, and calls `on_ack` then,
    before the bot has even had the HTTP answer to the request that carried it."""

    def __init__(self, emulator: DiscordEmulator, on_ack: Callable[[], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._on_ack = on_ack
        self.by_message: dict[int, list[tuple[float, str]]] = defaultdict(list)
        """message id -> (loop time, content) of each acknowledgement shown in it."""
        writer = emulator.writer
        create, update = writer.publish_create, writer.publish_update

        async def publish_create(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            payload = await create(message, action, response_type=response_type)
            self._seen(message)
            return payload

        async def publish_update(
            message: MessageRecord, action: Action, *, response_type: int | None = None
        ) -> dict[str, Any]:
            payload = await update(message, action, response_type=response_type)
            self._seen(message)
            return payload

        writer.publish_create = publish_create  # type: ignore[method-assign]
        writer.publish_update = publish_update  # type: ignore[method-assign]

    def _seen(self, message: MessageRecord) -> None:
        said = message.content or next(iter(MessageSnapshot.of(message).text_displays()), "")
        if message.ephemeral_to is not None and said.startswith(ACK_MARK):
            self.by_message[message.id].append((self._loop.time(), said))
            self._on_ack()


def end_dropped_sessions(emulator: DiscordEmulator) -> int:
    """End the Gateway sessions whose connection is gone.

    The emulator keeps a dropped session resumable and stores every later event for it, as
    Discord does for a while. A SIGKILLed process never resumes (its successor identifies
    afresh), so without this each kill would leave one more session collecting every event
    of the run."""
    ended = 0
    for session in emulator.gateway.live_sessions:
        if session.socket is None or session.socket.closed:
            session.ended = True
            ended += 1
    return ended
