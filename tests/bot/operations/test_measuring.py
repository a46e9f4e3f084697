"""The pieces that turn the bot's work into metrics, each on its own."""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor

import pytest
import yarl

from bot.operations.counted_executor import CountedExecutor
from bot.operations.headline import headline
from bot.operations.metrics import BotMetrics, ShardState
from bot.operations.readiness import Readiness, shards_check
from bot.operations.rest_trace import FirstResponses, route_family
from bot.operations.status_command import status_table
from bot.operations.timed_store import timed_store
from engine.store.errors import DatabaseUnavailable
from engine.store.sqlite import SqliteMatchStore


@pytest.mark.parametrize(
    ("url", "family"),
    [
        ("https://discord.com/api/v10/channels/1234/messages/5678", "/channels/{id}/messages/{id}"),
        (
            "https://discord.com/api/v10/webhooks/11/aW50ZXJhY3Rpb246MTIz.ab-CD/messages/@original",
            "/webhooks/{id}/{token}/messages/@original",
        ),
        (
            "https://discord.com/api/v10/channels/1/threads/archived/public",
            "/channels/{id}/threads/archived/public",
        ),
        ("http://127.0.0.1:8/api/v10/users/@me", "/users/@me"),
        (
            "http://127.0.0.1:8/api/v10/channels/1/messages/2/reactions/%F0%9F%8E%B4/@me",
            "/channels/{id}/messages/{id}/reactions/{token}/@me",
        ),
    ],
)
def test_a_route_family_keeps_no_id_and_no_token(url, family):
    assert route_family(yarl.URL(url)) == family


def value(metrics: BotMetrics, name: str, **labels: str) -> float:
    found = metrics.registry.get_sample_value(name, labels)
    return 0.0 if found is None else found


def test_a_first_response_is_timed_once_by_kind_and_pings_are_not():
    metrics = BotMetrics()
    responses = FirstResponses(metrics)
    responses.arrived(1, "component")
    responses.arrived(2, "ping")
    responses.answered(1)
    responses.answered(1)  # a second callback is not a first response
    responses.answered(2)
    count = "hanamikoji_interaction_first_response_seconds_count"
    assert value(metrics, count, kind="component") == 1
    assert sum(value(metrics, count, kind=k) for k in ("application_command", "autocomplete")) == 0


async def test_store_calls_are_timed_by_operation_and_the_store_is_untouched(tmp_path):
    metrics = BotMetrics()
    store = SqliteMatchStore(tmp_path / "m.sqlite3")
    timed = timed_store(store, metrics.database_calls)
    await timed.open()
    try:
        assert await timed.get_match(1) is None
        assert timed.shared is False  # attributes pass through as they are
        await timed.ping()
    finally:
        await timed.close()
    count = "hanamikoji_database_call_seconds_count"
    assert value(metrics, count, store="sqlite", operation="get_match") == 1
    assert value(metrics, count, store="sqlite", operation="ping") == 1


async def test_ai_jobs_are_counted_while_they_wait_and_timed_when_done():
    metrics = BotMetrics()
    release = asyncio.Event()
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1) as pool:
        counted = CountedExecutor(pool, metrics.ai_jobs_waiting, metrics.ai_job_seconds)
        gate = asyncio.run_coroutine_threadsafe(release.wait(), loop)
        job = loop.run_in_executor(counted, gate.result)
        assert value(metrics, "hanamikoji_ai_jobs_waiting") == 1
        release.set()
        await job
    assert value(metrics, "hanamikoji_ai_jobs_waiting") == 0
    assert value(metrics, "hanamikoji_ai_job_seconds_count") == 1


def test_readiness_names_the_disconnected_shards():
    states = [ShardState(0, True, 0.05), ShardState(1, False, math.nan)]
    check = shards_check(states)
    assert not check.ok
    assert check.detail == "1 of 2 shards disconnected: 1"
    assert shards_check([]).detail == "no shard has connected yet"


async def test_a_database_that_refuses_fails_readiness_with_its_reason():
    async def ping() -> None:
        raise DatabaseUnavailable("db.sqlite3", "another connection held the database locked")

    readiness = Readiness(lambda: [ShardState(0, True, 0.01)], lambda: True, ping)
    report = await readiness.report()
    assert not report.ready
    checks = report.as_json()["checks"]
    assert isinstance(checks, dict)
    assert checks["database"]["ok"] is False
    assert "locked" in checks["database"]["detail"]
    assert checks["shards"]["ok"] and checks["migrations"]["ok"]


async def test_a_service_not_started_is_not_ready_and_its_database_not_probed():
    probed = []

    async def ping() -> None:
        probed.append(1)

    report = await Readiness(lambda: [ShardState(0, True, 0.01)], lambda: False, ping).report()
    assert not report.ready
    assert probed == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_status_table_reads_the_registry(lang):
    metrics = BotMetrics()
    metrics.decisions_applied.labels("player").inc(3)
    metrics.decisions_refused.labels("NotYourTurn").inc()
    metrics.first_response.labels("component").observe(0.02)
    figures = headline(metrics.registry)
    assert (figures.decisions_applied, figures.decisions_refused) == (3, 1)
    assert figures.first_response_p99 == 0.025
    assert figures.board_lag_p99 is None
    table = status_table(lang, figures)
    assert "3" in table and "25 ms" in table
    assert table.count("\n") >= 10
