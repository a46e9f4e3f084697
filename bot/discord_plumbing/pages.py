"""A message as one value — text, title, rows of components, a notice, a picture — and the
one place it becomes discord.py keyword arguments, for a new message or an edit.

A page is shown as one Components V2 container (Discord's current layout): the title as
a heading, the picture at full width in a media gallery, the text, a separator, then the
rows of buttons and selects under the lines they act on. A notice (why the last click
was refused, who starts) stands above the container. The same page edits a message
posted in the older layout (an embed with its picture and a row of buttons) into this
one: an edit clears the content and embeds the older message had, as Discord requires
before the layout flag may be set (the flag is never taken off again).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_plumbing.first_response import send_private
from bot.words.i18n import shortened

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.from_rgb(196, 64, 84)

IMAGE_DESCRIPTION_LIMIT = 1024
"""Discord's longest attachment (and media gallery item) description."""

TEXT_LIMIT = 4000
"""Discord's most characters over all the text displays of a Components V2 message."""

Row = tuple[discord.ui.Item[Any], ...]


@dataclass(frozen=True, slots=True)
class Page:
    """A message: text, optional title, and rows of components (each a `DynamicItem` that
    knows its own custom_id)."""

    text: str
    title: str = ""
    rows: tuple[Row, ...] = field(default=())
    notice: str = ""
    """A short line above the container, e.g. why the previous click was refused."""
    image: tuple[str, bytes] | None = None
    """A picture shown at full width: (file name, PNG bytes)."""
    image_description: str = ""
    """The picture's alt text (the attachment's description, at most 1024 characters)."""


def text_page(line: str) -> Page:
    """A page of one line and nothing else: what a message becomes when it is retired (a
    DM panel whose turn moved on, a review that could not go on)."""
    return Page(text=line)


def _texts(page: Page) -> tuple[str, str, str]:
    """The notice, the heading and the text, cut so that together they stay within
    Discord's limit (the text gives way first: the notice says why a click failed)."""
    notice = shortened(page.notice, TEXT_LIMIT // 4)
    heading = f"### {page.title}" if page.title else ""
    heading = shortened(heading, 256)
    room = TEXT_LIMIT - len(notice) - len(heading)
    return notice, heading, shortened(page.text, room)


def build_layout(page: Page, *, picture: bool = True) -> discord.ui.LayoutView:
    """The page as a persistent (no timeout) Components V2 layout; ``picture`` False leaves
    the picture out (the bot may not attach files there)."""
    notice, heading, body = _texts(page)
    layout = discord.ui.LayoutView(timeout=None)
    if notice:
        layout.add_item(discord.ui.TextDisplay(notice))
    container = discord.ui.Container[discord.ui.LayoutView](accent_colour=EMBED_COLOUR)
    if heading:
        container.add_item(discord.ui.TextDisplay(heading))
    if picture and page.image is not None:
        item = discord.MediaGalleryItem(
            f"attachment://{page.image[0]}", description=_alt_text(page)
        )
        container.add_item(discord.ui.MediaGallery(item))
    if body:
        container.add_item(discord.ui.TextDisplay(body))
    if page.rows:
        container.add_item(discord.ui.Separator())
        for row in page.rows:
            container.add_item(discord.ui.ActionRow(*row))
    layout.add_item(container)
    return layout


def custom_ids(components: Iterable[object]) -> Iterator[str]:
    """Every custom id in a received message's components, however deeply a Components V2
    layout nests them (rows in a container, a section's accessory)."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from custom_ids(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from custom_ids((accessory,))


def _file(page: Page) -> discord.File | None:
    if page.image is None:
        return None
    name, data = page.image
    return discord.File(io.BytesIO(data), filename=name, description=_alt_text(page))


def _alt_text(page: Page) -> str | None:
    """The picture's alt text, for its file and its gallery item alike."""
    return page.image_description[:IMAGE_DESCRIPTION_LIMIT] or None


def message_kwargs(page: Page, *, editing: bool = False, picture: bool = True) -> dict[str, Any]:
    """``view`` (and the picture's ``file``) for send calls, or for edits, which also clear
    what a message in the older layout had (its content, its embed, its files): Discord
    sets the layout's flag on an edit only while those go. ``picture`` False: the bot may
    not attach files where the message is."""
    file = _file(page) if picture else None
    kwargs: dict[str, Any] = {"view": build_layout(page, picture=file is not None)}
    if editing:
        kwargs["content"] = None
        kwargs["embed"] = None
        kwargs["attachments"] = [file] if file is not None else []
    elif file is not None:
        kwargs["file"] = file
    return kwargs


async def reply_privately(interaction: discord.Interaction[Any], message: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    try:
        await send_private(interaction, message)
    except discord.HTTPException as error:
        log.warning("could not send a refusal: %s", error)
