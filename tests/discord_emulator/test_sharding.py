"""Sharding as Discord documents it (topics/gateway, "Sharding"): each session sees the
guilds of its shard, DMs reach shard 0 only, and a wrong shard is refused."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_emulator import DiscordEmulator, EmulatedInteraction, start_client
from tests.discord_emulator.gateway import (
    CLOSE_INVALID_SHARD,
    CLOSE_SHARDING_REQUIRED,
    IDENTIFY_INTERVAL,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
)
from tests.discord_emulator.interactions import InteractionType
from tests.discord_emulator.raw_api import RawApi
from tests.discord_emulator.world import shard_of

INTENTS = INTENT_GUILDS | INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES | INTENT_MESSAGE_CONTENT


class RawSession:
    """A bare Gateway connection, to see exactly which dispatches one shard gets."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []

    async def identify(self, token: str, shard: list[int] | None) -> None:
        hello = await self.socket.receive_json()
        assert hello["op"] == 10
        payload: dict[str, Any] = {"token": token, "intents": INTENTS, "properties": {}}
        if shard is not None:
            payload["shard"] = shard
        await self.socket.send_json({"op": 2, "d": payload})

    async def settle(self, quiet: float = 0.15) -> list[dict[str, Any]]:
        """Read dispatches until none comes for `quiet` seconds; return all read so far."""
        with contextlib.suppress(TimeoutError):
            while True:
                frame = await self.socket.receive_json(timeout=quiet)
                if frame["op"] == 0:
                    self.received.append(frame)
        return self.received

    def events(self, name: str) -> list[dict[str, Any]]:
        return [frame["d"] for frame in self.received if frame["t"] == name]


@contextlib.asynccontextmanager
async def raw_sessions(
    emulator: DiscordEmulator, *shards: list[int] | None
) -> AsyncIterator[list[RawSession]]:
    async with aiohttp.ClientSession() as http:
        sessions = []
        for shard in shards:
            # A well-behaved client IDENTIFYs 5 s after the last: the virtual clock skips it.
            emulator.advance(IDENTIFY_INTERVAL)
            session = RawSession(await http.ws_connect(emulator.gateway_url))
            await session.identify(emulator.bot_token, shard)
            await session.settle()
            sessions.append(session)
        yield sessions
        for session in sessions:
            await session.socket.close()


async def answer(emulator: DiscordEmulator, interaction: EmulatedInteraction) -> None:
    async with RawApi(emulator) as api:
        reply = {"type": 4, "data": {"content": "seen"}}
        path = f"/interactions/{interaction.id}/{interaction.token}/callback"
        assert (await api.post(path, reply)).status in (200, 204)


async def test_gateway_bot_recommends_the_configured_shard_count(sharded_emulator):
    async with RawApi(sharded_emulator) as api:
        answer = await api.get("/gateway/bot")
    assert answer.status == 200
    assert answer.body["shards"] == 2
    assert answer.body["url"] == sharded_emulator.gateway_url
    assert answer.body["session_start_limit"]["max_concurrency"] == 1


async def test_the_two_guilds_land_on_different_shards(sharded_emulator):
    first, second = sharded_emulator.guild_id, sharded_emulator.other_guilds[0].id
    assert (shard_of(first, 2), shard_of(second, 2)) == (0, 1)


async def test_each_shard_sees_only_its_guild(sharded_emulator):
    first = sharded_emulator.guild_id
    second = sharded_emulator.other_guilds[0]
    async with raw_sessions(sharded_emulator, [0, 2], [1, 2]) as (zero, one):
        (ready_zero,) = zero.events("READY")
        (ready_one,) = one.events("READY")
        assert ready_zero["shard"] == [0, 2] and ready_one["shard"] == [1, 2]
        assert [g["id"] for g in ready_zero["guilds"]] == [str(first)]
        assert [g["id"] for g in ready_one["guilds"]] == [str(second.id)]
        assert [g["id"] for g in zero.events("GUILD_CREATE")] == [str(first)]
        assert [g["id"] for g in one.events("GUILD_CREATE")] == [str(second.id)]
        (created,) = one.events("GUILD_CREATE")
        assert [c["id"] for c in created["channels"]] == [str(second.channel.id)]

        # ben speaks in each guild: each message reaches the shard of its guild only.
        ben = sharded_emulator.user("ben")
        await ben.say("in the first", channel=sharded_emulator.channel)
        await ben.say("in the second", channel=second.channel)
        await zero.settle()
        await one.settle()
    assert [m["content"] for m in zero.events("MESSAGE_CREATE")] == ["in the first"]
    assert [m["content"] for m in one.events("MESSAGE_CREATE")] == ["in the second"]


