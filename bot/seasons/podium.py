"""The podium of a season that ended, posted once in the server's announcement channel:
a line per place (mentions that ping nobody) and the podium picture with its alt text.

The service publishes :class:`~engine.seasons.SeasonEnded` on its bus in the one process
that ended the season (or, after a stop before the podium was posted, at that process's
next start, from the outbox); once Discord took the message, or refused it for good, the
podium is confirmed announced (``MatchService.announced``) and never posted again.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.discord_plumbing.announcement_nonces import (
    NONCE_TRUSTED_SECONDS,
    announcing,
    next_nonce,
    with_nonce,
)
from bot.pictures.podium_image import PODIUM_FILE, podium_alt_text, render_podium_async
from bot.seasons.deps import SeasonDeps
from bot.seasons.words import podium_text
from bot.words.i18n import text
from engine.seasons import SeasonEnded
from engine.service import Event
from engine.service.announcing.addresses import announcement_key

log = logging.getLogger(__name__)


class PodiumPoster:
    """Posts the podium of each season that ends (see the module docstring)."""

    def __init__(self, deps: SeasonDeps) -> None:
        self._seasons = deps.seasons
        self._announced = deps.announced
        self._places = deps.places
        self._names = deps.names
        self._languages = deps.languages

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: post the podium of a season that ended."""
        if isinstance(event, SeasonEnded) and event.channel_id is not None:
            # A nonce per message: shown again after a restart, it is not posted twice.
            with announcing(None, announcement_key(event) or "season"):
                await self.post(event)
            self._announced(event)

    async def post(self, ended: SeasonEnded) -> None:
        season = ended.season
        lang = await self._languages.public(season.guild_id)
        channel = await self._places.channel(ended.channel_id)
        if channel is None:
            log.warning(
                "season %d of server %d: its channel %s is gone; the podium is not posted",
                season.number,
                season.guild_id,
                ended.channel_id,
            )
        else:
            try:
                await self._send(channel, lang, ended)
            except discord.HTTPException as error:
                # Refused for good (a missing permission, the channel gone): the standings
                # stay readable with /hanamikoji leaderboard season:.
                log.warning("season %d: Discord refused the podium (%s)", season.number, error)

    async def _send(self, channel: discord.abc.Messageable, lang: str, ended: SeasonEnded) -> None:
        number = ended.season.number
        more = text(lang, "seasons.announcement_more", number=number)
        if not ended.podium:
            content = text(
                lang,
                "seasons.announcement_empty",
                number=number,
                min_games=self._seasons.min_games,
            )
            nonce = next_nonce()
            await self._places.retrier.until_accepted(
                f"season {number}: its end",
                lambda: channel.send(
                    content=f"{content}\n{more}", allowed_mentions=_NOBODY, **with_nonce(nonce)
                ),
                creates=True,
                deduplicated_for=None if nonce is None else NONCE_TRUSTED_SECONDS,
            )
            return
        content = podium_text(lang, ended)
        podium = [
            (s, await self._names.raw_name(s.user_id, None, lang, guild_id=ended.season.guild_id))
            for s in ended.podium
        ]
        picture = await render_podium_async(lang, number, podium)
        description = podium_alt_text(lang, number, podium)

        nonce = next_nonce()

        async def send() -> discord.Message:
            # Built afresh on each try: discord.py closes a file it sent.
            file = discord.File(io.BytesIO(picture), filename=PODIUM_FILE, description=description)
            return await channel.send(
                content=f"{content}\n{more}",
                file=file,
                allowed_mentions=_NOBODY,
                **with_nonce(nonce),
            )

        await self._places.retrier.until_accepted(
            f"season {number}: its podium",
            send,
            creates=True,
            deduplicated_for=None if nonce is None else NONCE_TRUSTED_SECONDS,
        )


_NOBODY = discord.AllowedMentions.none()
"""The podium names its members as mentions, which show their names without pinging."""
