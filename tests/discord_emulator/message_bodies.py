"""Read a message body the way Discord does: JSON, or multipart with payload_json + files[n]."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from tests.discord_emulator.errors import DiscordError, invalid_form_body

_FILE_FIELD = re.compile(r"files\[(\d+)\]")
REQUEST_ENTITY_TOO_LARGE = 40005
# "Uploading Files" (reference): 10 MiB per file for a bot in a guild without boosts;
# "Create Message" limitations: 25 MiB for the whole request.
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_REQUEST_BYTES = 25 * 1024 * 1024


def request_entity_too_large() -> DiscordError:
    return DiscordError(413, REQUEST_ENTITY_TOO_LARGE, "Request entity too large")


@dataclasses.dataclass(frozen=True)
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclasses.dataclass(frozen=True)
class MessageBody:
    payload: dict[str, Any]
    files: tuple[UploadedFile, ...] = ()


async def read_json(request: web.Request) -> Any:
    if not request.can_read_body:
        return {}
    try:
        return json.loads(await request.text())
    except json.JSONDecodeError as exc:
        raise invalid_form_body({"_errors": [{"code": "JSON", "message": str(exc)}]}) from None


async def read_message_body(request: web.Request) -> MessageBody:
    if not request.content_type.startswith("multipart/"):
        parsed = await read_json(request)
        return MessageBody(parsed if isinstance(parsed, dict) else {})
    payload: dict[str, Any] = {}
    files: list[UploadedFile] = []
    received = 0  # bytes of files so far
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())
            continue
        match = _FILE_FIELD.fullmatch(name)
        if match is None:
            continue
        data = bytes(await part.read())
        received += len(data)
        if len(data) > MAX_FILE_BYTES or received > MAX_REQUEST_BYTES:
            raise request_entity_too_large()
        files.append(
            UploadedFile(
                index=int(match.group(1)),
                filename=part.filename or f"file{match.group(1)}",
                data=data,
                content_type=part.headers.get("Content-Type"),
            )
        )
    return MessageBody(payload, tuple(files))
