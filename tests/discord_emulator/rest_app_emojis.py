"""Application emoji endpoints: list, get, create, modify, delete (resources/emoji).

They fall in the rate limiter's default bucket: Discord documents no size for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.discord_emulator.app_emojis import AppEmojis
from tests.discord_emulator.errors import MISSING_ACCESS, DiscordError
from tests.discord_emulator.http_responses import json_response, no_content
from tests.discord_emulator.message_bodies import read_json
from tests.discord_emulator.payloads import app_emoji_payload

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator


class AppEmojiRoutes:
    def __init__(self, emulator: DiscordEmulator) -> None:
        self._world = emulator.world
        self._emojis = AppEmojis(emulator.world)

    def add_to(self, app: web.Application, api: str) -> None:
        emojis = api + "/applications/{application_id}/emojis"
        app.router.add_get(emojis, self.listed)
        app.router.add_post(emojis, self.create)
        app.router.add_get(emojis + "/{emoji_id}", self.fetch)
        app.router.add_patch(emojis + "/{emoji_id}", self.modify)
        app.router.add_delete(emojis + "/{emoji_id}", self.delete)

    def _check_application(self, request: web.Request) -> None:
        # Only the bot's own application answers to its token (strict where docs are silent).
        if request.match_info["application_id"] != str(self._world.bot.id):
            raise DiscordError(403, MISSING_ACCESS, "Missing Access")

    async def listed(self, request: web.Request) -> web.Response:
        self._check_application(request)
        emojis = self._world.application_emojis.values()
        return json_response({"items": [app_emoji_payload(self._world, e) for e in emojis]})

    async def fetch(self, request: web.Request) -> web.Response:
        self._check_application(request)
        emoji = self._emojis.get(request.match_info["emoji_id"])
        return json_response(app_emoji_payload(self._world, emoji))

    async def create(self, request: web.Request) -> web.Response:
        self._check_application(request)
        body = await read_json(request)
        emoji = self._emojis.create(body if isinstance(body, dict) else {})
        # Discord documents no status; it answers creates with 201 Created, as for commands.
        return json_response(app_emoji_payload(self._world, emoji), status=201)

    async def modify(self, request: web.Request) -> web.Response:
        self._check_application(request)
        body = await read_json(request)
        emoji = self._emojis.rename(
            request.match_info["emoji_id"], body if isinstance(body, dict) else {}
        )
        return json_response(app_emoji_payload(self._world, emoji))

    async def delete(self, request: web.Request) -> web.Response:
        self._check_application(request)
        self._emojis.delete(request.match_info["emoji_id"])
        return no_content()
