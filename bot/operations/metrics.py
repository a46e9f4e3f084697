"""Every metric the bot publishes, defined once, in a registry of its own per bot (tests run
several bots in one process, and prometheus_client's default registry is global).

Labels are bounded: kinds, variants, route families, store operations; never a user, a
match, a server or a channel id. The counts the service holds anyway (open matches, the
outbox, the database's state) and the shards' state are read when scraped, not kept twice
(:class:`LiveFigures`); the rest is recorded as it happens by the bot's hooks
(:mod:`bot.operations.recorder`, :mod:`bot.operations.rest_trace`,
:mod:`bot.operations.timed_store`, :mod:`bot.operations.counted_executor`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from engine.rules import Variant
from engine.service.figures import ServiceFigures

PREFIX = "hanamikoji_"

INTERACTION_KINDS = ("application_command", "component", "modal_submit", "autocomplete")
"""Discord's interaction types the bot answers (discord.InteractionType names)."""
OPPONENTS = ("player", "ai")
DECIDERS = ("player", "ai", "timer")
"""Who made a decision: a player, the AI's seat, the AI for a player whose time ran out."""
LIMITS = ("global", "exempt")
"""A REST request under Discord's global limit, or an exempt interaction callback/webhook."""
RATE_LIMIT_SCOPES = ("global", "user", "shared", "unknown")
"""``X-RateLimit-Scope`` of a 429 (Discord's "Rate Limits" page), "unknown" when absent."""

FIRST_RESPONSE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
BOARD_LAG_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
DATABASE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
PACER_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
AI_JOB_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


@dataclass(frozen=True, slots=True)
class ShardState:
    shard_id: int
    connected: bool
    latency_seconds: float
    """The last heartbeat's round trip; NaN before the first."""


@dataclass(slots=True)
class Sources:
    """Where the figures read at scrape time come from (set once the bot has built them)."""

    service: Callable[[], ServiceFigures] | None = None
    shards: Callable[[], Iterable[ShardState]] | None = None


class LiveFigures(Collector):
    """The gauges read from the service, the shards and the store when scraped."""

    def __init__(self, sources: Sources) -> None:
        self._sources = sources

    def describe(self) -> Iterable[Metric]:
        # Named up front, so the registry refuses a clash at registration, not per scrape.
        return list(self._families(None, []))

    def collect(self) -> Iterable[Metric]:
        sources = self._sources
        service = sources.service() if sources.service else None
        shards = list(sources.shards()) if sources.shards else []
        return list(self._families(service, shards))

    @staticmethod
    def _families(service: ServiceFigures | None, shards: list[ShardState]) -> Iterator[Metric]:
        open_matches = GaugeMetricFamily(
            PREFIX + "matches_open",
            "Open matches this process holds: challenges waiting for an answer, matches "
            "being played.",
            labels=["state"],
        )
        waiting = GaugeMetricFamily(
            PREFIX + "announcements_waiting",
            "Announcements (moves, offers, results...) committed and not yet shown in Discord.",
        )
        oldest = GaugeMetricFamily(
            PREFIX + "announcement_oldest_age_seconds",
            "How long the oldest announcement not yet shown has waited (0: none waits).",
        )
        reviews = GaugeMetricFamily(
            PREFIX + "reviews_running", "Review analyses under way (one searches at a time)."
        )
        if service is not None:
            open_matches.add_metric(["challenge"], service.challenges_open)
            open_matches.add_metric(["playing"], service.matches_playing)
            waiting.add_metric([], service.announcements_waiting)
            oldest.add_metric([], service.oldest_announcement_seconds)
            reviews.add_metric([], service.reviews_running)
        yield from (open_matches, waiting, oldest, reviews)
        connected = GaugeMetricFamily(
            PREFIX + "gateway_shards_connected", "Shards of this process connected to the Gateway."
        )
        total = GaugeMetricFamily(PREFIX + "gateway_shards", "Shards this process runs.")
        latency = GaugeMetricFamily(
            PREFIX + "gateway_latency_seconds",
            "Round trip of each shard's last Gateway heartbeat.",
            labels=["shard"],
        )
        connected.add_metric([], sum(shard.connected for shard in shards))
        total.add_metric([], len(shards))
        for shard in shards:
            if math.isfinite(shard.latency_seconds):
                latency.add_metric([str(shard.shard_id)], shard.latency_seconds)
        yield from (connected, total, latency)
        down = GaugeMetricFamily(
            PREFIX + "database_unavailable", "1 while the database does not answer."
        )
        full = GaugeMetricFamily(
            PREFIX + "database_disk_full", "1 while writes are refused for a full disk (SQLite)."
        )
        in_use = GaugeMetricFamily(
            PREFIX + "database_connections_in_use",
            "Database connections running a call (PostgreSQL: of the pool; SQLite: 0 or 1).",
        )
        if service is not None:
            down.add_metric([], int(service.database_down))
            full.add_metric([], int(service.disk_full))
            in_use.add_metric([], service.connections_in_use)
        yield from (down, full, in_use)


