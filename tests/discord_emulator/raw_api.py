"""Raw REST calls to the emulator as the bot, for tests that check one rule at a time."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from tests.discord_emulator.server import DiscordEmulator


@dataclasses.dataclass(frozen=True)
class Answer:
    status: int
    body: Any

    @property
    def code(self) -> int | None:
        """Discord's JSON error code, for an error."""
        return self.body.get("code") if isinstance(self.body, dict) else None


class RawApi:
    """`async with RawApi(emulator) as api: await api.post("/channels/1/messages", ...)`."""

    def __init__(self, emulator: DiscordEmulator) -> None:
        self._emulator = emulator
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> RawApi:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(
        self,
        method: str,
        path: str,
        *,
        json_body: dict[str, Any] | None = None,
        files: dict[str, bytes] | None = None,
    ) -> Answer:
        """One request with the bot's token; `files` (name -> bytes) makes it multipart."""
        assert self._session is not None, "use RawApi in `async with`"
        headers = {"Authorization": f"Bot {self._emulator.bot_token}"}
        data: aiohttp.FormData | None = None
        if files:
            data = aiohttp.FormData()
            data.add_field("payload_json", json.dumps(json_body or {}))
            for index, (name, content) in enumerate(files.items()):
                data.add_field(f"files[{index}]", content, filename=name)
            json_body = None
        async with self._session.request(
            method, self._emulator.api_base + path, headers=headers, json=json_body, data=data
        ) as response:
            body = await response.json() if response.content_type == "application/json" else None
            return Answer(response.status, body)

    async def get(self, path: str) -> Answer:
        return await self.call("GET", path)

    async def post(self, path: str, body: dict[str, Any] | None = None, **kwargs: Any) -> Answer:
        return await self.call("POST", path, json_body=body, **kwargs)

    async def patch(self, path: str, body: dict[str, Any]) -> Answer:
        return await self.call("PATCH", path, json_body=body)

    async def put(self, path: str) -> Answer:
        return await self.call("PUT", path)

    async def delete(self, path: str) -> Answer:
        return await self.call("DELETE", path)

    # the calls tests make most -------------------------------------------------------

    async def send(self, channel_id: int, content: str = "hi", **fields: Any) -> Answer:
        return await self.post(f"/channels/{channel_id}/messages", {"content": content, **fields})

    async def start_thread(
        self, channel_id: int, *, minutes: int = 60, private: bool = False
    ) -> Answer:
        body = {"name": "table", "type": 12 if private else 11, "auto_archive_duration": minutes}
        return await self.post(f"/channels/{channel_id}/threads", body)

    async def channel(self, channel_id: int) -> dict[str, Any]:
        answer = await self.get(f"/channels/{channel_id}")
        assert answer.status == 200, answer
        return dict(answer.body)
