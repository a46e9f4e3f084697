"""The bot's own emojis (application emojis): uploaded once, at start-up, by the bot itself.

Idempotent: what the application already has is reused by name, and only what is
missing is uploaded. A name carries a digest of its picture, so a picture drawn anew
is uploaded under a new name while messages already posted keep showing the old one.
Whatever goes wrong (Discord refuses, the limit of 2,000 emojis is reached, the network
fails) the cards are shown as letters, and the log says so once.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping

import aiohttp
import discord

from bot.pictures.emoji_images import emoji_images
from bot.words.card_faces import LETTERS, CardFaces, Emoji

log = logging.getLogger(__name__)

PREFIX = "hk_"


def emoji_name(key: str, image: bytes) -> str:
    """``hk_card_a_1f2e3d``: 2–32 letters, digits and underscores, as Discord asks."""
    return f"{PREFIX}{key}_{hashlib.sha256(image).hexdigest()[:6]}"


class AppEmojis:
    """The emojis this process shows cards with: :data:`LETTERS` until :meth:`install`."""

    def __init__(self) -> None:
        self.faces: CardFaces = LETTERS

    async def install(self, client: discord.Client) -> None:
        """Reuse or upload every emoji; on any failure keep the letters."""
        try:
            self.faces = CardFaces(await _installed(client, emoji_images()))
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("card emojis unavailable (%s): cards are shown as letters", error)
            return
        log.info("card emojis ready: %d", len(self.faces.emojis))


async def _installed(client: discord.Client, images: Mapping[str, bytes]) -> dict[str, Emoji]:
    have = {emoji.name: emoji.id for emoji in await client.fetch_application_emojis()}
    found: dict[str, Emoji] = {}
    for key, image in images.items():
        name = emoji_name(key, image)
        if name not in have:
            created = await client.create_application_emoji(name=name, image=image)
            have[name] = created.id
            log.info("uploaded the emoji %s", name)
        found[key] = (name, have[name])
    return found


def button_emoji(faces: CardFaces, key: str) -> discord.PartialEmoji | None:
    """The emoji a button or a select option shows for ``key``, if there is one."""
    found = faces.emoji(key)
    return None if found is None else discord.PartialEmoji(name=found[0], id=found[1])
