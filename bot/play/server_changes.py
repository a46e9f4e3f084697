"""When the server changes under the bot: a moderator deletes a match's thread or its
channel, or an admin removes the bot from the server.

A deleted thread is replaced (its board is edited next, and the edit repairs it: see
:mod:`bot.play.board_editor`). A deleted channel, or a server that removed the bot,
ends its open matches and challenges as abandoned — the service decides which, and that
they are unrated — and both players hear of it by DM where their DMs are open. A server
that is merely unavailable (an outage: discord.py's ``on_guild_unavailable``) is not
removed: its matches wait for it.

Nothing of this is lost to a stalled database: the work waits and is tried again (the
store has logged the outage once). A removal missed while the bot was down is found after
READY: the open matches of a server this process's shards would hold, but the bot is not
in, end as abandoned (a channel deleted meanwhile is found when the bot next touches it,
see :mod:`bot.play.board_editor`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord.ext import commands

from bot.discord_plumbing.direct_messages import DirectMessages
from bot.discord_plumbing.places import Places
from bot.features import Feature
from bot.words.i18n import text
from bot.words.player_names import PlayerNames
from engine.model import AI_USER_ID, OPEN_SEAT
from engine.service import (
    DatabaseUnavailable,
    MatchAbandoned,
    MatchAbandonment,
    MatchPlacements,
    MatchStatus,
)
from engine.service.clock import Clock
from engine.service.events import Event, PlaceLost

log = logging.getLogger(__name__)

RETRY_SECONDS = 30.0
"""How long work that found the database stalled waits before it is tried again."""


class ServerChanges(Feature):
    """Listens for deleted threads and channels and for the bot's removal from a server;
    what a listener starts is waited for with the features' :meth:`wait_idle`."""

    def __init__(
        self,
        abandonment: MatchAbandonment,
        placements: MatchPlacements,
        places: Places,
        repair_board: Callable[[int], None],
        board_deleted: Callable[[int], None],
        permissions_changed: Callable[[], None],
        *,
        names: PlayerNames,
        direct_messages: DirectMessages,
        clock: Clock,
        left: Callable[[int], bool],
    ) -> None:
        """``left`` says whether the bot has left a server (by id) that this process's
        shards would hold: asked after READY, when the list of servers is complete."""
        super().__init__(None)
        self._abandonment = abandonment
        self._placements = placements
        self._places = places
        self._repair_board = repair_board
        self._board_deleted = board_deleted
        self._permissions_changed = permissions_changed
        self._names = names
        self._direct_messages = direct_messages
        self._clock = clock
        self._left = left
        self.unsubscribe: Callable[[], None] = lambda: None
        """Ends the subscription to the service's events (set when subscribed)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._waiting: set[asyncio.Task[Any]] = set()
        """Tasks waiting out a stalled database: not busy, they start again later."""
        self._reconciling = False

    def _in_background(self, what: str, work: Callable[[], Coroutine[Any, Any, object]]) -> None:
        """Run ``work`` until it is done: a stalled database is waited out and the work
        tried again, any other failure logged once (never a lost task's traceback)."""
        task = asyncio.create_task(self._until_done(what, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _until_done(self, what: str, work: Callable[[], Coroutine[Any, Any, object]]) -> None:
        while True:
            try:
                await work()
                return
            except DatabaseUnavailable as error:
                log.debug("%s waits for the database: %s", what, error)
            except Exception:
                log.exception("%s failed", what)
                return
            task = asyncio.current_task()
            if task is not None:
                self._waiting.add(task)
            try:
                await self._clock.sleep_until(self._clock.now() + RETRY_SECONDS)
            finally:
                self._waiting.discard(task)

    async def wait_idle(self) -> None:
        while busy := [t for t in self._tasks if not t.done() and t not in self._waiting]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def cog_unload(self) -> None:
        self.unsubscribe()
        for task in self._tasks:
            task.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # READY comes after the servers' GUILD_CREATEs (or their wait ran out: those stay
        # in the list as unavailable, an outage and not a removal). It may come again
        # after a reconnect: ending what is already ended is harmless, and one at a time.
        if self._reconciling:
            return
        self._reconciling = True

        async def reconcile() -> None:
            try:
                ended = await self._abandonment.abandon_left_guilds(self._left)
            finally:
                self._reconciling = False
            if ended:
                log.info("removed from servers while away: %d open matches ended", len(ended))

        self._in_background("ending the matches of servers left while away", reconcile)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self._permissions_changed()

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self._permissions_changed()

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            self._board_deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self._places.forget(payload.thread_id)
        if not self._places.cached(payload.parent_id):
            return  # its channel was deleted with it: the match ends, see below
        thread_id = payload.thread_id
        self._in_background(
            f"replacing deleted thread {thread_id}", lambda: self._thread_deleted(thread_id)
        )

    async def _thread_deleted(self, thread_id: int) -> None:
        info = await self._placements.match_in_thread(thread_id)
        if info is not None and info.status is MatchStatus.ACTIVE:
            log.info("match %s: its thread %s was deleted", info.match_id, thread_id)
            self._repair_board(info.match_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self._places.forget(channel.id)
        for thread in getattr(channel, "threads", ()):
            self._places.forget(thread.id)
        guild_id, channel_id = channel.guild.id, channel.id
        self._in_background(
            f"ending the matches of deleted channel {channel_id}",
            lambda: self._abandonment.abandon_channel(guild_id, channel_id),
        )

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("removed from server %s: ending its matches", guild.id)
        # Its channels are not gone (the bot may be invited back): its matches end, so
        # nothing asks for them.
        # The players hear of each match through MatchAbandoned.
        guild_id = guild.id
        self._in_background(
            f"ending the matches of server {guild_id}",
            lambda: self._abandonment.abandon_guild(guild_id),
        )

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: tell the players of an abandoned match, by DM."""
        if not isinstance(event, MatchAbandoned):
            return
        where = "channel" if event.because is PlaceLost.CHANNEL_DELETED else "server"
        challenge = "" if event.started else "challenge_"
        key = f"server_changes.abandoned_{challenge}{where}"
        for seat, user_id in enumerate(event.players):
            if user_id in (AI_USER_ID, OPEN_SEAT):
                continue
            lang = self._names.language(user_id)
            opponent_id = event.players[1 - seat]
            if opponent_id == OPEN_SEAT:  # an open seat nobody took: only its host to tell
                line = text(lang, f"seats.abandoned_{where}")
            else:
                # Global names only: the server may be out of reach now.
                opponent = await self._names.name(opponent_id, event.ai_level, lang)
                line = text(lang, key, match=event.match_id, opponent=opponent)
            closed = text(lang, "server_changes.dm_panel_closed")
            await self._direct_messages.retire(user_id, event.match_id, closed)
            self._direct_messages.forget(user_id, event.match_id)
            await self._direct_messages.send(
                user_id, f"match {event.match_id}: abandoned", {"content": line}
            )
