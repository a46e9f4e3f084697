"""Every REST request the bot made, with the virtual time it came at and the channel and
guild it was about: to count what the bot still asks of a channel or a server it has lost
("0 requests per minute to a deleted thread")."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aiohttp import web

    from tests.discord_emulator.world import World


@dataclasses.dataclass(frozen=True)
class LoggedRequest:
    at: float
    """Virtual time (the emulator's clock) when the request came."""
    method: str
    path: str
    status: int
    channel_id: int | None
    guild_id: int | None
    """The guild of the channel (even a deleted one), or of a `/guilds/{id}` route."""


class RequestLog:
    def __init__(self, world: World) -> None:
        self._world = world
        self.requests: list[LoggedRequest] = []

    def record(self, request: web.Request, status: int) -> None:
        raw_channel = request.match_info.get("channel_id")
        raw_guild = request.match_info.get("guild_id")
        channel_id = int(raw_channel) if raw_channel and raw_channel.isdigit() else None
        guild_id = int(raw_guild) if raw_guild and raw_guild.isdigit() else None
        if guild_id is None and channel_id is not None:
            guild_id = self._world.guild_of_channel(channel_id)
        self.requests.append(
            LoggedRequest(
                self._world.clock.now(),
                request.method,
                request.path,
                status,
                channel_id,
                guild_id,
            )
        )

    def to_channel(self, channel_id: int, *, since: float = 0.0) -> list[LoggedRequest]:
        """The requests about one channel or thread from virtual time `since` on."""
        return [r for r in self.requests if r.channel_id == channel_id and r.at >= since]

    def to_guild(self, guild_id: int, *, since: float = 0.0) -> list[LoggedRequest]:
        """The requests about one guild or anything in it from virtual time `since` on."""
        return [r for r in self.requests if r.guild_id == guild_id and r.at >= since]

    def per_minute(self, requests: list[LoggedRequest], *, since: float, until: float) -> float:
        """How many of `requests` came per virtual minute between `since` and `until`."""
        if until <= since:
            raise ValueError(f"an empty time span: {since!r} to {until!r}")
        counted = [r for r in requests if since <= r.at < until]
        return len(counted) * 60.0 / (until - since)
