"""What each board message last showed, so that an edit which would change nothing is not
sent: every edit spends a request from the bot's global budget and the channel's.

A page is remembered by a digest of everything the message shows (text, title, notice,
picture and its alt text, every component). A board's buttons carry the match's version
(``hk:<match>:<version>:…``) and its picture the match at that version, so a digest held
by a process that has not seen a later edit by another process never matches the newer
board: a stale memory can only cost an edit, never hide one.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict

from bot.discord_plumbing.pages import Page

REMEMBERED = 4096
"""Boards remembered at most (the least recently shown are forgotten first): enough for
every open match of a busy bot, bounded for one that runs for months."""


def page_digest(page: Page, fitted: tuple[bool, ...] = ()) -> bytes:
    """A digest of everything ``page`` shows, as fitted to what the bot may post
    (``fitted``: a picture, an embed); equal digests, equal messages."""
    digest = hashlib.sha256()
    components = [[item.to_component_dict() for item in row] for row in page.rows]
    parts = [page.text, page.title, page.notice, page.image_description]
    digest.update(json.dumps([parts, components, fitted], sort_keys=True).encode())
    if page.image is not None:
        name, data = page.image
        digest.update(name.encode() + b"\0" + data)
    return digest.digest()


class ShownBoards:
    """The digest of the page each board message shows, as far as this process knows."""

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self._shown: OrderedDict[int, bytes] = OrderedDict()
        self._remembered = remembered

    def would_change(self, message_id: int, page: Page, fitted: tuple[bool, ...] = ()) -> bool:
        """Whether showing ``page`` (fitted as ``fitted`` says) in message ``message_id``
        would change what it shows."""
        return self._shown.get(message_id) != page_digest(page, fitted)

    def shown(self, message_id: int, page: Page, fitted: tuple[bool, ...] = ()) -> None:
        """Remember that message ``message_id`` now shows ``page`` (once Discord took it)."""
        self._shown[message_id] = page_digest(page, fitted)
        self._shown.move_to_end(message_id)
        while len(self._shown) > self._remembered:
            self._shown.popitem(last=False)
