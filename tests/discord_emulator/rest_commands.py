"""Application command sync, global and per guild."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.discord_emulator.application_commands import check_guild_access
from tests.discord_emulator.errors import DiscordError, unknown_webhook
from tests.discord_emulator.http_responses import json_response, no_content
from tests.discord_emulator.message_bodies import read_json

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator

UNKNOWN_APPLICATION_COMMAND = 10063


class CommandRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._world = emulator.world
        self._registry = emulator.commands

    def add_to(self, app: web.Application, api: str) -> None:
        for scope in (
            "/applications/{application_id}",
            "/applications/{application_id}/guilds/{guild_id}",
        ):
            path = api + scope + "/commands"
            app.router.add_get(path, self.listed)
            app.router.add_put(path, self.overwrite)
            app.router.add_post(path, self.upsert)
            app.router.add_delete(path + "/{command_id}", self.delete)

    def _guild_id(self, request: web.Request) -> int | None:
        if request.match_info["application_id"] != str(self._world.bot.id):
            raise unknown_webhook()
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        check_guild_access(self._world, int(raw))
        return int(raw)

    async def listed(self, request: web.Request) -> web.Response:
        return json_response(self._registry.listed(self._guild_id(request)))

    async def overwrite(self, request: web.Request) -> web.Response:
        guild_id = self._guild_id(request)
        return json_response(self._registry.overwrite(await read_json(request), guild_id))

    async def upsert(self, request: web.Request) -> web.Response:
        guild_id = self._guild_id(request)
        return json_response(self._registry.upsert(await read_json(request), guild_id), status=201)

    async def delete(self, request: web.Request) -> web.Response:
        guild_id = self._guild_id(request)
        scope = (
            self._registry.global_commands
            if guild_id is None
            else self._registry.guild_commands.get(guild_id, {})
        )
        for name, command in list(scope.items()):
            if command["id"] == request.match_info["command_id"]:
                del scope[name]
                return no_content()
        raise DiscordError(404, UNKNOWN_APPLICATION_COMMAND, "Unknown application command")
