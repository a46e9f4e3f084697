"""Ending the open matches of a place that is gone: a channel deleted, or the bot removed
from a server. The Discord layer says the place is gone; whether a match ends is decided
here, one match at a time under its lock, by the database (another process may have
moved it on or ended it first)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from engine.model import MatchInfo, MatchStatus
from engine.service.context import OPEN, ServiceContext
from engine.service.events import MatchAbandoned, PlaceLost
from engine.service.matches.errors import MatchNotActive, MatchNotFound
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.turns import MatchTurns
from engine.store.errors import DatabaseUnavailable, MatchConflict

log = logging.getLogger(__name__)


class MatchAbandonment:
    def __init__(self, context: ServiceContext, turns: MatchTurns) -> None:
        self._ctx = context
        self._turns = turns

    async def abandon_channel(self, guild_id: int, channel_id: int) -> list[MatchInfo]:
        """End every open match and challenge of a deleted channel (its threads went with
        it) as abandoned; the ones ended here, each announced with :class:`MatchAbandoned`.

        A match that fails is logged and the others are still ended; if the database
        stalled for any, :class:`DatabaseUnavailable` is raised once all were tried (those
        ended stay ended: asking again ends the rest)."""
        return await self._abandon_all(guild_id, channel_id, PlaceLost.CHANNEL_DELETED)

    async def abandon_guild(self, guild_id: int) -> list[MatchInfo]:
        """End every open match and challenge of a server that removed the bot (not one
        that is merely unavailable: that is an outage, and its matches wait for it)."""
        return await self._abandon_all(guild_id, None, PlaceLost.REMOVED_FROM_SERVER)

    async def abandon_left_guilds(self, left: Callable[[int], bool]) -> list[MatchInfo]:
        """End the open matches of every server the bot has ``left`` (says the Discord layer,
        for a server id), as :meth:`abandon_guild` does: the removals it missed while down.
        Asking twice is harmless."""
        found = await self._ctx.store.open_matches()
        guilds = {info.guild_id for info, _ in found if info.guild_id is not None}
        gone = sorted(guild_id for guild_id in guilds if left(guild_id))
        ended: list[MatchInfo] = []
        stalled: DatabaseUnavailable | None = None
        for guild_id in gone:
            try:
                ended += await self.abandon_guild(guild_id)
            except DatabaseUnavailable as error:
                stalled = error  # the others are still tried
        if stalled is not None:
            raise stalled
        return ended

    async def _abandon_all(
        self, guild_id: int, channel_id: int | None, because: PlaceLost
    ) -> list[MatchInfo]:
        where = f"server {guild_id}" if channel_id is None else f"channel {channel_id}"
        ended: list[MatchInfo] = []
        stalled: DatabaseUnavailable | None = None
        async with self._ctx.operation():
            found = await self._ctx.store.open_matches_in(guild_id, channel_id)
            for match in found:
                # Each on its own: one that fails does not keep the rest open (and rated
                # when their timers run out).
                try:
                    info = await self._abandon(match.match_id, because)
                except DatabaseUnavailable as error:
                    stalled = error  # the caller asks again; what ended here stays ended
                    continue
                except Exception:
                    log.exception(
                        "%s is gone: match %s could not be abandoned", where, match.match_id
                    )
                    continue
                if info is not None:
                    ended.append(info)
        if ended:
            log.info("%s is gone: %d open matches abandoned", where, len(ended))
        if stalled is not None:
            raise stalled
        return ended

    async def _abandon(self, match_id: int, because: PlaceLost) -> MatchInfo | None:
        try:
            live = await self._ctx.open_match(match_id)
        except (MatchNotFound, MatchNotActive):
            return None  # ended meanwhile
        async with live.lock:
            for last_try in (False, True):
                try:
                    await self._ctx.refresh(live)
                except MatchNotFound:
                    return None
                status = live.info.status
                if status not in OPEN or live.match_id not in self._ctx.matches:
                    return None
                try:
                    await self._ctx.store.abandon_match(match_id, status, self._ctx.clock.now())
                    break
                except MatchConflict:
                    # Another process moved it on (a challenge accepted, say): try once more
                    # as it is now; a second conflict in a row is a fault, not a race.
                    if last_try:
                        raise
            return self._let_go(live, status, because)

    def _let_go(self, live: LiveMatch, was: MatchStatus, because: PlaceLost) -> MatchInfo:
        """Forget the match here: no timer, no AI move (both check it is still held)."""
        live.info = replace(live.info, status=MatchStatus.ABANDONED, ended_at=self._ctx.clock.now())
        live.deadline = None
        self._ctx.matches.remove(live)
        self._turns.arm(live)  # disarms: the match is no longer held
        info = live.info
        self._ctx.bus.publish(
            MatchAbandoned(
                info.match_id,
                info.players,
                was is MatchStatus.ACTIVE,
                info.guild_id,
                info.channel_id,
                live.version,
                because,
                info.ai_level,
            )
        )
        return info
