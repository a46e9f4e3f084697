"""The headline figures of ``/hanamikoji status``, read back from the metrics registry, so
the owner's view and Prometheus' never disagree."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from prometheus_client import CollectorRegistry

from bot.operations.metrics import PREFIX


@dataclass(frozen=True, slots=True)
class Headline:
    shards_connected: int
    shards: int
    latency_seconds: float | None
    """The slowest shard's last heartbeat; None before any."""
    matches_playing: int
    challenges_open: int
    decisions_applied: int
    decisions_refused: int
    first_response_p99: float | None
    """An upper bound: the histogram bucket the 99th percentile falls in (None: no data)."""
    board_lag_p99: float | None
    discord_requests: int
    rate_limited: int
    announcements_waiting: int
    oldest_announcement_seconds: float
    database_down: bool
    disk_full: bool
    ai_jobs_waiting: int
    reviews_running: int


def headline(registry: CollectorRegistry) -> Headline:
    """The figures now (sums over every label)."""
    sums: dict[str, float] = defaultdict(float)
    latencies: list[float] = []
    buckets: dict[str, dict[float, float]] = defaultdict(lambda: defaultdict(float))
    for family in registry.collect():
        for sample in family.samples:
            name = sample.name.removeprefix(PREFIX)
            if name.endswith("_bucket"):
                bound = float(sample.labels["le"])
                buckets[name.removesuffix("_bucket")][bound] += sample.value
            elif name == "gateway_latency_seconds":
                latencies.append(sample.value)
            elif name == "matches_open":
                sums[f"matches_open_{sample.labels['state']}"] += sample.value
            else:
                sums[name] += sample.value
    return Headline(
        shards_connected=int(sums["gateway_shards_connected"]),
        shards=int(sums["gateway_shards"]),
        latency_seconds=max(latencies) if latencies else None,
        matches_playing=int(sums["matches_open_playing"]),
        challenges_open=int(sums["matches_open_challenge"]),
        decisions_applied=int(sums["decisions_applied_total"]),
        decisions_refused=int(sums["decisions_refused_total"]),
        first_response_p99=quantile_bound(buckets["interaction_first_response_seconds"], 0.99),
        board_lag_p99=quantile_bound(buckets["board_update_lag_seconds"], 0.99),
        discord_requests=int(sums["discord_requests_total"]),
        rate_limited=int(sums["discord_rate_limited_total"]),
        announcements_waiting=int(sums["announcements_waiting"]),
        oldest_announcement_seconds=sums["announcement_oldest_age_seconds"],
        database_down=bool(sums["database_unavailable"]),
        disk_full=bool(sums["database_disk_full"]),
        ai_jobs_waiting=int(sums["ai_jobs_waiting"]),
        reviews_running=int(sums["reviews_running"]),
    )


def quantile_bound(cumulative: dict[float, float], q: float) -> float | None:
    """The smallest bucket bound holding a ``q`` share of the observations.

    >>> quantile_bound({0.1: 90.0, 0.5: 99.0, 1.0: 100.0, math.inf: 100.0}, 0.99)
    0.5
    >>> quantile_bound({math.inf: 0.0}, 0.99) is None
    True
    """
    total = cumulative.get(math.inf, 0.0)
    if total <= 0:
        return None
    for bound in sorted(cumulative):
        if cumulative[bound] >= q * total:
            return bound
    return math.inf
