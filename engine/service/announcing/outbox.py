"""The outbox: what the public must be told is committed with the change that causes it,
and kept until the Discord layer confirms it was shown.

The events that change what people see in Discord — a match starting, a move, an offer,
a round's summary, a reminder, the result, an expired challenge — become
:class:`~engine.model.Announcement` rows of the very write that commits their cause.
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
from engine.service.announcing.event_bus import EventBus
from engine.service.events import (
    ChallengeExpired,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.store.announcement import Announcement
from engine.store.errors import DatabaseUnavailable
from engine.store.match_store import MatchStore

log = logging.getLogger(__name__)

CONFIRM_RETRY_SECONDS = 5.0
"""How long confirmations that could not be written wait before the next try: lost, they
would be shown again at the next start, possibly past Discord's nonce window."""

ANNOUNCED = (
    MatchStarted,
    DecisionApplied,
    ChoiceNeeded,
    RoundScored,
    Reminder,
    MatchEnded,
    ChallengeExpired,
)
"""The kinds of event kept in the outbox; the others are only published."""


def announcement_key(event: Event) -> str | None:
    """The event's key within its match (None for a kind that is not announced)."""
    if isinstance(event, DecisionApplied):
        return f"decision@{event.version}"
    if isinstance(event, ChoiceNeeded):
        return f"choice@{event.version}"
    if isinstance(event, RoundScored):
        return f"round@{event.version}"
    if isinstance(event, Reminder):
        return f"reminder@{event.version}"
    if isinstance(event, MatchStarted):
        return "started"
    if isinstance(event, MatchEnded):
        return "ended"
    if isinstance(event, ChallengeExpired):
        return "expired"
    return None


class Outbox:
    """Turns events into announcements, publishes stored ones again, collects confirmations."""

    def __init__(self, store: MatchStore, bus: EventBus) -> None:
        self._store = store
        self._bus = bus
        self._confirmed: list[tuple[int, str]] = []
        self._writing: asyncio.Task[None] | None = None
        self._closing = False
        self._waiting: dict[tuple[int, str], float] = {}
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
        key = announcement_key(event)
        if key is not None:
            self._waiting.setdefault((event.match_id, key), time.monotonic())

    @staticmethod
    def announcements(events: Iterable[Event], at: float) -> list[Announcement]:
        """The rows to commit with the change that causes ``events``."""
        rows = []
        for event in events:
            key = announcement_key(event)
            if key is not None:
                rows.append(Announcement(event.match_id, key, event_codec.encode(event), at))
        return rows

    def publish(self, stored: Iterable[Announcement]) -> None:
        """Publish stored announcements again (``MatchStore.undelivered``, oldest first)."""
        for row in stored:
            try:
                event = event_codec.decode(row.match_id, row.body)
            except event_codec.EventCodecError as error:
                log.error("match %d: dropping announcement %r: %s", row.match_id, row.key, error)
                self._confirm((row.match_id, row.key))
                continue
            self._bus.publish(event)

    def announced(self, event: Event) -> None:
        """The Discord layer showed ``event`` (or Discord refused it for good)."""
        key = announcement_key(event)
        if key is not None:
            self._waiting.pop((event.match_id, key), None)
            self._confirm((event.match_id, key))

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

    def _confirm(self, delivered: tuple[int, str]) -> None:
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
                await asyncio.sleep(CONFIRM_RETRY_SECONDS)  # real time: the disk, not a game
            else:
                failures = 0
