"""The bot's application emojis and what Discord accepts for one ("Application-Owned Emoji",
"Create/Modify Application Emoji" in docs.discord.com/developers/resources/emoji; the name
rules in docs.discord.food/resources/emoji)."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tests.discord_emulator.errors import DiscordError
from tests.discord_emulator.form_errors import Problem, bad_length, refuse, required
from tests.discord_emulator.world import AppEmojiRecord, World

UNKNOWN_EMOJI = 10014
MAXIMUM_EMOJIS_REACHED = 30008
# "An application can own up to 2000 emojis" (resources/emoji; change log, July 18, 2024).
MAX_APPLICATION_EMOJIS = 2000
# "Emojis and animated emojis have a maximum file size of 256 KiB."
MAX_EMOJI_BYTES = 256 * 1024
MIN_NAME, MAX_NAME = 2, 32
# Letters, digits and underscores: Discord answers STRING_TYPE_REGEX for anything else.
_NAME = re.compile(r"[A-Za-z0-9_]+")
_DATA_URI = re.compile(r"data:(?P<mime>[\w.+-]+/[\w.+-]+);base64,(?P<data>.*)", re.DOTALL)
# "Emoji can be uploaded as JPEG, PNG, GIF, WebP, and AVIF formats", and Image Data asks for
# "the proper content type ... that matches the image data": each type by its signature.
_SIGNATURES: Mapping[str, Callable[[bytes], bool]] = {
    "image/png": lambda data: data.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/jpeg": lambda data: data.startswith(b"\xff\xd8\xff"),
    "image/gif": lambda data: data.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda data: data[:4] == b"RIFF" and data[8:12] == b"WEBP",
    "image/avif": lambda data: data[4:12] in (b"ftypavif", b"ftypavis"),
}


def unknown_emoji() -> DiscordError:
    return DiscordError(404, UNKNOWN_EMOJI, "Unknown Emoji")


def _name_problems(name: Any, others: Iterator[str]) -> Iterator[Problem]:
    if not isinstance(name, str) or not MIN_NAME <= len(name) <= MAX_NAME:
        yield bad_length(("name",), MIN_NAME, MAX_NAME)
    elif not _NAME.fullmatch(name):
        yield ("name",), "STRING_TYPE_REGEX", "String value did not match validation regex."
    elif name in others:
        # "The names of application emoji must be unique" (docs.discord.food).
        yield (
            ("name",),
            "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
            "Application emoji name already taken",
        )


@dataclasses.dataclass(frozen=True)
class _Image:
    data: bytes
    mime: str


def _decoded_image(image: Any) -> _Image | Problem:
    """The bytes and type of an image data URI, or what is wrong with it."""
    match = _DATA_URI.fullmatch(image) if isinstance(image, str) else None
    if match is None:
        return required(("image",)) if not image else _invalid_image()
    try:
        data = base64.b64decode(match["data"], validate=True)
    except binascii.Error:
        return _invalid_image()
    mime = match["mime"].lower()
    matches_type = _SIGNATURES.get(mime)
    if matches_type is None or not matches_type(data):
        return _invalid_image()
    if len(data) > MAX_EMOJI_BYTES:
        # 400 with the size message bots see ("In image: File cannot be larger than 256.0 kb").
        return ("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb."
    return _Image(data, mime)


def _invalid_image() -> Problem:
    return ("image",), "IMAGE_INVALID", "Invalid image data"


def _animated(data: bytes, mime: str) -> bool:
    """An animated GIF carries the NETSCAPE2.0 loop extension; an animated WebP an ANIM chunk."""
    if mime == "image/gif":
        return b"NETSCAPE2.0" in data
    return mime == "image/webp" and b"ANIM" in data[12:64]


class AppEmojis:
    """Create, rename, delete and look up the application's emojis in the world."""

    def __init__(self, world: World) -> None:
        self._world = world

    def get(self, emoji_id: str) -> AppEmojiRecord:
        emoji = self._world.application_emojis.get(int(emoji_id)) if emoji_id.isdigit() else None
        if emoji is None:
            raise unknown_emoji()
        return emoji

    def _other_names(self, but: int | None = None) -> Iterator[str]:
        return (e.name for e in self._world.application_emojis.values() if e.id != but)

    def create(self, body: Mapping[str, Any]) -> AppEmojiRecord:
        problems = list(_name_problems(body.get("name"), self._other_names()))
        image = _decoded_image(body.get("image"))
        if not isinstance(image, _Image):
            problems.append(image)
        refuse(problems)
        assert isinstance(image, _Image)
        if len(self._world.application_emojis) >= MAX_APPLICATION_EMOJIS:
            raise DiscordError(
                400,
                MAXIMUM_EMOJIS_REACHED,
                f"Maximum number of emojis reached ({MAX_APPLICATION_EMOJIS})",
            )
        return self._world.add_application_emoji(
            str(body["name"]), image.data, image.mime, animated=_animated(image.data, image.mime)
        )

    def rename(self, emoji_id: str, body: Mapping[str, Any]) -> AppEmojiRecord:
        emoji = self.get(emoji_id)
        if "name" in body:
            refuse(list(_name_problems(body["name"], self._other_names(but=emoji.id))))
            emoji.name = str(body["name"])
        return emoji

    def delete(self, emoji_id: str) -> None:
        del self._world.application_emojis[self.get(emoji_id).id]
