"""The tournament's thread: opened from the registration message when the tournament
starts, then each round's pairings, withdrawals, and at the end the podium and the
standings (text and picture). Driven by the service's tournament events, each confirmed
announced once shown (or refused for good); it decides nothing."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Literal

import discord

from bot.discord_plumbing.announcement_nonces import announcing, next_nonce, with_nonce
from bot.pictures.standings_image import STANDINGS_FILE, render_standings, standings_alt_text
from bot.tournaments.buttons import show_registration
from bot.tournaments.deps import TournamentDeps
from bot.tournaments.words import (
    MessagePart,
    pairings_parts,
    podium_text,
    standings_text,
    started_parts,
)
from bot.words.i18n import text
from engine.model import Tournament
from engine.service.announcing.addresses import announcement_key
from engine.service.events import Event, TournamentEvent
from engine.service.tournaments.events import (
    PlayerWithdrawn,
    RoundPaired,
    TournamentEnded,
    TournamentStarted,
)

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week: a tournament's thread stays open between rounds."""

_KINDS = (TournamentStarted, RoundPaired, PlayerWithdrawn, TournamentEnded)


class TournamentThread:
    """Shows tournament events; one instance per bot, subscribed to the service."""

    def __init__(self, deps: TournamentDeps, announced: Callable[[Event], None]) -> None:
        self._deps = deps
        self._announced = announced

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: show a tournament's news, then confirm it."""
        if not isinstance(event, _KINDS):
            return
        try:
            # A nonce per message: shown again after a restart, it is not posted twice.
            with announcing(None, announcement_key(event) or type(event).__name__):
                await self._show(event)
        except discord.HTTPException as error:
            # Refused for good (the retrier waits out rate limits and outages first).
            log.warning(
                "tournament %d: %s not shown: %s",
                event.tournament.tournament_id,
                type(event).__name__,
                error,
            )
        self._announced(event)

    async def _show(self, event: TournamentEvent) -> None:
        deps = self._deps
        tournament = await deps.tournaments.tournament(event.tournament.tournament_id)
        lang = await deps.languages.public(tournament.guild_id)
        if isinstance(event, TournamentStarted):
            await show_registration(deps, tournament)
            thread = await self._open_thread(tournament, lang)
            await self._send_parts(thread, started_parts(lang, event.players))
            return
        place = await self._place(tournament)
        if place is None:
            return
        if isinstance(event, RoundPaired):
            names = {p: f"<@{p}>" for g in event.games for p in (g.first, g.second) if p}
            # Every part is sent before the round counts as shown (on_event).
            await self._send_parts(place, pairings_parts(lang, event.round, event.games, names))
        elif isinstance(event, PlayerWithdrawn):
            name = await deps.names.name(event.user_id, lang=lang, guild_id=tournament.guild_id)
            key = (
                "tournaments.thread.removed" if event.removed_by else "tournaments.thread.withdrew"
            )
            await self._say(place, text(lang, key, name=name))
        elif isinstance(event, TournamentEnded):
            await show_registration(deps, tournament)
            if not event.standings:
                await self._say(
                    place, text(lang, "tournaments.thread.cancelled", name=tournament.name)
                )
                return
            names = {
                line.player: await deps.names.name(
                    line.player, lang=lang, guild_id=tournament.guild_id
                )
                for line in event.standings
            }
            title = text(lang, "tournaments.thread.final_title", name=tournament.name)
            picture = render_standings(lang, title, event.standings, names)
            alt = standings_alt_text(lang, title, event.standings, names)
            await place.send(
                podium_text(lang, tournament.name, event.standings, names)
                + "\n\n"
                + standings_text(lang, event.standings, names),
                file=discord.File(io.BytesIO(picture), STANDINGS_FILE, description=alt),
                **with_nonce(next_nonce()),
            )

    async def _open_thread(
        self, tournament: Tournament, lang: str
    ) -> discord.abc.Messageable | None:
        deps = self._deps
        if tournament.thread_id is not None:
            # The start shown again (the bot stopped before confirming it): its thread
            # was opened then, and is the place again rather than a second one.
            opened = await deps.places.channel(tournament.thread_id)
            if opened is not None:
                return opened
        channel = await deps.places.channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return channel
        name = text(lang, "tournaments.thread.name", name=tournament.name)[:100]
        thread: discord.Thread
        if tournament.message_id is not None:
            message = channel.get_partial_message(tournament.message_id)
            thread = await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        else:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        await deps.tournaments.set_location(
            tournament.tournament_id, thread.id, tournament.message_id
        )
        return thread

    async def _place(self, tournament: Tournament) -> discord.abc.Messageable | None:
        return await self._deps.places.channel(tournament.thread_id or tournament.channel_id)

    async def _send_parts(
        self, place: discord.abc.Messageable | None, parts: list[MessagePart]
    ) -> None:
        if place is None:
            return
        for part in parts:
            users = [discord.Object(user) for user in part.users]
            await place.send(
                part.content,
                allowed_mentions=discord.AllowedMentions(users=users),
                **with_nonce(next_nonce()),
            )

    async def _say(self, place: discord.abc.Messageable | None, said: str) -> None:
        if place is not None:
            await place.send(said, **with_nonce(next_nonce()))
