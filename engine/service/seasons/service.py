"""Seasons of a server: started and ended by hand or at their length's boundary, their
standings, and the end's podium announced once across processes.

A season's standings are worked out from the rated matches that finished within it
(:class:`~engine.seasons.SeasonTable`), the all-time ratings untouched. A running
season's table is kept per process and brought up to date with the matches finished since
(one query), so a leaderboard page does not replay the season; a season that ends is
counted once more in full, and its final ranking stored with the end, in one commit.

Ends fire once: every change to a server's seasons is made under its ``season:<guild>``
key (:meth:`MatchStore.exclusive`, across processes on PostgreSQL), after reading the
season again; a season due to end is first claimed from the database
(:meth:`MatchStore.claim_due_seasons`), and the end keeps the claim for the process that
made it, which tells its listeners (the bot posts the podium) and then marks the podium
shown. A process that dies before that leaves the claim to run out; another (or the same,
restarted) takes the podium over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
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
from engine.service.errors import (
    InvalidRequest,
    NoSeasonRunning,
    SeasonAlreadyRunning,
    SeasonNotFound,
)
from engine.service.settings import MatchSettings
from engine.store.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

SeasonListener = Callable[[SeasonEnded], Awaitable[None]]

CLAIM_SECONDS = 60.0
"""How long a claimed season is left to its process (to end it and show its podium)."""
POLL_SECONDS = 1.0
"""On a shared database, how often a process asks whether a season is due: another process
may have started one that ends sooner than any this one knows of."""
BATCH = 20
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
        self._listeners: list[SeasonListener] = []
        self._runner: asyncio.Task[None] | None = None
        self._armed: float | None = None
        """When the runner wakes (None: when re-armed)."""
        self._polling = False
        self._poll_again = False
        """A wake came while a poll ran: one poll at a time (two could both claim on
        SQLite, whose claim reads, then writes), so it polls again when it ends."""

    @property
    def min_games(self) -> int:
        return self._ctx.config.season_min_games

    # -- who hears of an end -------------------------------------------------------------

    def on_season_ended(self, listener: SeasonListener) -> Callable[[], None]:
        """Call ``listener`` when a season this process ended is to be announced; it must
        call :meth:`podium_shown` once the podium is shown (or refused for good). Returns
        a function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def podium_shown(self, guild_id: int, number: int) -> None:
        await self._store.season_podium_shown(guild_id, number)

    # -- commands ------------------------------------------------------------------------

    async def start(self, guild_id: int) -> Season:
        """Start a season by hand now; it ends at its length's boundary if the server set a
        length, else by hand. Raises :class:`SeasonAlreadyRunning`."""
        async with self._ctx.operation(), self._store.exclusive(_key(guild_id)):
            running = await self._store.running_season(guild_id)
            if running is not None:
                raise SeasonAlreadyRunning(guild_id, running.number)
            season = await self._new_season(guild_id, self._ctx.clock.now())
            await self._store.start_season(season)
        await self._rearm()
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
            await self._rearm()
        self._ctx.spawn(self._announce(ended))
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
                await self._store.start_season(season)
            else:
                ends_at = self._end_of(length, running.started_at, self._ctx.clock.now())
                season = replace(running, length=length, ends_at=ends_at)
                if season != running:
                    await self._store.set_season_end(season)
            await self._rearm()
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

    # -- the alarm -----------------------------------------------------------------------

    def start_alarms(self) -> None:
        """Look for due seasons now (the bot may have been down at a boundary), then at
        each next alarm."""
        self._arm(self._ctx.clock.now())

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    def _arm(self, at: float | None) -> None:
        """Wake at ``at`` (never, if None) unless already waking no later; poll at once if
        ``at`` is due. A wake that comes too early only looks and re-arms, so the earliest
        asked for always wins."""
        if self._ctx.closed:
            return
        if self._ctx.shared:
            # Another process may start a season that ends sooner than any known here.
            soon = self._ctx.clock.now() + POLL_SECONDS
            at = soon if at is None else min(at, soon)
        due = at is not None and at <= self._ctx.clock.now()
        if self._runner is not None and not self._runner.done():
            if not due and self._armed is not None and (at is None or self._armed <= at):
                return
            self._runner.cancel()
        if due:
            # Due already: the poll starts now, as work wait_idle() sees, rather than one
            # hop later from a task that nothing waits for.
            self._armed = None
            self._runner = None
            self._start_poll()
            return
        self._armed = at
        # A task that sleeps and nothing else, so it is safe to cancel: the work it starts is
        # background work (spawned) that wait_idle() waits for, and that arms the next wake.
        self._runner = asyncio.create_task(self._sleep_then_poll(at))

    async def _sleep_then_poll(self, at: float | None) -> None:
        if at is None:
            await asyncio.Event().wait()  # until re-armed (cancelled)
            return
        await self._ctx.clock.sleep_until(at)
        self._armed = None
        self._start_poll()

    async def _rearm(self) -> None:
        """Arm the next wake from the database (after a change here, or a poll)."""
        try:
            at = await self._store.next_season_alarm()
        except Exception:
            at = self._ctx.clock.now() + POLL_SECONDS  # the failure is told by its caller
        self._arm(at)

    def _start_poll(self) -> None:
        if self._polling:
            self._poll_again = True
            return
        self._polling = True
        self._ctx.spawn(self._poll(self._ctx.clock.now()))

    async def _poll(self, now: float) -> None:
        try:
            await self._poll_once(now)
        finally:
            self._polling = False
        if self._poll_again:
            self._poll_again = False
            self._arm(self._ctx.clock.now())

    async def _poll_once(self, now: float) -> None:
        try:
            due = await self._store.claim_due_seasons(now, now + CLAIM_SECONDS, BATCH)
        except Exception as error:
            if not isinstance(error, DatabaseUnavailable):  # the store tells of an outage
                log.exception("cannot ask the database for seasons due to end; trying again")
            # Not re-armed from the database: what is due stays due, and it would be
            # asked again at once, in a loop, for as long as the claim fails.
            self._arm(now + POLL_SECONDS)
            return
        await self._handle(due)
        if len(due) == BATCH:
            self._arm(now)  # more are due
        else:
            await self._rearm()

    async def _handle(self, due: list[Season]) -> None:
        for season in due:
            try:
                if season.running:
                    assert season.ends_at is not None
                    ended = await self._end(season, season.ends_at)
                else:
                    ended = await self._ended(season)
            except DatabaseUnavailable:
                continue  # the store tells of the outage; the claim runs out, and it is retried
            except Exception:
                # Its claim runs out and it is tried again.
                log.exception(
                    "season %d of server %d could not end", season.number, season.guild_id
                )
                continue
            if ended is not None:
                self._ctx.spawn(self._announce(ended))

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
            await self._store.end_season(ended, ranking, now + CLAIM_SECONDS, next_season)
            self._tables.pop(guild_id, None)
        log.info(
            "season %d of server %d ended: %d ranked of %d members, %d matches",
            ended.number,
            guild_id,
            len(ranking),
            table.members,
            table.count,
        )
        return SeasonEnded(ended, ranking[:PODIUM_PLACES], channel, next_season)

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

    async def _announce(self, ended: SeasonEnded) -> None:
        """Tell the listeners; with nowhere to announce, or nobody listening, it is done.
        Whatever fails here leaves the podium unshown: once the claim runs out, it is
        announced again."""
        season = ended.season
        try:
            if ended.channel_id is None or not self._listeners:
                await self.podium_shown(season.guild_id, season.number)
                return
            for listener in list(self._listeners):
                await listener(ended)
        except DatabaseUnavailable:
            pass  # the store tells of the outage
        except Exception:
            log.exception("the end of season %d could not be announced", season.number)

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
