"""Showing a match whose server this process does not hold (another bot process's shard):
its channel is fetched once, and its permissions are unknown rather than a crash."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord_plumbing.channel_permissions import bot_permissions_in, can_send, fit_message
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import Retrier


class _Client:
    def __init__(self, channel: object) -> None:
        self.channel = channel
        self.fetches = 0

    def get_channel(self, channel_id: int) -> None:
        return None  # not in this process's cache

    async def fetch_channel(self, channel_id: int) -> Any:
        self.fetches += 1
        return self.channel


class _Messageable(discord.abc.Messageable):
    async def _get_channel(self) -> Any:
        return self


async def test_a_channel_not_cached_here_is_fetched_once_and_reused():
    channel = _Messageable()
    client = _Client(channel)
    places = Places(client, Retrier())  # type: ignore[arg-type]

    assert await places.channel(42) is channel
    assert await places.channel(42) is channel
    assert client.fetches == 1


def test_a_thread_of_a_server_without_its_roles_here_has_unknown_permissions():
    thread = discord.Thread.__new__(discord.Thread)
    thread.guild = SimpleNamespace(me=None)  # type: ignore[misc]
    assert bot_permissions_in(thread) is None
    assert can_send(thread)  # Discord decides; its refusal is handled like any other
    kwargs = {"content": "board", "embed": discord.Embed(title="t")}
    assert fit_message(thread, kwargs) == kwargs
