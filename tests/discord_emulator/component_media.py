"""The media a components V2 layout shows, and so which of a message's attachments a user
sees: every one of a legacy message, only those its components expose in a V2 message
("Attachments won't show by default - they must be exposed through components", Component
Reference). The message keeps them all; clients still receive them in its payload."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, TypeVar

from tests.discord_emulator.layout_rules import (
    ATTACHMENT_SCHEME,
    FILE,
    MEDIA_GALLERY,
    THUMBNAIL,
    walk,
)
from tests.discord_emulator.limits import MESSAGE_FLAG_COMPONENTS_V2

# The emulator's own attachment URLs (payloads.attachment_payload): a component may show a
# file by the URL of an earlier upload instead of `attachment://`.
_ATTACHMENT_URL = re.compile(r"/attachments/\d+/(?P<id>\d+)/")


class _Attachment(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def filename(self) -> str: ...


A = TypeVar("A", bound=_Attachment)


def _url(media: Any) -> str:
    url = media.get("url") if isinstance(media, dict) else None
    return url if isinstance(url, str) else ""


def media_urls(components: Sequence[dict[str, Any]]) -> Iterator[str]:
    """The `url` of every thumbnail, gallery item and file, in document order."""
    for component in walk(components):
        kind = component.get("type")
        if kind == THUMBNAIL:
            yield _url(component.get("media"))
        elif kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                if isinstance(item, dict):
                    yield _url(item.get("media"))
        elif kind == FILE:
            yield _url(component.get("file"))


def media_name(url: str) -> str:
    """What a reader calls a media item: the file name of an attachment or a URL's last part."""
    if url.startswith(ATTACHMENT_SCHEME):
        return url.removeprefix(ATTACHMENT_SCHEME)
    return url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or url


def shown_attachments(
    flags: int, components: Sequence[dict[str, Any]], attachments: Sequence[A]
) -> list[A]:
    """The attachments a user sees on a message with these flags and components."""
    if not flags & MESSAGE_FLAG_COMPONENTS_V2:
        return list(attachments)
    names: set[str] = set()
    ids: set[int] = set()
    for url in media_urls(components):
        if url.startswith(ATTACHMENT_SCHEME):
            names.add(url.removeprefix(ATTACHMENT_SCHEME))
        elif (found := _ATTACHMENT_URL.search(url)) is not None:
            ids.add(int(found["id"]))
    return [a for a in attachments if a.filename in names or a.id in ids]
