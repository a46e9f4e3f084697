"""Discord's rate limits as the emulator enforces them, one test per rule."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_emulator import DiscordEmulator, start_client
from tests.discord_emulator.rate_limits import MESSAGE_CREATE, BucketSize, bucket_hash

MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


async def call(
    session: aiohttp.ClientSession,
    emulator: DiscordEmulator,
    method: str,
    path: str,
    *,
    token: str | None = None,
    json: dict[str, Any] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """One raw request, as a client that ignores every rate-limit header would send it."""
    token = emulator.bot_token if token is None else token
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with session.request(
        method, emulator.api_base + path, headers=headers, json=json
    ) as response:
        body = await response.json() if response.content_type == "application/json" else None
        return response.status, body, dict(response.headers)


def send(session: aiohttp.ClientSession, emulator: DiscordEmulator, channel_id: int):
    return call(
        session, emulator, "POST", f"/channels/{channel_id}/messages", json={"content": "x"}
    )


async def test_the_global_limit_answers_the_request_over_it_within_a_second(emulator, session):
    # Discord's limit is 50; 10 here, so the requests surely fall in one second even on a
    # busy machine.
    emulator.rate_limits.settings.global_per_second = 10
    statuses = [
        (await call(session, emulator, "GET", f"/guilds/{emulator.guild_id}"))[0] for _ in range(10)
    ]
    status, body, headers = await call(session, emulator, "GET", "/users/@me")

    assert statuses == [200] * 10
    assert status == 429
    assert body["global"] is True and body["message"] == "You are being rate limited."
    assert 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert int(headers["Retry-After"]) >= 1 and headers["Via"]
    assert emulator.rate_limits.stats.sent_429s["global"] == 1
    assert emulator.failures == []  # a 429 is discord.py's to handle, not a failure
    await asyncio.sleep(body["retry_after"])
    assert (await call(session, emulator, "GET", "/users/@me"))[0] == 200


async def test_interaction_endpoints_are_exempt_from_the_global_limit(emulator, session):
    for n in range(60):
        status, _, _ = await call(
            session, emulator, "POST", f"/interactions/{n}/token-{n}/callback", token=""
        )
        assert status == 404  # unknown interactions, but never a 429
    statuses = [(await call(session, emulator, "GET", "/users/@me"))[0] for _ in range(50)]

    assert statuses == [200] * 50
    stats = emulator.rate_limits.stats
    assert (stats.exempt, stats.global_counted, stats.sent_429s["global"]) == (60, 50, 0)
    assert len(emulator.take_failures()) == 60


async def test_every_response_carries_its_bucket_and_remaining_counts_down(emulator, session):
    answers = [await send(session, emulator, emulator.channel.id) for _ in range(3)]

    assert [status for status, _, _ in answers] == [200] * 3
    assert [headers["X-RateLimit-Remaining"] for _, _, headers in answers] == ["4", "3", "2"]
    for _, _, headers in answers:
        assert headers["X-RateLimit-Limit"] == "5"
        assert headers["X-RateLimit-Bucket"] == bucket_hash(MESSAGE_CREATE)
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
        assert abs(float(headers["X-RateLimit-Reset"]) - time.time() - 5.0) < 1.0
    _, _, fetched = await call(session, emulator, "GET", f"/channels/{emulator.channel.id}")
    assert fetched["X-RateLimit-Bucket"] != bucket_hash(MESSAGE_CREATE)
    assert fetched["X-RateLimit-Remaining"] == "49"


async def test_message_buckets_are_per_channel(emulator, session):
    other = await emulator.add_text_channel("other")
    for _ in range(5):
        assert (await send(session, emulator, emulator.channel.id))[0] == 200
    status, body, headers = await send(session, emulator, emulator.channel.id)

    assert status == 429
    assert body["global"] is False and 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Bucket"] == bucket_hash(MESSAGE_CREATE)
    assert "Retry-After" in headers and headers["Via"]
    (exhausted,) = emulator.rate_limits.exhausted_buckets()
    assert exhausted.startswith(f"{MESSAGE_CREATE} [{emulator.channel.id}]")
    status, _, headers = await send(session, emulator, other.id)
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert emulator.rate_limits.stats.sent_429s["user"] == 1


async def test_discord_py_waits_on_the_headers_and_never_gets_a_429(emulator):
    # A smaller window than the default 5 s, only to keep this test fast.
    window = 0.5
    emulator.rate_limits.settings.buckets[MESSAGE_CREATE] = BucketSize(5, window)
    running = await start_client(emulator, discord.Client(intents=discord.Intents.default()))
    channel = running.client.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)

    started = time.perf_counter()
    await asyncio.gather(*(channel.send(f"burst {n}") for n in range(12)))
    elapsed = time.perf_counter() - started

    assert sum(emulator.rate_limits.stats.sent_429s.values()) == 0
    assert len([m for m in emulator.world.messages.values() if m.channel_id == channel.id]) == 12
    assert elapsed >= 2 * window * 0.9  # 12 messages span three windows of 5
    await running.stop()


async def test_invalid_requests_are_counted_and_too_many_get_a_cloudflare_ban(emulator, session):
    limits = emulator.rate_limits
    limits.settings.invalid_request_threshold = 4
    ana = emulator.user("ana")
    ana.close_dms()
    dm = emulator.world.dm_channel_with(ana.id)
    emulator.faults.rate_limit(MESSAGES, method="POST", retry_after=0.01)
    limits.storm("/users/@me", seconds=5, scope="shared")

    assert (await send(session, emulator, emulator.channel.id))[0] == 429  # the fault
    assert (await call(session, emulator, "GET", "/users/@me", token="wrong"))[0] == 401
    assert (await send(session, emulator, dm.id))[0] == 403
    assert (await call(session, emulator, "GET", "/users/@me"))[0] == 429  # shared: not counted
    assert (await call(session, emulator, "GET", "/users/@me", token="wrong"))[0] == 401
    assert (limits.invalid_in_window(), limits.banned) == (4, False)
    assert (await call(session, emulator, "GET", "/users/@me", token="wrong"))[0] == 401
    assert limits.banned

    status, body, headers = await call(session, emulator, "GET", f"/guilds/{emulator.guild_id}")
    assert status == 429 and body is None and "Via" not in headers
    assert limits.stats.sent_429s["cloudflare"] == 1
    assert limits.stats.invalid_requests == 5
    failures = emulator.take_failures()
    assert [f.status for f in failures] == [401, 403, 401, 401, 429]
    assert "Cloudflare ban" in failures[-1].detail
    limits.lift_ban()
    assert (await call(session, emulator, "GET", f"/guilds/{emulator.guild_id}"))[0] == 200


async def test_a_storm_answers_429_for_its_duration_then_lets_requests_through(emulator, session):
    storm = emulator.rate_limits.storm(MESSAGES, method="POST", seconds=60, retry_after=0.05)
    for _ in range(3):
        status, body, headers = await send(session, emulator, emulator.channel.id)
        assert status == 429 and body["retry_after"] == 0.05 and not body["global"]
        assert headers["X-RateLimit-Scope"] == "user" and headers["Via"]
        assert headers["X-RateLimit-Bucket"] == bucket_hash(MESSAGE_CREATE)
    assert (await call(session, emulator, "GET", f"/channels/{emulator.channel.id}"))[0] == 200

    storm.end()
    assert (await send(session, emulator, emulator.channel.id))[0] == 200
    assert storm.answered == 3
    assert emulator.rate_limits.stats.sent_429s["user"] == 3


async def test_discord_py_sleeps_out_a_storm_and_its_retry_arrives(emulator):
    running = await start_client(emulator, discord.Client(intents=discord.Intents.default()))
    channel = running.client.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    emulator.rate_limits.storm(MESSAGES, method="POST", seconds=0.4)

    started = time.perf_counter()
    message = await channel.send("after the storm")

    assert time.perf_counter() - started >= 0.4
    assert message.content == "after the storm"
    assert emulator.rate_limits.stats.sent_429s["user"] == 1
    await running.stop()
