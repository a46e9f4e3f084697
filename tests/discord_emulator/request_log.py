"""Every REST request the bot made, with the virtual time it came at and the channel and
guild it was about: to count what the bot still asks of a channel or a server it has lost
("0 requests per minute to a deleted thread"), and to check that where the app is only a
user install it goes through nothing but its interactions (`user_install_requests`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from tests.discord_emulator.user_installs import INTERACTION_ROUTES

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
    route: str = ""
    """The route template as registered, e.g. `/webhooks/{application_id}/{token}` (the bare
    path for a route the emulator lacks)."""
    interaction_id: int | None = None
    """The interaction of a callback or an interaction-webhook request."""
    user_install: bool = False
    """About a place where the app is only a user install: a DM between users, a group DM,
    a channel or guild the bot is not in, or the callback or webhook of an interaction
    whose `authorizing_integration_owners` hold USER_INSTALL ("1") alone."""

    @property
    def through_interaction(self) -> bool:
        """An interaction callback, or the interaction webhook: a followup, or GET, PATCH or
        DELETE of `@original` or a followup by id."""
        return self.route in INTERACTION_ROUTES


class RequestLog:
    def __init__(self, world: World) -> None:
        self._world = world
        self.requests: list[LoggedRequest] = []

    def record(
        self,
        request: web.Request,
        status: int,
        *,
        route: str = "",
        interaction_id: int | None = None,
        user_install: bool = False,
    ) -> None:
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
                route or request.path,
                interaction_id,
                user_install,
            )
        )

    def user_install_requests(self, *, since: float = 0.0) -> list[LoggedRequest]:
        """The requests about user-install places from virtual time `since` on (see
        `LoggedRequest.user_install`); a conformance test asserts each is
        `through_interaction`."""
        return [r for r in self.requests if r.user_install and r.at >= since]

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
