"""The operator's window on a running bot, as Prometheus and the host see it: the bot is
started against the emulator with ``[metrics] port = 0`` (a free loopback port), a match is
played through the UI, and /metrics is scraped with a real HTTP client and read with
prometheus_client's own parser; /readyz fails while the Gateway is away or the database is
frozen, and recovers, while /healthz stays up; ``/hanamikoji status`` shows the figures to
the application's owner only."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.words.i18n import text
from tests.discord_emulator.users import EmulatedUser
from tests.e2e.cluster import eventually
from tests.e2e.players import answered, challenge_and_accept, play_decision, settle
from tests.e2e.test_database_stall import write_lock_held

pytestmark = pytest.mark.slow

OPERATING = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
METRICS_ON = {"port": 0}


def as_owner(emulator) -> EmulatedUser:
    """The application's owner (the emulator's guild owner) at the keyboard."""
    return EmulatedUser(emulator, emulator.world.owner)


def documented_metrics() -> set[str]:
    """The metric names the table of docs/operating.md lists (``hanamikoji_…`` in its
    first column)."""
    rows = re.findall(r"^\| `(hanamikoji_[a-z0-9_]+)`", OPERATING.read_text(), re.MULTILINE)
    assert rows, "docs/operating.md lists no metric"
    return set(rows)


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(port: int) -> dict[str, list[Sample]]:
    """Each metric family's samples, as Prometheus would read them."""
    status, body = await fetch(port, "/metrics")
    assert status == 200
    return {family.name: family.samples for family in text_string_to_metric_families(body)}


def total(samples: Iterable[Sample], name: str, **labels: str) -> float:
    """The sum of the samples called ``name`` whose labels include ``labels``."""
    return sum(
        s.value
        for s in samples
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
    )


def family_name(metric: str) -> str:
    """The family a documented name belongs to (the parser drops a counter's ``_total``)."""
    return metric.removesuffix("_total")


async def test_metrics_move_as_a_match_is_played(emulator, start_bot):
    bot = await start_bot(metrics_settings=METRICS_ON)
    port = bot.operations_port
    assert port is not None
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(29)
    while (await bot.service.queries.match_info(match.match_id)).status.value != "finished":
        await play_decision(emulator, bot, match, rng)
    await settle(emulator, bot)
    decisions = await bot.service.store.decisions(match.match_id)

    families = await scrape(port)
    missing = {m for m in documented_metrics() if family_name(m) not in families}
    assert not missing, f"documented but not served: {sorted(missing)}"
    samples = [s for found in families.values() for s in found]

    def count(name: str, **labels: str) -> float:
        return total(samples, name, **labels)

    applied = count("hanamikoji_decisions_applied_total")
    assert applied == count("hanamikoji_decisions_applied_total", by="player") == len(decisions)
    started = {"variant": "standard", "opponent": "player"}
    assert count("hanamikoji_matches_started_total", **started) == 1
    assert count("hanamikoji_matches_finished_total", **started, end="result") == 1
    assert count("hanamikoji_matches_open", state="playing") == 0
    assert count("hanamikoji_announcements_waiting") == 0
    # Every press got a first response, and every decision a board edit that showed it.
    pressed = count("hanamikoji_interaction_first_response_seconds_count", kind="component")
    assert pressed >= len(decisions)
    assert count("hanamikoji_interaction_first_response_seconds_count", kind="application_command")
    assert count("hanamikoji_board_update_lag_seconds_count") == len(decisions)
    assert count("hanamikoji_discord_requests_total", limit="exempt") >= pressed
    assert count("hanamikoji_discord_requests_total", limit="global") > 0
    assert count("hanamikoji_discord_rate_limited_total", scope="global") == 0
    # Each decision is one write: appended, or (the last) committed with the result.
    appended = count("hanamikoji_database_call_seconds_count", operation="append_decision")
    finished = count("hanamikoji_database_call_seconds_count", operation="finish_match")
    assert (appended, finished) == (len(decisions) - 1, 1)
    assert count("hanamikoji_gateway_shards_connected") == count("hanamikoji_gateway_shards") == 1
    assert count("hanamikoji_database_unavailable") == count("hanamikoji_database_disk_full") == 0
    assert count("hanamikoji_ai_job_seconds_count") == 0, "nobody played the AI"
    # Label values stay bounded: no id of a user, a match, a server or a channel.
    ids = {str(u.id) for u in match.players} | {str(match.match_id), str(match.thread_id)}
    assert not {v for s in samples for v in s.labels.values()} & ids


async def test_readiness_follows_the_gateway_and_the_database_health_stays_up(emulator, start_bot):
    bot = await start_bot(
        metrics_settings=METRICS_ON, database_settings={"busy_timeout_seconds": 2.0}
    )
    port = bot.operations_port
    assert port is not None

    async def readiness() -> tuple[int, dict[str, Any]]:
        status, body = await fetch(port, "/readyz")
        return status, json.loads(body)

    async def is_ready() -> bool:
        return (await readiness())[0] == 200

    async def healthy() -> bool:
        status, _ = await fetch(port, "/healthz")
        return status == 200

    await eventually(is_ready, "readiness once started")
    gateway = emulator.gateway
    (session,) = gateway.live_sessions
    async with gateway.holding_connections():
        await gateway.drop_abruptly(session)
        await gateway.wait_for_disconnect(session)

        async def shards_down() -> dict[str, Any] | None:
            status, body = await readiness()
            return body if status == 503 and not body["checks"]["shards"]["ok"] else None

        body = await eventually(shards_down, "/readyz failing with the Gateway away")
        assert "disconnected" in body["checks"]["shards"]["detail"]
        assert body["checks"]["database"]["ok"]
        assert await healthy()
    await eventually(is_ready, "readiness once the shard is back")

    async with write_lock_held(bot.service.store.path):

        async def database_down() -> dict[str, Any] | None:
            status, body = await readiness()
            return body if status == 503 and not body["checks"]["database"]["ok"] else None

        body = await eventually(database_down, "/readyz failing with the database frozen")
        assert body["checks"]["shards"]["ok"]
        assert await healthy()
    await eventually(is_ready, "readiness once the database answers")


async def test_status_is_shown_to_the_owner_only(emulator, start_bot):
    bot = await start_bot(metrics_settings=METRICS_ON)
    await challenge_and_accept(emulator, bot)
    owner, ana = as_owner(emulator), emulator.user("ana")
    refused = await answered(await ana.slash("hanamikoji status"))
    assert refused.ephemeral
    assert refused.content == text("en", "operations.refused")
    shown = await answered(await owner.slash("hanamikoji status"))
    assert shown.ephemeral
    assert text("en", "operations.title") in shown.content
    assert re.search(r"Open matches +1 playing, 0 challenges", shown.content), shown.content
    assert re.search(r"Shards +1/1 connected", shown.content), shown.content


async def test_without_a_metrics_port_there_is_no_status_command(emulator, bot):
    owner = as_owner(emulator)
    with pytest.raises(Exception, match="status"):
        await owner.slash("hanamikoji status")
    assert bot.operations_port is None
