"""Edits of a waiting challenge's message (to a member, or an open seat) made from outside
its own buttons: closing it when nobody answered in time, and showing a seat taken from
`/hanamikoji seats`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.challenge.words import expired, taken
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import worth_showing_later
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import MatchInfo
from engine.service import DatabaseUnavailable, MatchQueries
from engine.service.events import (
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    MatchAbandoned,
)

log = logging.getLogger(__name__)


async def _ready_now() -> None:
    """For an OpenChallenges with no Gateway to wait for (tests)."""


class OpenChallenges:
    """Edits a challenge's message through the interaction that posted it while that lasts
    (it needs no channel permission), else through the channel (a seat posted in the lobby,
    or after a restart)."""

    def __init__(
        self,
        queries: MatchQueries,
        names: PlayerNames,
        languages: ServerLanguages,
        places: Places,
        confirm: Callable[[Event], None] = lambda event: None,
        ready: Callable[[], Awaitable[None]] = _ready_now,
    ) -> None:
        self._ready = ready
        """Until the Gateway has sent the servers (an expiry shown again at start-up)."""
        self._queries = queries
        self._confirm = confirm
        """Tells the service an expiry is shown (else it is shown again after a restart)."""
        self._names = names
        self._languages = languages
        self._places = places
        # The interaction that posted each waiting challenge. Lost on restart (then the
        # channel endpoint does it).
        self._interactions: dict[int, discord.Interaction[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def remember(self, match_id: int, interaction: discord.Interaction[Any]) -> None:
        """The challenge's own interaction, to edit its message through later."""
        self._interactions[match_id] = interaction

    def forget(self, match_id: int) -> None:
        """Its message was edited for the last time (answered where it is)."""
        self._interactions.pop(match_id, None)

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: forget withdrawn and declined challenges, close expired
        ones. An abandoned challenge's message went with its channel (or its server is out
        of reach): nothing is closed there. (A started one is forgotten by its answer: a
        seat taken from the list still closes its message through the interaction.)"""
        if isinstance(event, ChallengeDeclined | ChallengeCancelled | MatchAbandoned):
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
        await self.edit(started, taken(lang, names), seat_message_id)

    async def edit(
        self, info: MatchInfo, embed: discord.Embed, message_id: int | None = None
    ) -> None:
        """Replace the challenge's message (``message_id``, else the one ``info`` names)
        with ``embed``, without buttons."""
        interaction = self._interactions.pop(info.match_id, None)
        if interaction is not None:
            try:
                await self._places.retrier.until_accepted(
                    f"challenge {info.match_id}: editing it",
                    lambda: interaction.edit_original_response(
                        content=None, embed=embed, view=None
                    ),
                )
                return
            except discord.HTTPException as error:
                log.info("challenge %s: its interaction expired (%s)", info.match_id, error)
        message_id = message_id or info.placement.board_message_id
        channel = await self._places.channel(info.channel_id)
        if message_id is None or channel is None:
            return  # never posted, or its channel is gone: nothing left to edit
        await self._places.edit_message(
            channel, message_id, lambda: {"content": None, "embed": embed, "view": None}
        )

    async def _close_expired(self, event: ChallengeExpired) -> None:
        match_id = event.match_id
        await self._ready()  # shown again at start-up, it needs the servers from the Gateway
        try:
            info = await self._queries.match_info(match_id)
            lang = await self._languages.public(info.guild_id)
            names = await self._names.pair(
                info.players, info.ai_level, lang, guild_id=info.guild_id
            )
            await self.edit(info, expired(lang, info, names))
        except Exception as error:
            if isinstance(error, DatabaseUnavailable):
                return  # told once by the store; left unconfirmed, closed at the next start
            if worth_showing_later(error):
                # Left unconfirmed: the next start shows it (an expired challenge refuses
                # an answer anyway, so there is no hurry).
                log.warning("challenge %s: not closed yet (%r)", match_id, error)
                return
            if isinstance(error, discord.HTTPException):
                log.warning("challenge %s: Discord refused closing it: %s", match_id, error)
            else:
                log.exception("challenge %s: could not close it", match_id)
        self._confirm(event)
