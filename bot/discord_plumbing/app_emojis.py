"""The bot's own emojis (application emojis): uploaded once, at start-up, by the bot itself.

Idempotent: what the application already has is reused by name, and only what is
missing is uploaded. A name carries a digest of its picture, so a picture drawn anew
is uploaded under a new name while messages already posted keep showing the old one.
Whatever goes wrong (Discord refuses, the limit of 2,000 emojis is reached, the network
fails) the cards are shown as letters, and the log says so once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Mapping

import aiohttp
import discord

from bot.pictures.emoji_images import emoji_images
from bot.words.card_faces import LETTERS, CardFaces, Emoji

log = logging.getLogger(__name__)

PREFIX = "hk_"
WAIT_SECONDS = 5.0
WAIT_TRIES = 60
"""How long a process that does not upload waits for the one that does: five minutes."""


def emoji_name(key: str, image: bytes) -> str:
    """``hk_card_a_1f2e3d``: 2–32 letters, digits and underscores, as Discord asks."""
    return f"{PREFIX}{key}_{hashlib.sha256(image).hexdigest()[:6]}"


class AppEmojis:
    """The emojis this process shows cards with: :data:`LETTERS` until they are there."""

    def __init__(self) -> None:
        self.faces: CardFaces = LETTERS
        self._waiting: asyncio.Task[None] | None = None

    async def install(self, client: discord.Client, *, upload: bool = True) -> None:
        """Reuse or upload every emoji; on any failure keep the letters.

        ``upload`` False: another process uploads them (the one that syncs the commands,
        holding shard 0), so that two processes starting together never race for a name;
        this one reads what is there, and until everything is, looks again now and then
        in the background, showing letters meanwhile."""
        images = emoji_images()
        try:
            if upload:
                self.faces = CardFaces(await _installed(client, images))
            elif not await self._found(client, images):
                self._waiting = asyncio.create_task(self._wait_for_uploads(client, images))
                log.info("card emojis not uploaded yet: letters until they are")
                return
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("card emojis unavailable (%s): cards are shown as letters", error)
            return
        log.info("card emojis ready: %d", len(self.faces.emojis))

    async def _found(self, client: discord.Client, images: Mapping[str, bytes]) -> bool:
        have = await _listed(client)
        names = {key: emoji_name(key, image) for key, image in images.items()}
        if not all(name in have for name in names.values()):
            return False
        self.faces = CardFaces({key: (name, have[name]) for key, name in names.items()})
        return True

    async def _wait_for_uploads(self, client: discord.Client, images: Mapping[str, bytes]) -> None:
        for _ in range(WAIT_TRIES):
            await asyncio.sleep(WAIT_SECONDS)
            try:
                if await self._found(client, images):
                    log.info("card emojis ready: %d", len(self.faces.emojis))
                    return
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                log.info("card emojis not readable yet (%s)", error)
        log.warning("card emojis never appeared: cards are shown as letters")

    def close(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()


async def _installed(client: discord.Client, images: Mapping[str, bytes]) -> dict[str, Emoji]:
    have = await _listed(client)
    found: dict[str, Emoji] = {}
    for key, image in images.items():
        name = emoji_name(key, image)
        if name not in have:
            have[name] = await _uploaded(client, name, image)
        found[key] = (name, have[name])
    return found


async def _listed(client: discord.Client) -> dict[str, int]:
    return {emoji.name: emoji.id for emoji in await client.fetch_application_emojis()}


async def _uploaded(client: discord.Client, name: str, image: bytes) -> int:
    """Upload one emoji; when another process (a shard starting at the same moment)
    uploaded it first, Discord refuses the name, and that process's upload is used."""
    try:
        created = await client.create_application_emoji(name=name, image=image)
    except discord.HTTPException:
        existing = (await _listed(client)).get(name)
        if existing is None:
            raise
        return existing
    log.info("uploaded the emoji %s", name)
    return created.id


def button_emoji(faces: CardFaces, key: str) -> discord.PartialEmoji | None:
    """The emoji a button or a select option shows for ``key``, if there is one."""
    found = faces.emoji(key)
    return None if found is None else discord.PartialEmoji(name=found[0], id=found[1])
