"""When the server changes under the bot: a moderator deletes a match's thread or its
channel, or an admin removes the bot from the server.

A deleted thread is replaced (its board is edited next, and the edit repairs it: see
:mod:`bot.play.board_editor`). A deleted channel, or a server that removed the bot,
ends its open matches and challenges as abandoned — the service decides which, and that
they are unrated — and both players hear of it by DM where their DMs are open. A server
that is merely unavailable (an outage: discord.py's ``on_guild_unavailable``) is not
removed: its matches wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord.ext import commands

from bot.discord_plumbing.direct_messages import DirectMessages
from bot.discord_plumbing.places import Places
from bot.features import Feature
from bot.words.i18n import text
from bot.words.player_names import PlayerNames
from engine.service import MatchAbandoned, MatchAbandonment, MatchPlacements, MatchStatus
from engine.service.events import Event, PlaceLost
from engine.store.rows import AI_USER_ID, MatchInfo

log = logging.getLogger(__name__)


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
    ) -> None:
        super().__init__(None)
        self._abandonment = abandonment
        self._placements = placements
        self._places = places
        self._repair_board = repair_board
        self._board_deleted = board_deleted
        self._permissions_changed = permissions_changed
        self._names = names
        self._direct_messages = direct_messages
        self.unsubscribe: Callable[[], None] = lambda: None
        """Ends the subscription to the service's events (set when subscribed)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait_idle(self) -> None:
        while busy := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*busy, return_exceptions=True)

    async def cog_unload(self) -> None:
        self.unsubscribe()

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
        self._in_background(self._thread_deleted(payload.thread_id))

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
        self._in_background(
            self._abandon(self._abandonment.abandon_channel(channel.guild.id, channel.id))
        )

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("removed from server %s: ending its matches", guild.id)
        # Its channels are not gone (the bot may be invited back): its matches end, so
        # nothing asks for them.
        self._in_background(self._abandon(self._abandonment.abandon_guild(guild.id)))

    @staticmethod
    async def _abandon(ending: Awaitable[list[MatchInfo]]) -> None:
        await ending  # the players hear of each match through MatchAbandoned

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: tell the players of an abandoned match, by DM."""
        if not isinstance(event, MatchAbandoned):
            return
        where = "channel" if event.because is PlaceLost.CHANNEL_DELETED else "server"
        challenge = "" if event.started else "challenge_"
        key = f"server_changes.abandoned_{challenge}{where}"
        for seat, user_id in enumerate(event.players):
            if user_id == AI_USER_ID:
                continue
            lang = self._names.language(user_id)
            opponent_id = event.players[1 - seat]
            # Global names only: the server may be out of reach now.
            opponent = await self._names.name(opponent_id, event.ai_level, lang)
            line = text(lang, key, match=event.match_id, opponent=opponent)
            closed = text(lang, "server_changes.dm_panel_closed")
            await self._direct_messages.retire(user_id, event.match_id, closed)
            self._direct_messages.forget(user_id, event.match_id)
            await self._direct_messages.send(
                user_id, f"match {event.match_id}: abandoned", {"content": line}
            )
