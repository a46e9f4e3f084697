"""A message as one value — text, title, rows of components, a notice, a picture — and the
one place it becomes discord.py keyword arguments, for a new message or an edit."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_plumbing.first_response import send_private

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.from_rgb(196, 64, 84)

IMAGE_DESCRIPTION_LIMIT = 1024
"""Discord's longest attachment description."""

Row = tuple[discord.ui.Item[Any], ...]


@dataclass(frozen=True, slots=True)
class Page:
    """A message: text (an embed description), optional title, and rows of components
    (each a `DynamicItem` that knows its own custom_id)."""

    text: str
    title: str = ""
    rows: tuple[Row, ...] = field(default=())
    notice: str = ""
    """A short line above the embed, e.g. why the previous click was refused."""
    image: tuple[str, bytes] | None = None
    """A picture shown in the embed: (file name, PNG bytes)."""
    image_description: str = ""
    """The picture's alt text (the attachment's description, at most 1024 characters)."""


def build_view(rows: tuple[Row, ...]) -> discord.ui.View | None:
    """A persistent view (no timeout) holding the rows, or None without components."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows):
        for item in row:
            item.row = row_index
            view.add_item(item)
    return view


def build_embed(page: Page) -> discord.Embed:
    embed = discord.Embed(description=page.text, colour=EMBED_COLOUR)
    if page.title:
        embed.title = page.title
    if page.image is not None:
        embed.set_image(url=f"attachment://{page.image[0]}")
    return embed


def _file(page: Page) -> discord.File | None:
    if page.image is None:
        return None
    name, data = page.image
    description = page.image_description[:IMAGE_DESCRIPTION_LIMIT] or None
    return discord.File(io.BytesIO(data), filename=name, description=description)


def message_kwargs(page: Page, *, editing: bool = False) -> dict[str, Any]:
    """``content``, ``embed`` and ``view`` for send calls, or for edits (which clear what
    the page does not have)."""
    view = build_view(page.rows)
    file = _file(page)
    kwargs: dict[str, Any] = {"embed": build_embed(page)}
    if editing:
        kwargs["content"] = page.notice or None
        kwargs["view"] = view
        kwargs["attachments"] = [file] if file is not None else []
    else:
        if page.notice:
            kwargs["content"] = page.notice
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
    return kwargs


async def reply_privately(interaction: discord.Interaction[Any], message: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    try:
        await send_private(interaction, message)
    except discord.HTTPException as error:
        log.warning("could not send a refusal: %s", error)
