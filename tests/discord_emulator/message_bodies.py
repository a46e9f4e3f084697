"""Read a message body the way Discord does: JSON, or multipart with payload_json + files[n]."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from tests.discord_emulator.errors import invalid_form_body

_FILE_FIELD = re.compile(r"files\[(\d+)\]")


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
        files.append(
            UploadedFile(
                index=int(match.group(1)),
                filename=part.filename or f"file{match.group(1)}",
                data=bytes(await part.read()),
                content_type=part.headers.get("Content-Type"),
            )
        )
    return MessageBody(payload, tuple(files))
