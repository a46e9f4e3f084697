"""The public seat message: what it says while the seat waits, once taken, cancelled or
expired, and the edits made to it from elsewhere (a Join in `/hanamikoji seats`, the
expiry)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.challenge.challenge_message import closed
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import worth_showing_later
from bot.words.durations import duration_text
from bot.words.i18n import text
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import MatchInfo
from engine.rules import Variant
from engine.service import DatabaseUnavailable, MatchQueries
from engine.service.events import (
    ChallengeCancelled,
    ChallengeExpired,
    Event,
    MatchAbandoned,
)

log = logging.getLogger(__name__)


def terms(lang: str, info: MatchInfo) -> tuple[str, str, str]:
    """The seat's variant, turn timer and whether it is rated, in words."""
    variant = text(
        lang,
        "challenge.three_rounds" if info.variant is Variant.THREE_ROUNDS else "challenge.standard",
    )
    rated = text(lang, "seats.rated" if info.rated else "seats.unrated")
    return variant, duration_text(lang, info.turn_seconds), rated


def seat_embed(lang: str, info: MatchInfo, host: str) -> discord.Embed:
    """The seat while it waits for someone."""
    variant, timer, rated = terms(lang, info)
    expires = int(info.challenge_expires_at or 0)
    return discord.Embed(
        title=text(lang, "seats.title", host=host),
        description=text(
            lang,
            "seats.body",
            variant=variant,
            timer=timer,
            rated=rated,
            host=host,
            when=f"<t:{expires}:R>",
        ),
        colour=EMBED_COLOUR,
    )


def taken_embed(lang: str, names: tuple[str, str]) -> discord.Embed:
    what = text(lang, "seats.taken", host=names[0], joiner=names[1])
    return closed(lang, names, what, started=True)


def ended_embed(lang: str, host: str, key: str) -> discord.Embed:
    """The seat after it was cancelled or expired (``key``: ``seats.cancelled``, …)."""
    title = text(lang, "seats.title", host=host)
    return discord.Embed(
        title=title, description=text(lang, key, host=host), colour=discord.Colour.dark_grey()
    )


class SeatMessages:
    """Edits a seat's message from outside its own buttons: through the interaction that
    posted it while that lasts (it needs no channel permission), else through the channel
    (a seat posted in the lobby, or after a restart)."""

    def __init__(
        self,
        queries: MatchQueries,
        names: PlayerNames,
        languages: ServerLanguages,
        places: Places,
        confirm: Callable[[Event], None],
        ready: Callable[[], Awaitable[None]],
    ) -> None:
        self._ready = ready
        """Until the Gateway has sent the servers (an expiry shown again at start-up)."""
        self._queries = queries
        self._names = names
        self._languages = languages
        self._places = places
        self._confirm = confirm
        """Tells the service an expiry is shown (else it is shown again after a restart)."""
        self._interactions: dict[int, discord.Interaction[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def remember(self, match_id: int, interaction: discord.Interaction[Any]) -> None:
        self._interactions[match_id] = interaction

    def forget(self, match_id: int) -> None:
        self._interactions.pop(match_id, None)

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: close an expired seat's message."""
        if isinstance(event, ChallengeCancelled | MatchAbandoned):
            self.forget(event.match_id)
        elif isinstance(event, ChallengeExpired):
            task = asyncio.create_task(self._close_expired(event))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def wait_idle(self) -> None:
        while busy := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def show_taken(self, started: MatchInfo, seat_message_id: int | None) -> None:
        """The seat was taken from `/hanamikoji seats`: its own message says so too.
        ``seat_message_id`` is the one read before the join: starting the match clears it."""
        lang = await self._languages.public(started.guild_id)
        names = await self._names.pair(started.players, None, lang, guild_id=started.guild_id)
        await self.edit(started, taken_embed(lang, names), seat_message_id)

    async def edit(
        self, info: MatchInfo, embed: discord.Embed, message_id: int | None = None
    ) -> None:
        """Replace the seat message (``message_id``, else the one ``info`` names) with
        ``embed``, without buttons."""
        interaction = self._interactions.pop(info.match_id, None)
        if interaction is not None:
            try:
                await self._places.retrier.until_accepted(
                    f"seat {info.match_id}: editing it",
                    lambda: interaction.edit_original_response(
                        content=None, embed=embed, view=None
                    ),
                )
                return
            except discord.HTTPException as error:
                log.info("seat %s: its interaction expired (%s)", info.match_id, error)
        message_id = message_id or info.placement.board_message_id
        channel = await self._places.channel(info.channel_id)
        if message_id is None or channel is None:
            return  # its channel is gone: nothing left to edit
        await self._places.edit_message(
            channel, message_id, lambda: {"content": None, "embed": embed, "view": None}
        )

    async def _close_expired(self, event: ChallengeExpired) -> None:
        await self._ready()
        try:
            info = await self._queries.match_info(event.match_id)
            if not info.is_open_seat:
                return  # a challenge: bot.challenge closes it
            lang = await self._languages.public(info.guild_id)
            host = await self._names.name(info.players[0], lang=lang, guild_id=info.guild_id)
            await self.edit(info, ended_embed(lang, host, "seats.expired"))
        except Exception as error:
            if isinstance(error, DatabaseUnavailable):
                return  # told once by the store; left unconfirmed, closed at the next start
            if worth_showing_later(error):
                log.warning("seat %s: not closed yet (%r)", event.match_id, error)
                return
            if isinstance(error, discord.HTTPException):
                log.warning("seat %s: Discord refused closing it: %s", event.match_id, error)
            else:
                log.exception("seat %s: could not close it", event.match_id)
        self._confirm(event)
