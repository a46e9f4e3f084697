"""Seasons of a server: started and ended by hand or at their length's boundary, their
standings, and the end's podium announced once.

A season's standings are worked out from the rated matches that finished within it
(:class:`~engine.seasons.SeasonTable`), the all-time ratings untouched. A running
season's table is kept per process and brought up to date with the matches finished since
(one query), so a leaderboard page does not replay the season; a season that ends is
counted once more in full, and its final ranking stored with the end, in one commit.

A season with an end has a stored alarm (:data:`SEASON_END`, written with the season) that
the service's :class:`~engine.service.scheduling.AlarmClock` claims for one process when it
is due. Every change to a server's seasons is made under its ``season:<guild>`` key
(:meth:`MatchStore.exclusive`, across processes on PostgreSQL), after reading the season
again, so a season ends once. The end is a :class:`~engine.seasons.SeasonEnded` event
committed with the end in the outbox and published on the bus: the bot posts the podium
and confirms it (``MatchService.announced``); a process that stops before that shows it
at its next start.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace

from engine.model import GuildSettings, SeasonLength
from engine.seasons import (
    PODIUM_PLACES,
    MemberSeasons,
    Season,
    SeasonEnded,
    SeasonPage,
    SeasonTable,
    announcement_channel,
    season_end,
)
from engine.service.context import ServiceContext
from engine.service.errors import InvalidRequest
from engine.service.seasons.errors import NoSeasonRunning, SeasonAlreadyRunning, SeasonNotFound
from engine.service.settings import MatchSettings
from engine.store.alarm import Alarm
from engine.store.errors import StoreError

log = logging.getLogger(__name__)

SEASON_END = "season-end"
"""The stored alarm of a running season with an end; its subject is the server."""
SEASON_PODIUM = "season-podium"
"""A podium a version before the outbox left unshown (set by the migration); its subject
is the server."""

NEVER = 1e18
"""A bound later than any finish time (a running season has no end yet)."""
MAX_PAGE = 100
MAX_SEASONS_LISTED = 25


@dataclass(frozen=True, slots=True)
class _Cached:
    """A running season's table in this process."""

    season: Season
    table: SeasonTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MatchSeasons:
    """Every server's seasons; see the module docstring."""

    def __init__(self, context: ServiceContext, settings: MatchSettings) -> None:
        self._ctx = context
        self._store = context.store
        self._settings = settings
        self._tables: dict[int, _Cached] = {}
        """guild id -> its running season's table."""
        context.alarms.handle(SEASON_END, self._end_due)
        context.alarms.handle(SEASON_PODIUM, self._announce_unshown)

    @property
    def min_games(self) -> int:
        return self._ctx.config.season_min_games

    # -- commands ------------------------------------------------------------------------

    async def start(self, guild_id: int) -> Season:
        """Start a season by hand now; it ends at its length's boundary if the server set a
        length, else by hand. Raises :class:`SeasonAlreadyRunning`."""
        async with self._ctx.operation(), self._store.exclusive(_key(guild_id)):
            running = await self._store.running_season(guild_id)
            if running is not None:
                raise SeasonAlreadyRunning(guild_id, running.number)
            season = await self._new_season(guild_id, self._ctx.clock.now())
            await self._store.start_season(season, alarms=_end_alarms(season))
        self._ctx.alarms.wake(season.ends_at)
        return season

    async def end(self, guild_id: int) -> SeasonEnded:
        """End the running season by hand now (the next starts at once if the server set a
        length). Raises :class:`NoSeasonRunning`, also to the second of two ends."""
        async with self._ctx.operation():
            running = await self._store.running_season(guild_id)
            if running is None:
                raise NoSeasonRunning(guild_id)
            ended = await self._end(running, self._ctx.clock.now())
            if ended is None:
                raise NoSeasonRunning(guild_id)
        return ended

    async def follow_length(self, guild_id: int) -> Season | None:
        """After the server's season length changed: the running season now ends at the new
        length's boundary (by hand for OFF); with no season running, a length starts one.
        Returns the running season, if any."""
        async with self._ctx.operation(), self._store.exclusive(_key(guild_id)):
            length = await self._length(guild_id)
            running = await self._store.running_season(guild_id)
            if running is None:
                if length is SeasonLength.OFF:
                    return None
                season = await self._new_season(guild_id, self._ctx.clock.now())
                await self._store.start_season(season, alarms=_end_alarms(season))
            else:
                ends_at = self._end_of(length, running.started_at, self._ctx.clock.now())
                season = replace(running, length=length, ends_at=ends_at)
                if season != running:
                    await self._store.set_season_end(
                        season, alarms=_end_alarms(season), cleared_alarms=_no_end(guild_id, season)
                    )
        self._ctx.alarms.wake(season.ends_at)
        return season

    # -- queries -------------------------------------------------------------------------

    async def current(self, guild_id: int) -> Season | None:
        return await self._store.running_season(guild_id)

    async def past(self, guild_id: int) -> list[Season]:
        """The server's ended seasons, newest first (the latest 25)."""
        found = await self._store.seasons_of(guild_id, MAX_SEASONS_LISTED + 1)
        return [s for s in found if not s.running][:MAX_SEASONS_LISTED]

    async def leaderboard(
        self, guild_id: int, number: int | None = None, *, offset: int = 0, limit: int = 10
    ) -> SeasonPage:
        """A page of the running season's ranking (``number`` None), or of season
        ``number``'s, running or ended. Raises :class:`SeasonNotFound`."""
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest(
                f"season leaderboard of offset={offset!r}, limit={limit!r} "
                f"(offset not negative; limit 1 to {MAX_PAGE})"
            )
        if number is None:
            season = await self._store.running_season(guild_id)
        else:
            season = await self._store.season(guild_id, number)
        if season is None:
            raise SeasonNotFound(guild_id, number)
        if season.running:
            ranking = (await self._running_table(season)).ranking()
            entries = ranking[offset : offset + limit]
            return SeasonPage(season, entries, offset, len(ranking), self.min_games)
        rows, total = await self._store.season_ranking(
            guild_id, season.number, offset=offset, limit=limit
        )
        return SeasonPage(season, tuple(rows), offset, total, self.min_games)

    async def member(self, guild_id: int, user_id: int) -> MemberSeasons:
        """The member's line in the running season and their best finish in an ended one."""
        season = await self._store.running_season(guild_id)
        standing = None
        if season is not None:
            standing = (await self._running_table(season)).standing_of(user_id)
        best = await self._store.best_season(guild_id, user_id)
        return MemberSeasons(season, standing, self.min_games, best)

    # -- the alarms ----------------------------------------------------------------------

    async def _end_due(self, alarm: Alarm) -> None:
        """A season's end came (claimed for this process): end it if it still runs and is
        due; a moved end sets its alarm again."""
        guild_id = alarm.subject
        running = await self._store.running_season(guild_id)
        if running is None or running.ends_at is None:
            return  # ended by hand, or its length turned off: its alarm went with that
        if running.ends_at > self._ctx.clock.now():
            await self._ctx.alarms.set(_end_alarms(running))
            return
        await self._end(running, running.ends_at)

    async def _announce_unshown(self, alarm: Alarm) -> None:
        """Announce the podiums a version before the outbox ended and never showed. Under
        the server's key: an end made meanwhile is marked shown before this reads it."""
        async with self._store.exclusive(_key(alarm.subject)):
            for season in await self._store.seasons_of(alarm.subject, MAX_SEASONS_LISTED):
                if season.running or season.podium_shown:
                    continue
                ended = await self._ended(season)
                await self._store.add_announcements(
                    self._ctx.outbox.announcements([ended], self._ctx.clock.now())
                )
                await self._store.season_podium_shown(season.guild_id, season.number)
                self._ctx.bus.publish(ended)

    # -- ending --------------------------------------------------------------------------

    async def _end(self, season: Season, at: float) -> SeasonEnded | None:
        """End ``season`` as of ``at`` if it still runs (None otherwise): count it in full,
        keep its ranking, start the next if the server set a length."""
        guild_id = season.guild_id
        async with self._store.exclusive(_key(guild_id)):
            running = await self._store.running_season(guild_id)
            if running is None or running.number != season.number:
                return None
            results = await self._store.season_results(guild_id, running.started_at, at)
            table = SeasonTable(self.min_games)
            table.add_all(results)
            ranking = table.ranking()
            ended = replace(running, ended_at=at)
            settings = await self._guild_settings(guild_id)
            length = settings.season_length or SeasonLength.OFF
            now = self._ctx.clock.now()
            next_season = None
            if length is not SeasonLength.OFF:
                next_season = Season(
                    guild_id,
                    running.number + 1,
                    started_at=at,
                    ends_at=self._end_of(length, at, now),
                    length=length,
                )
            channel = announcement_channel(settings)
            news = SeasonEnded(ended, ranking[:PODIUM_PLACES], channel, next_season)
            await self._store.end_season(
                ended,
                ranking,
                next_season,
                announcements=self._ctx.outbox.announcements([news], now),
                alarms=_end_alarms(next_season),
                cleared_alarms=_no_end(guild_id, next_season),
            )
            self._tables.pop(guild_id, None)
            try:
                # Its podium is the outbox's now: a SEASON_PODIUM alarm left by the upgrade
                # (or tried again after it failed) must not take it for one never shown.
                await self._store.season_podium_shown(guild_id, ended.number)
            except StoreError as error:
                log.warning(
                    "season %d of server %d: not marked shown (%s)", ended.number, guild_id, error
                )
        log.info(
            "season %d of server %d ended: %d ranked of %d members, %d matches",
            ended.number,
            guild_id,
            len(ranking),
            table.members,
            table.count,
        )
        # Published once committed; shown by the bot from the outbox's row.
        self._ctx.bus.publish(news)
        if next_season is not None:
            self._ctx.alarms.wake(next_season.ends_at)
        return news

    async def _ended(self, season: Season) -> SeasonEnded:
        """An ended season whose podium was never shown, as it ended."""
        guild_id = season.guild_id
        podium, _ = await self._store.season_ranking(
            guild_id, season.number, offset=0, limit=PODIUM_PLACES
        )
        settings = await self._guild_settings(guild_id)
        running = await self._store.running_season(guild_id)
        next_season = running if running is not None and running.number > season.number else None
        channel = announcement_channel(settings)
        return SeasonEnded(season, tuple(podium), channel, next_season)

    # -- helpers -------------------------------------------------------------------------

    async def _guild_settings(self, guild_id: int) -> GuildSettings:
        """Read afresh, not from the settings' cache: another process may have changed
        the length or the channel."""
        return await self._store.guild_settings(guild_id) or GuildSettings(guild_id)

    async def _length(self, guild_id: int) -> SeasonLength:
        settings = await self._guild_settings(guild_id)
        return settings.season_length or SeasonLength.OFF

    async def _new_season(self, guild_id: int, now: float) -> Season:
        length = await self._length(guild_id)
        latest = await self._store.seasons_of(guild_id, 1)
        number = latest[0].number + 1 if latest else 1
        return Season(guild_id, number, now, self._end_of(length, now, now), length)

    def _end_of(self, length: SeasonLength, started_at: float, now: float) -> float | None:
        """When a season of ``length`` started at ``started_at`` ends. One that would
        already be over (the bot was down across boundaries) runs to the next one."""
        if length is SeasonLength.OFF:
            return None
        seconds = self._ctx.config.season_seconds
        if seconds is not None:
            ends_at = started_at + seconds
            return ends_at if ends_at > now else now + seconds
        ends = season_end(length, started_at)
        assert ends is not None
        return ends if ends > now else season_end(length, now)

    async def _running_table(self, season: Season) -> SeasonTable:
        """The running season's table, brought up to date (:meth:`_catch_up`); counted
        again from the season's start if a result was committed late."""
        cached = self._tables.get(season.guild_id)
        if cached is None or cached.season.number != season.number:
            cached = _Cached(season, SeasonTable(self.min_games))
            self._tables[season.guild_id] = cached
        async with cached.lock:  # readers at once would count the same matches twice
            if await self._catch_up(cached):
                return cached.table
        if self._tables.get(season.guild_id) is cached:
            del self._tables[season.guild_id]
        return await self._running_table(season)

    async def _catch_up(self, cached: _Cached) -> bool:
        """Count the matches finished since the last one counted (one query), and check
        with another that none finished earlier was committed since (another process's
        result, after a stall): False if one was, and the table is no good."""
        season, table = cached.season, cached.table
        guild_id, last = season.guild_id, table.last
        if last is None:
            table.add_all(await self._store.season_results(guild_id, season.started_at, NEVER))
            return True
        rows = await self._store.season_results(guild_id, last[0], NEVER)
        fresh = [r for r in rows if (r.finished_at, r.match_id) > last]
        counted = await self._store.count_season_results(guild_id, season.started_at, last[0])
        if counted != table.count + sum(r.finished_at == last[0] for r in fresh):
            return False
        table.add_all(fresh)
        return True


def _key(guild_id: int) -> str:
    return f"season:{guild_id}"


def _end_alarms(season: Season | None) -> list[Alarm]:
    """The alarm of a season that ends by itself (none for one that ends by hand)."""
    if season is None or season.ends_at is None:
        return []
    return [Alarm(SEASON_END, season.guild_id, season.ends_at)]


def _no_end(guild_id: int, season: Season | None) -> list[tuple[str, int]]:
    """The server's end alarm to clear when ``season`` ends only by hand, or none runs."""
    if season is None or season.ends_at is None:
        return [(SEASON_END, guild_id)]
    return []