async def test_dms_and_dm_interactions_reach_shard_zero_only(sharded_emulator):
    ana = sharded_emulator.user("ana")
    second = sharded_emulator.other_guilds[0]
    async with raw_sessions(sharded_emulator, [0, 2], [1, 2]) as (zero, one):
        await ana.say("psst", channel=ana.dm)
        in_dm = await sharded_emulator.start_interaction(
            kind=InteractionType.APPLICATION_COMMAND,
            user_id=ana.id,
            channel_id=ana.dm.id,
            data={"id": "1", "name": "ping", "type": 1},
            description="/ping in a DM by ana",
        )
        in_second_guild = await sharded_emulator.start_interaction(
            kind=InteractionType.APPLICATION_COMMAND,
            user_id=ana.id,
            channel_id=second.channel.id,
            data={"id": "1", "name": "ping", "type": 1},
            description="/ping in the second guild by ana",
        )
        await zero.settle()
        await one.settle()
        await answer(sharded_emulator, in_dm)
        await answer(sharded_emulator, in_second_guild)
    assert [m["content"] for m in zero.events("MESSAGE_CREATE")] == ["psst"]
    assert [i["id"] for i in zero.events("INTERACTION_CREATE")] == [str(in_dm.id)]
    assert "guild_id" not in zero.events("INTERACTION_CREATE")[0]
    assert [i["id"] for i in one.events("INTERACTION_CREATE")] == [str(in_second_guild.id)]
    assert one.events("INTERACTION_CREATE")[0]["guild_id"] == str(second.id)
    assert one.events("MESSAGE_CREATE") == []


@pytest.mark.parametrize(
    ("shard", "close_code"),
    [
        ([2, 2], CLOSE_INVALID_SHARD),
        ([-1, 2], CLOSE_INVALID_SHARD),
        ([0, 3], CLOSE_INVALID_SHARD),
        (None, CLOSE_SHARDING_REQUIRED),
    ],
)
async def test_a_wrong_shard_is_refused(sharded_emulator, shard, close_code):
    async with aiohttp.ClientSession() as http:
        socket = await http.ws_connect(sharded_emulator.gateway_url)
        await RawSession(socket).identify(sharded_emulator.bot_token, shard)
        closing = await socket.receive(timeout=2)
        assert closing.type is aiohttp.WSMsgType.CLOSE
        assert closing.data == close_code
    assert sharded_emulator.gateway.live_sessions == []


async def test_one_shard_is_enough_when_discord_asks_for_one(emulator):
    async with raw_sessions(emulator, [0, 1]) as (only,):
        assert [g["id"] for g in only.events("GUILD_CREATE")] == [str(emulator.guild_id)]


async def test_a_resumed_session_keeps_its_shard(sharded_emulator):
    second = sharded_emulator.other_guilds[0]
    client = discord.AutoShardedClient(intents=discord.Intents.all(), shard_ids=[1], shard_count=2)
    await start_client(sharded_emulator, client)
    await sharded_emulator.gateway.drop_connections()
    await sharded_emulator.gateway.wait_for_resume(1)
    await sharded_emulator.user("ben").say("after the blip", channel=second.channel)
    await sharded_emulator.user("ben").say("elsewhere", channel=sharded_emulator.channel)
    await sharded_emulator.idle()
    (session,) = sharded_emulator.gateway.live_sessions
    assert session.shard == (1, 2)
    said = [m["content"] for m in session.dispatched("MESSAGE_CREATE")]
    assert said == ["after the blip"]


async def test_auto_sharded_client_on_shard_one_sees_only_that_guild(sharded_emulator):
    second = sharded_emulator.other_guilds[0]
    client = discord.AutoShardedClient(intents=discord.Intents.all(), shard_ids=[1], shard_count=2)
    await start_client(sharded_emulator, client)
    assert [g.id for g in client.guilds] == [second.id]
    assert client.get_guild(second.id) is not None
    assert client.get_guild(second.id).shard_id == 1  # type: ignore[union-attr]
    assert client.get_guild(sharded_emulator.guild_id) is None
    assert [s.shard for s in sharded_emulator.gateway.live_sessions] == [(1, 2)]
    await asyncio.sleep(0)


# the session start limit ---------------------------------------------------------------


async def _identify_now(emulator: DiscordEmulator, http: aiohttp.ClientSession, shard: list[int]):
    """IDENTIFY on a new connection; the first frame after it (READY, or op 9)."""
    socket = await http.ws_connect(emulator.gateway_url)
    await RawSession(socket).identify(emulator.bot_token, shard)
    return await socket.receive_json(timeout=5)


async def test_a_second_identify_in_a_bucket_within_5_s_gets_an_invalid_session(
    sharded_emulator,
):
    gateway = sharded_emulator.gateway
    async with aiohttp.ClientSession() as http:
        first = await _identify_now(sharded_emulator, http, [0, 2])
        too_soon = await _identify_now(sharded_emulator, http, [1, 2])  # bucket 1 % 1 == 0
        sharded_emulator.advance(IDENTIFY_INTERVAL)
        in_turn = await _identify_now(sharded_emulator, http, [1, 2])
    assert (first["t"], too_soon, in_turn["t"]) == (
        "READY",
        {"op": 9, "d": False, "s": None, "t": None},
        "READY",
    )
    assert (gateway.session_starts, gateway.refused_identifies) == (3, 1)
    async with RawApi(sharded_emulator) as api:
        limit = (await api.get("/gateway/bot")).body["session_start_limit"]
    assert limit["remaining"] == limit["total"] - 3


async def test_shards_in_different_buckets_identify_together_under_a_higher_concurrency(
    sharded_emulator,
):
    sharded_emulator.gateway.max_concurrency = 2
    async with aiohttp.ClientSession() as http:
        zero = await _identify_now(sharded_emulator, http, [0, 2])
        one = await _identify_now(sharded_emulator, http, [1, 2])
    assert (zero["t"], one["t"]) == ("READY", "READY")
    assert sharded_emulator.gateway.refused_identifies == 0
