"""Login and lookups: the bot's own user, its application, the gateway URL, users, the guild."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.discord_emulator.application_commands import check_guild_access
from tests.discord_emulator.errors import UNKNOWN_USER, DiscordError
from tests.discord_emulator.http_responses import json_response
from tests.discord_emulator.payloads import (
    application_payload,
    bot_self_payload,
    channel_payload,
    guild_create_payload,
    member_payload,
    user_payload,
)
from tests.discord_emulator.user_installs import integration_types_config

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

UNKNOWN_MEMBER = 10007
# "Session Start Limit Object" (topics/gateway): a bot starts 1,000 sessions a day unless large.
SESSION_STARTS_A_DAY = 1000


class IdentityRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world

    def add_to(self, app: web.Application, api: str) -> None:
        app.router.add_get(api + "/users/@me", self.me)
        app.router.add_get(api + "/users/{user_id}", self.user)
        app.router.add_get(api + "/oauth2/applications/@me", self.application)
        app.router.add_get(api + "/applications/@me", self.application)
        app.router.add_get(api + "/gateway", self.gateway)
        app.router.add_get(api + "/gateway/bot", self.gateway_bot)
        app.router.add_get(api + "/guilds/{guild_id}", self.guild)
        app.router.add_get(api + "/guilds/{guild_id}/channels", self.guild_channels)
        app.router.add_get(api + "/guilds/{guild_id}/members/{user_id}", self.member)

    async def me(self, request: web.Request) -> web.Response:
        return json_response(bot_self_payload(self._world.bot))

    async def user(self, request: web.Request) -> web.Response:
        user = self._world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, UNKNOWN_USER, "Unknown User")
        return json_response(user_payload(user))

    async def application(self, request: web.Request) -> web.Response:
        config = integration_types_config(self._emulator.commands.application_installs)
        return json_response(application_payload(self._world, integration_types_config=config))

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self._emulator.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        gateway = self._emulator.gateway
        return json_response(
            {
                "url": self._emulator.gateway_url,
                "shards": self._emulator.shard_count,
                "session_start_limit": {
                    "total": SESSION_STARTS_A_DAY,
                    "remaining": max(0, SESSION_STARTS_A_DAY - gateway.session_starts),
                    "reset_after": 86_400_000,
                    "max_concurrency": gateway.max_concurrency,
                },
            }
        )

    def _check_guild(self, request: web.Request) -> int:
        guild_id = int(request.match_info["guild_id"])
        check_guild_access(self._world, guild_id)
        return guild_id

    async def guild(self, request: web.Request) -> web.Response:
        guild_id = self._check_guild(request)
        payload = guild_create_payload(self._world, include_members=False, guild_id=guild_id)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            payload.pop(key, None)
        payload["approximate_member_count"] = payload.pop("member_count")
        return json_response(payload)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild_id = self._check_guild(request)
        return json_response(
            [channel_payload(self._world, c) for c in self._world.guild_channels(guild_id)]
        )

    async def member(self, request: web.Request) -> web.Response:
        guild_id = self._check_guild(request)
        user_id = int(request.match_info["user_id"])
        if not self._world.is_member(user_id, guild_id):
            raise DiscordError(404, UNKNOWN_MEMBER, "Unknown Member")
        user = self._world.users[user_id]
        return json_response(member_payload(self._world, user, guild_id=guild_id))
