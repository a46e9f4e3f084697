"""A server's daily puzzle: posted once a day at 00:00 UTC in the channel the server chose
(``GuildSettings.puzzle_channel_id``; none by default), answered by its members from the
public message, each press their one attempt at that puzzle (``service.puzzles.answer``).

- **When**: a stored alarm per server (:data:`DAILY_PUZZLE`, subject the server), set for the
  next midnight when the channel is chosen (:meth:`DailyPuzzles.follow_channel`) and for
  the midnight after with each day's post. The alarm clock claims it for one process.
- **Which**: among the server's own puzzles and the built-in ones, those not posted in the
  last :data:`RECENT_DAYS` days (all of them if that leaves none), one picked by a stable
  hash of the server and the day: the same day gives the same puzzle, in any process.
- **Once**: the day's row (its key is the server and the day), its
  :class:`~engine.service.puzzles.events.DailyPuzzlePosted` in the outbox and the next
  alarm are one commit; a second try of the same day finds the row and posts nothing, and
  a process that stopped before showing it shows it at its next start.

A server with no puzzle at all skips the day quietly; a channel the bot cannot post in is
the Discord layer's to log (the day is skipped, the alarm kept).

>>> day_of(86_400 * 20_000 + 5.0), midnight_after(86_400 * 20_000 + 5.0) == 86_400 * 20_001
(20000, True)
"""

from __future__ import annotations

import hashlib
import logging
import math

from engine.clocks import DAY_SECONDS
from engine.model import GuildSettings
from engine.model.daily_puzzle import DailyPuzzle
from engine.service.context import ServiceContext
from engine.service.puzzles.events import DailyPuzzlePosted
from engine.store.alarm import Alarm

log = logging.getLogger(__name__)

DAILY_PUZZLE = "daily-puzzle"
"""The stored alarm of a server's next daily puzzle; its subject is the server."""
RECENT_DAYS = 30
"""A puzzle posted in a server within this many days is not posted there again (unless
every puzzle was)."""
MAX_SOLVERS = 20
"""The solvers the public message names; the rest are counted."""


def day_of(at: float) -> int:
    """The UTC day (days since 1970-01-01) that ``at`` falls in."""
    return math.floor(at / DAY_SECONDS)


def midnight_after(at: float) -> float:
    """The first 00:00 UTC strictly after ``at``."""
    return (day_of(at) + 1) * DAY_SECONDS


def pick(guild_id: int, day: int, keys: list[str], recent: set[str]) -> str | None:
    """The day's puzzle among ``keys``, leaving out ``recent`` ones unless that leaves none:
    a stable hash of the server and the day (the same in every process and every run).

    >>> pick(1, 20_000, ["a", "b", "c"], set()) == pick(1, 20_000, ["c", "b", "a"], set())
    True
    >>> pick(1, 20_000, ["a", "b"], {"a"}), pick(1, 20_000, [], set())
    ('b', None)
    """
    pool = sorted(set(keys) - recent) or sorted(keys)
    if not pool:
        return None
    digest = hashlib.sha256(f"{guild_id}:{day}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


class DailyPuzzles:
    """Every server's daily puzzle; see the module docstring."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._store = context.store
        context.alarms.handle(DAILY_PUZZLE, self._due)

    async def follow_channel(self, guild_id: int) -> float | None:
        """After the server's puzzle channel changed: its daily puzzle comes at the next
        midnight (UTC), or no more with no channel. Returns when, if at all."""
        settings = await self._guild_settings(guild_id)
        if settings.puzzle_channel_id is None:
            await self._store.clear_alarms([(DAILY_PUZZLE, guild_id)])
            return None
        at = midnight_after(self._ctx.clock.now())
        await self._ctx.alarms.set([Alarm(DAILY_PUZZLE, guild_id, at)])
        return at

    async def of_day(self, guild_id: int, day: int) -> DailyPuzzle | None:
        """The server's puzzle of ``day``, if one was posted."""
        return await self._store.daily_puzzle(guild_id, day)

    async def solvers(self, daily: DailyPuzzle, limit: int = MAX_SOLVERS) -> tuple[list[int], int]:
        """The first ``limit`` members who solved the day's puzzle since it was posted, in
        the order they did, and how many did."""
        return await self._store.puzzle_solvers(daily.guild_id, daily.key, daily.posted_at, limit)

    async def post_due(self, guild_id: int) -> DailyPuzzlePosted | None:
        """Record and announce today's puzzle of the server, unless it has one already, it
        has no puzzle channel, or no puzzle: what was announced (None if nothing)."""
        now = self._ctx.clock.now()
        day = day_of(now)
        settings = await self._guild_settings(guild_id)
        channel_id = settings.puzzle_channel_id
        if channel_id is None:
            return None
        following = [Alarm(DAILY_PUZZLE, guild_id, midnight_after(now))]
        if await self._store.daily_puzzle(guild_id, day) is not None:
            await self._ctx.alarms.set(following)  # done before: the next day still comes
            return None
        keys = await self._store.puzzle_keys(guild_id)
        recent = await self._store.recent_daily_puzzles(guild_id, day - RECENT_DAYS)
        key = pick(guild_id, day, keys, {d.key for d in recent})
        if key is None:
            log.info("server %d has no puzzle for day %d", guild_id, day)
            await self._ctx.alarms.set(following)
            return None
        news = DailyPuzzlePosted(guild_id, day, key, channel_id)
        recorded = await self._store.record_daily_puzzle(
            DailyPuzzle(guild_id, day, key, channel_id, now),
            announcements=self._ctx.outbox.announcements([news], now),
            alarms=following,
        )
        if not recorded:  # another process recorded the day meanwhile, and its alarm
            return None
        # Published once committed; shown by the bot from the outbox's row.
        self._ctx.bus.publish(news)
        self._ctx.alarms.wake(following[0].due_at)
        return news

    async def _due(self, alarm: Alarm) -> None:
        """Midnight came for a server (claimed for this process): post the day's puzzle.
        A server that turned its channel off lets the alarm go with this ring."""
        await self.post_due(alarm.subject)

    async def _guild_settings(self, guild_id: int) -> GuildSettings:
        """Read afresh: another process may have changed the channel."""
        return await self._store.guild_settings(guild_id) or GuildSettings(guild_id)
