"""Records what the match service and the features tell as it happens: matches started and
finished, decisions applied (from the service's events, as one more subscriber), decisions
refused (the features' ``refusal`` event) and how long a decision waits for the board that
shows it (the features' ``board_shown`` event).

The features tell it through discord.py's own event dispatch (``client.dispatch``), so no
feature holds the metrics, and with metrics off nobody listens and nothing is recorded.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import TypeVar

from bot.operations.metrics import BotMetrics
from engine.model import AI_USER_ID
from engine.service import StoreError
from engine.service.errors import ServiceError
from engine.service.events import (
    DecisionApplied,
    Event,
    MatchAbandoned,
    MatchEnded,
    MatchStarted,
)
from engine.service.matches.queries import MatchQueries

log = logging.getLogger(__name__)

V = TypeVar("V")

MOST_MATCHES_REMEMBERED = 10_000
"""Matches whose labels and unshown decisions are kept; the oldest are let go past it (a
match whose board is never edited again must not hold memory for ever)."""
MOST_UNSHOWN_PER_MATCH = 200


class ServiceRecorder:
    """Turns the service's events and the features' reports into metrics."""

    def __init__(self, metrics: BotMetrics, queries: MatchQueries) -> None:
        self._metrics = metrics
        self._queries = queries
        self._labels: OrderedDict[int, tuple[str, str]] = OrderedDict()
        """Per match: (variant, opponent), from its start, for the count of its end."""
        self._unshown: OrderedDict[int, list[tuple[int, float]]] = OrderedDict()
        """Per match: (version, when committed) of decisions its board does not show yet."""

    async def on_event(self, event: Event) -> None:
        """The service's subscriber."""
        if isinstance(event, DecisionApplied):
            self._decided(event)
        elif isinstance(event, MatchStarted):
            opponent = "player" if event.ai_level is None else "ai"
            labels = (event.variant.value, opponent)
            self._remember(self._labels, event.match_id, labels)
            self._metrics.matches_started.labels(*labels).inc()
        elif isinstance(event, MatchEnded):
            labels = await self._labels_of(event.match_id)
            self._metrics.matches_finished.labels(*labels, "result").inc()
        elif isinstance(event, MatchAbandoned) and event.started:
            labels = await self._labels_of(event.match_id)
            self._metrics.matches_finished.labels(*labels, "abandoned").inc()

    def _decided(self, event: DecisionApplied) -> None:
        if event.automatic:
            by = "timer"
        elif event.user_id == AI_USER_ID:
            by = "ai"
        else:
            by = "player"
        self._metrics.decisions_applied.labels(by).inc()
        unshown = self._unshown.get(event.match_id)
        if unshown is None:
            unshown = self._remember(self._unshown, event.match_id, [])
        if len(unshown) < MOST_UNSHOWN_PER_MATCH:
            unshown.append((event.version, time.perf_counter()))

    def board_shown(self, match_id: int, version: int) -> None:
        """The board of ``match_id`` was edited to show the match at ``version``."""
        unshown = self._unshown.get(match_id)
        if not unshown:
            return
        now = time.perf_counter()
        kept = []
        for decided_version, committed_at in unshown:
            if decided_version <= version:
                self._metrics.board_lag.observe(now - committed_at)
            else:
                kept.append((decided_version, committed_at))
        if kept:
            self._unshown[match_id] = kept
        else:
            del self._unshown[match_id]

    def refused(self, error: Exception) -> None:
        """A press or command the service refused with ``error`` (a closed set of types)."""
        self._metrics.decisions_refused.labels(type(error).__name__).inc()

    async def _labels_of(self, match_id: int) -> tuple[str, str]:
        known = self._labels.pop(match_id, None)
        if known is not None:
            return known
        # Started before this process did (or in another process): asked once, at its end.
        try:
            info = await self._queries.match_info(match_id)
        except (ServiceError, StoreError) as error:
            log.debug("match %s: labels unknown for its metrics: %s", match_id, error)
            return ("unknown", "unknown")
        return (info.variant.value, "player" if info.ai_level is None else "ai")

    @staticmethod
    def _remember(table: OrderedDict[int, V], match_id: int, value: V) -> V:
        table[match_id] = value
        if len(table) > MOST_MATCHES_REMEMBERED:
            table.popitem(last=False)
        return value
