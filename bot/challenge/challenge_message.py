"""The public challenge message: the invitation with Accept / Decline, what it turns into
once answered, withdrawn or expired, and closing it when nobody answered in time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

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
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    MatchAbandoned,
    MatchStarted,
)

log = logging.getLogger(__name__)


def invitation(
    lang: str, info: MatchInfo, names: tuple[str, str], opponent_mention: str
) -> discord.Embed:
    variant = text(
        lang,
        "challenge.three_rounds" if info.variant is Variant.THREE_ROUNDS else "challenge.standard",
    )
    expires = int(info.challenge_expires_at or 0)
    return discord.Embed(
        title=text(lang, "challenge.title", first=names[0], second=names[1]),
        description=text(
            lang,
            "challenge.body",
            variant=variant,
            timer=duration_text(lang, info.turn_seconds),
            mention=opponent_mention,
            when=f"<t:{expires}:R>",
        ),
        colour=EMBED_COLOUR,
    )


def closed(lang: str, names: tuple[str, str], what: str, *, started: bool = False) -> discord.Embed:
    """The challenge after its answer: ``what`` says what happened."""
    colour = discord.Colour.green() if started else discord.Colour.dark_grey()
    title = text(lang, "board.title", first=names[0], second=names[1])
    return discord.Embed(title=title, description=what, colour=colour)


async def _ready_now() -> None:
    """For an OpenChallenges with no Gateway to wait for (tests)."""


class OpenChallenges:
    """Closes a challenge nobody answered (answers edit it on click): through the
    challenge's own interaction, which needs no channel permission, or after a restart,
    when that is gone, through the channel."""

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
        """Until the Gateway has sent the servers."""
        self._queries = queries
        self._confirm = confirm
        """Tells the service an expiry is shown (else it is shown again after a restart)."""
        self._names = names
        self._languages = languages
        self._places = places
        # The interaction of each open challenge. Lost on restart (then the channel
        # endpoint does it).
        self._interactions: dict[int, discord.Interaction[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def remember(self, match_id: int, interaction: discord.Interaction[Any]) -> None:
        """The challenge's own interaction, to close it through when it expires."""
        self._interactions[match_id] = interaction

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: forget answered challenges, close expired ones. An
        abandoned challenge's message went with its channel (or its server is out of
        reach): nothing is closed there."""
        if isinstance(
            event, ChallengeDeclined | ChallengeCancelled | MatchStarted | MatchAbandoned
        ):
            self._interactions.pop(event.match_id, None)
        elif isinstance(event, ChallengeExpired):
            task = asyncio.create_task(self._close_expired(event))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def wait_idle(self) -> None:
        while busy := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def _close_expired(self, event: ChallengeExpired) -> None:
        match_id = event.match_id
        await self._ready()  # shown again at start-up, it needs the servers from the Gateway
        try:
            if not await self._close(match_id):
                return  # an open seat: bot.seats closes it, and confirms it
        except Exception as error:
            if isinstance(error, DatabaseUnavailable):
                return  # told once by the store; left unconfirmed, closed at the next start
            if worth_showing_later(error):
                # Left unconfirmed: the next start shows it (an expired challenge refuses
                # Accept anyway, so there is no hurry).
                log.warning("challenge %s: not closed yet (%r)", match_id, error)
                return
            if isinstance(error, discord.HTTPException):
                log.warning("challenge %s: Discord refused closing it: %s", match_id, error)
            else:
                log.exception("challenge %s: could not close it", match_id)
        self._confirm(event)

    async def _close(self, match_id: int) -> bool:
        """Close an expired challenge's message; False for an open seat (not ours)."""
        info = await self._queries.match_info(match_id)
        if info.is_open_seat:
            return False
        lang = await self._languages.public(info.guild_id)
        names = await self._names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
        embed = closed(lang, names, text(lang, "challenge.expired", name=names[1]))
        interaction = self._interactions.pop(match_id, None)
        if interaction is not None:
            try:
                await self._places.retrier.until_accepted(
                    f"challenge {match_id}: closing it",
                    lambda: interaction.edit_original_response(
                        content=None, embed=embed, view=None
                    ),
                )
                return True
            except discord.HTTPException as error:
                log.info("challenge %s: its interaction expired (%s)", match_id, error)
        channel = await self._places.channel(info.channel_id)
        if info.placement.board_message_id is None or channel is None:
            return True
        await self._places.edit_message(
            channel,
            info.placement.board_message_id,
            lambda: {"content": None, "embed": embed, "view": None},
        )
        return True