class BotMetrics:
    """The bot's metrics in their own registry; :meth:`exposition` is what /metrics serves."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.sources = Sources()
        registry = self.registry
        self.matches_started = Counter(
            PREFIX + "matches_started",
            "Matches started (challenges accepted, matches against the AI, rematches).",
            ["variant", "opponent"],
            registry=registry,
        )
        self.matches_finished = Counter(
            PREFIX + "matches_finished",
            "Matches ended: with a result, or abandoned when their place was deleted.",
            ["variant", "opponent", "end"],
            registry=registry,
        )
        self.decisions_applied = Counter(
            PREFIX + "decisions_applied",
            "Decisions committed, by who decided (a player, the AI's seat, the AI for a "
            "player whose turn timer ran out).",
            ["by"],
            registry=registry,
        )
        self.decisions_refused = Counter(
            PREFIX + "decisions_refused",
            "Presses and commands the match service refused, by the refusal's kind.",
            ["reason"],
            registry=registry,
        )
        self.first_response = Histogram(
            PREFIX + "interaction_first_response_seconds",
            "From an interaction's arrival to Discord accepting the bot's first response "
            "(Discord allows 3 s).",
            ["kind"],
            buckets=FIRST_RESPONSE_BUCKETS,
            registry=registry,
        )
        self.board_lag = Histogram(
            PREFIX + "board_update_lag_seconds",
            "From a decision's commit to the edit of the match's board that shows it.",
            buckets=BOARD_LAG_BUCKETS,
            registry=registry,
        )
        self.discord_requests = Counter(
            PREFIX + "discord_requests",
            "REST requests to Discord, by route family and whether the global limit counts them.",
            ["route", "limit"],
            registry=registry,
        )
        self.rate_limited = Counter(
            PREFIX + "discord_rate_limited",
            "429 answers from Discord, by X-RateLimit-Scope.",
            ["scope"],
            registry=registry,
        )
        self.pacer_wait = Histogram(
            PREFIX + "discord_pacer_wait_seconds",
            "How long a request under the global limit waited for the bot's own pace, by "
            "who waits for it (board, opening, background, unmarked).",
            ["urgency"],
            buckets=PACER_BUCKETS,
            registry=registry,
        )
        self.database_calls = Histogram(
            PREFIX + "database_call_seconds",
            "Database calls of the match service, by store and operation (failures too).",
            ["store", "operation"],
            buckets=DATABASE_BUCKETS,
            registry=registry,
        )
        self.ai_jobs_waiting = Gauge(
            PREFIX + "ai_jobs_waiting",
            "AI jobs (moves, hints, review analyses) submitted to the AI worker and not done.",
            registry=registry,
        )
        self.ai_job_seconds = Histogram(
            PREFIX + "ai_job_seconds",
            "From an AI job's submission to its result (queueing included).",
            buckets=AI_JOB_BUCKETS,
            registry=registry,
        )
        registry.register(LiveFigures(self.sources))
        self._zero_known_labels()

    def _zero_known_labels(self) -> None:
        """Every label value known in advance shows from the start, at 0: a rate over a
        series that appears only at its first event misses that event."""
        for variant in Variant:
            for opponent in OPPONENTS:
                self.matches_started.labels(variant.value, opponent)
                for end in ("result", "abandoned"):
                    self.matches_finished.labels(variant.value, opponent, end)
        for by in DECIDERS:
            self.decisions_applied.labels(by)
        for kind in INTERACTION_KINDS:
            self.first_response.labels(kind)
        for scope in RATE_LIMIT_SCOPES:
            self.rate_limited.labels(scope)

    def exposition(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)
