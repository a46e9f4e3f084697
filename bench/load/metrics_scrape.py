"""``--metrics``: the bot runs with ``[metrics] port = 0`` and is scraped as Prometheus
would scrape it, every :data:`SCRAPE_SECONDS`, so the run's figures include the cost of
recording every metric and of serving /metrics; the last scrape's own figures are printed
beside the benchmark's."""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

SCRAPE_SECONDS = 5.0
"""A third of Prometheus' default interval: a harsher load than a real scraper's."""
_LISTENING = re.compile(rb"metrics and health checks on http://([^/\s]+)/")


@dataclass(slots=True)
class Scrapes:
    """What the scraper saw: how many scrapes, how long each took, the last body."""

    count: int = 0
    seconds: list[float] = field(default_factory=list)
    last: str = ""


def metrics_address(log_path: Path) -> str | None:
    """``host:port`` of the bot's metrics, from its log line (None if not open)."""
    found = _LISTENING.search(log_path.read_bytes())
    return found[1].decode() if found else None


async def scrape_every(address: str, scrapes: Scrapes) -> None:
    """Scrape ``address`` until cancelled."""
    async with aiohttp.ClientSession() as session:
        while True:
            await scrape_once(session, address, scrapes)
            await asyncio.sleep(SCRAPE_SECONDS)  # the scraper's interval, not a measurement


async def scrape_once(session: aiohttp.ClientSession, address: str, scrapes: Scrapes) -> None:
    """One scrape, kept in ``scrapes`` (a failed one is not counted)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    with contextlib.suppress(aiohttp.ClientError):
        async with session.get(f"http://{address}/metrics") as response:
            scrapes.last = await response.text()
            scrapes.count += 1
            scrapes.seconds.append(loop.time() - started)


async def last_scrape(address: str, scrapes: Scrapes) -> None:
    """The scrape after play, whose figures are printed."""
    async with aiohttp.ClientSession() as session:
        await scrape_once(session, address, scrapes)


def bot_figures(body: str) -> str:
    """The bot's own count of decisions and p99 first response, from its last scrape."""
    applied = 0.0
    buckets: dict[float, float] = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            if sample.name == "hanamikoji_decisions_applied_total":
                applied += sample.value
            elif sample.name == "hanamikoji_interaction_first_response_seconds_bucket":
                bound = float(sample.labels["le"])
                buckets[bound] = buckets.get(bound, 0.0) + sample.value
    total = buckets.get(math.inf, 0.0)
    p99 = next((b for b in sorted(buckets) if total and buckets[b] >= 0.99 * total), None)
    shown = "no data" if p99 is None else f"≤ {p99 * 1000:.0f} ms"
    return f"{applied:.0f} decisions applied, first response p99 {shown} (bucket bound)"
