"""Delivery of events to subscribers: each has its own queue and task, so one slow or
failing subscriber never holds up the service or the other subscribers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from engine.service.events import Event
from engine.store.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], Awaitable[None]]
Tap = Callable[[Event], None]
"""Told of each event as it is published, before any subscriber: bookkeeping only."""


class _Subscription:
    __slots__ = ("callback", "pending", "queue", "task")

    def __init__(self, callback: Subscriber) -> None:
        self.callback = callback
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.pending = 0
        """Events queued or being handled."""


class EventBus:
    def __init__(self, warn_backlog: int = 1000) -> None:
        self._subscriptions: list[_Subscription] = []
        self._taps: list[Tap] = []
        self._warn_backlog = warn_backlog

    def tap(self, callback: Tap) -> None:
        """Call ``callback`` with every later event as it is published (it must not wait)."""
        self._taps.append(callback)

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Deliver every later event to ``callback``, in order; returns an unsubscribe."""
        subscription = _Subscription(callback)
        self._subscriptions.append(subscription)

        def unsubscribe() -> None:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)
            if subscription.task is not None:
                subscription.task.cancel()

        return unsubscribe

    def publish(self, event: Event) -> None:
        """Queue ``event`` for every subscriber; never waits."""
        for tap in self._taps:
            tap(event)
        for subscription in self._subscriptions:
            subscription.queue.put_nowait(event)
            subscription.pending += 1
            if subscription.task is None:
                subscription.task = asyncio.get_running_loop().create_task(
                    self._deliver(subscription)
                )
            backlog = subscription.queue.qsize()
            if backlog and backlog % self._warn_backlog == 0:
                log.warning("subscriber %r is %d events behind", subscription.callback, backlog)

    async def drain(self) -> None:
        """Wait until every queued event has been handed to its subscriber."""
        for subscription in list(self._subscriptions):
            if subscription.task is not None and not subscription.task.done():
                await subscription.queue.join()

    def has_backlog(self) -> bool:
        return any(s.pending for s in self._subscriptions)

    async def close(self, grace_seconds: float) -> None:
        """Give subscribers ``grace_seconds`` to catch up, then stop delivering."""
        try:
            await asyncio.wait_for(self.drain(), grace_seconds)
        except TimeoutError:
            log.warning("stopped delivering events with subscribers still behind")
        for subscription in self._subscriptions:
            if subscription.task is not None:
                subscription.task.cancel()
        self._subscriptions.clear()

    async def _deliver(self, subscription: _Subscription) -> None:
        while True:
            event = await subscription.queue.get()
            try:
                await subscription.callback(event)
            except DatabaseUnavailable as error:
                # Told once by the store for the whole outage, not once per event.
                log.debug("subscriber %r waits for the database: %s", subscription.callback, error)
            except Exception:
                # A subscriber's bug must not stop the match; the next event still goes out.
                log.exception("subscriber %r failed on %r", subscription.callback, event)
            finally:
                subscription.pending -= 1
                subscription.queue.task_done()
