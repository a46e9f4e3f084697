"""The outbox: what the public must be told is committed with the change that causes it,
and kept until the Discord layer confirms it was shown.

The events that change what people see in Discord — a match starting, a move, an offer,
a round's summary, a reminder, the result, an expired challenge, a season's podium, a
tournament's start, pairings, withdrawals and standings — become
:class:`~engine.store.announcement.Announcement` rows of the very write that commits their
cause (:mod:`.addresses` says which kinds and under which key).
They are published as before; the subscriber that shows one calls
:meth:`MatchService.announced` once Discord has taken it (or refused it for good). At
start-up every announcement still stored is published again, oldest first, so a crash
between a commit and Discord costs a delay, never a message. Confirmations are written in
the background, batched: one lost in a crash only means that announcement is shown again,
which the Discord layer makes harmless (messages carry a nonce, the board is an edit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable

from engine.service.announcing import event_codec
from engine.service.announcing.addresses import Address, address
from engine.service.announcing.event_bus import EventBus
from engine.service.events import Event
from engine.service.scheduling.pauses import pause
from engine.store.announcement import Announcement
from engine.store.errors import DatabaseUnavailable
from engine.store.match_store import MatchStore

log = logging.getLogger(__name__)

CONFIRM_RETRY_SECONDS = 5.0
"""How long confirmations that could not be written wait before the next try: lost, they
would be shown again at the next start, possibly past Discord's nonce window."""


class Outbox:
    """Turns events into announcements, publishes stored ones again, collects confirmations."""

    def __init__(self, store: MatchStore, bus: EventBus) -> None:
        self._store = store
        self._bus = bus
        self._confirmed: list[Address] = []
        self._writing: asyncio.Task[None] | None = None
        self._closing = False
        self._waiting: dict[Address, float] = {}
        """Announcements published and not yet shown: (match, key) -> when first published
        (``time.monotonic``); oldest first, since a dict keeps its insertion order."""
        bus.tap(self._published)

    def waiting(self) -> tuple[int, float]:
        """How many announcements wait to be shown, and how long the oldest has (seconds;
        0 when none waits)."""
        oldest = next(iter(self._waiting.values()), None)
        age = 0.0 if oldest is None else time.monotonic() - oldest
        return len(self._waiting), age

    def _published(self, event: Event) -> None:
        where = address(event)
        if where is not None:
            self._waiting.setdefault(where, time.monotonic())

    @staticmethod
    def announcements(events: Iterable[Event], at: float) -> list[Announcement]:
        """The rows to commit with the change that causes ``events``."""
        rows = []
        for event in events:
            where = address(event)
            if where is not None:
                rows.append(Announcement(where[0], where[1], event_codec.encode(event), at))
        return rows

    def publish(self, stored: Iterable[Announcement]) -> None:
        """Publish stored announcements again (``MatchStore.undelivered``, oldest first)."""
        for row in stored:
            try:
                event = event_codec.decode(row.match_id, row.body)
            except event_codec.EventCodecError as error:
                log.error("match %s: dropping announcement %r: %s", row.match_id, row.key, error)
                self._confirm((row.match_id, row.key))
                continue
            self._bus.publish(event)

    def announced(self, event: Event) -> None:
        """The Discord layer showed ``event`` (or Discord refused it for good)."""
        where = address(event)
        if where is not None:
            self._waiting.pop(where, None)
            self._confirm(where)

    async def close(self) -> None:
        """The store is about to close: write the confirmations collected so far, once,
        without waiting to retry."""
        self._closing = True
        if self._writing is not None and not self._writing.done():
            self._writing.cancel()  # it may be pausing before a retry
            with contextlib.suppress(asyncio.CancelledError):
                await self._writing
        if self._confirmed:
            self._writing = asyncio.create_task(self._write())
            await self._writing

    def _confirm(self, delivered: Address) -> None:
        self._confirmed.append(delivered)
        if self._writing is None or self._writing.done():
            self._writing = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        # Confirmations arriving while one batch is written go in the next.
        failures = 0
        while self._confirmed:
            batch, self._confirmed = self._confirmed, []
            try:
                await self._store.announced(batch)
            except asyncio.CancelledError:
                # close() stopped a write under way: it writes the batch again, once.
                self._confirmed[:0] = batch
                raise
            except Exception as error:
                self._confirmed[:0] = batch  # kept, in order, for the next try
                failures += 1
                # Once per spell, not per try (a full disk lasts); a database that does not
                # answer is told by the store itself.
                if failures == 1 and not isinstance(error, DatabaseUnavailable):
                    log.warning(
                        "could not record %d shown announcements (%s); trying again every %.0f s",
                        len(batch),
                        error,
                        CONFIRM_RETRY_SECONDS,
                    )
                if self._closing:
                    return  # shown again at the next start; the nonce makes that harmless
                await pause(CONFIRM_RETRY_SECONDS)  # real time: the disk, not a game
            else:
                failures = 0
