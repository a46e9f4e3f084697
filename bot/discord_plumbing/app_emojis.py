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

import aiohttp
import discord

from bot.pictures.emoji_images import emoji_images
from bot.words.card_faces import LETTERS, CardFaces, Emoji

log = logging.getLogger(__name__)

PREFIX = "hk_"
INSTALL_SECONDS = 30.0
"""How long start-up waits for the emojis before going on with letters."""
WAIT_SECONDS = 5.0
WAIT_TRIES = 60
"""A process that does not upload looks every 5 s for five minutes, then every 5 minutes."""
SLOW_WAIT_SECONDS = 300.0


def emoji_name(key: str, image: bytes) -> str:
    """``hk_card_a_1f2e3d``: 2–32 letters, digits and underscores, as Discord asks."""
    return f"{PREFIX}{key}_{hashlib.sha256(image).hexdigest()[:6]}"


class AppEmojis:
    """The emojis this process shows cards with: :data:`LETTERS` until they are there."""

    def __init__(self) -> None:
        self.faces: CardFaces = LETTERS
        self._work: asyncio.Task[None] | None = None

    async def install(self, client: discord.Client, *, upload: bool = True) -> None:
        """Reuse or upload every emoji, waiting at most :data:`INSTALL_SECONDS` (Discord
        may ask the bot to wait out the emoji routes' own rate limit): what is not done by
        then goes on in the background, the cards shown as letters meanwhile.

        ``upload`` False: another process uploads them (the one that syncs the commands,
        holding shard 0), so that two processes starting together never race for a name;
        this one reads what is there and, until everything is, looks again now and then
        in the background."""
        self._work = asyncio.create_task(self._install(client, upload))
        try:
            await asyncio.wait_for(asyncio.shield(self._work), INSTALL_SECONDS)
        except TimeoutError:
            log.warning("card emojis not ready after %.0f s: letters until then", INSTALL_SECONDS)

    async def _install(self, client: discord.Client, upload: bool) -> None:
        try:
            if await self._found(client, upload=upload):
                return
            log.info("card emojis not uploaded yet: letters until they are")
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if upload:
                log.warning("card emojis unavailable (%s): cards are shown as letters", error)
                return
            log.info("card emojis not readable yet (%s)", error)
        self._work = asyncio.create_task(self._wait_for_uploads(client))

    async def _found(self, client: discord.Client, *, upload: bool) -> bool:
        """Take the emojis the application has, uploading the missing ones if ``upload``;
        False when some are missing still (and the letters stay)."""
        have = await _listed(client)
        found: dict[str, Emoji] = {}
        for key, image in emoji_images().items():
            name = emoji_name(key, image)
            if name not in have:
                if not upload:
                    return False
                have[name] = await _uploaded(client, name, image)
            found[key] = (name, have[name])
        self.faces = CardFaces(found)
        log.info("card emojis ready: %d", len(found))
        return True

    async def _wait_for_uploads(self, client: discord.Client) -> None:
        """Look again until the uploading process has uploaded them all: often at first,
        then every few minutes (it may start much later, or be down a while)."""
        tries = 0
        while True:
            tries += 1
            await asyncio.sleep(WAIT_SECONDS if tries <= WAIT_TRIES else SLOW_WAIT_SECONDS)
            try:
                if await self._found(client, upload=False):
                    return
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                log.info("card emojis not readable yet (%s)", error)
            if tries == WAIT_TRIES:
                log.warning("card emojis still not uploaded: cards are shown as letters")

    def close(self) -> None:
        if self._work is not None:
            self._work.cancel()


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
