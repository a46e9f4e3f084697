"""Responses in the exact shape discord.py parses."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.discord_emulator.errors import DiscordError


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim, and aiohttp's
    # json_response would append "; charset=utf-8" and make it read the body as text.
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def error_response(error: DiscordError) -> web.Response:
    return json_response(error.body(), status=error.status)
