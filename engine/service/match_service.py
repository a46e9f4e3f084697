"""The async match service: every match from challenge to end, durable and serialised.

It knows nothing of Discord; user, guild, channel, thread and message ids are opaque
integers. The Discord layer calls the coroutines of its parts and subscribes to
:mod:`engine.service.events`:

- ``service.commands`` (:mod:`.matches.commands`): start_ai_match, submit, resign;
- ``service.challenges`` (:mod:`.challenges.service`): challenge a member or anyone,
  accept, decline, cancel, rematch;
- ``service.seats`` (:mod:`.challenges.seats`): open seats (challenges to anyone) in a
  seat's words, listed per server;
- ``service.queries`` (:mod:`.matches.queries`): views, match info, history, ratings, records;
- ``service.settings`` (:mod:`.settings`): guild and user settings;
- ``service.placements`` (:mod:`.matches.placements`): where the Discord layer shows a match;
- ``service.abandonment`` (:mod:`.matches.abandonment`): ending the open matches of a deleted
  channel or of a server that removed the bot;
- ``service.reviews`` (:mod:`.reviews.service`): the review of a finished match, analysed once;
- ``service.hints`` (:mod:`.reviews.hints`): the AI's suggestion in a hint match against it;
- ``service.seasons`` (:mod:`.seasons.service`): a server's seasons, their standings and
  podiums.
- ``service.tournaments`` (:mod:`.tournaments.service`): Swiss, round-robin and knockout
  tournaments, each round's matches started when the last round's have all ended.
- ``service.overdue`` (:mod:`.matches.overdue`): turn-based play, what the waiting player
  chooses once the other's days and grace ran out (claim, the AI, keep waiting);
- ``service.puzzles`` (:mod:`.puzzles.service`): puzzles from reviewed matches and the
  built-in set, handed out near each member's rating, answered once;
- ``service.puzzle_streaks`` (:mod:`.puzzles.streaks`): the unrated streak, ever harder
  puzzles until the first miss;
- ``service.daily_puzzles`` (:mod:`.puzzles.daily`): a server's puzzle of the day, posted
  once at 00:00 UTC in its chosen channel;
- ``service.vacations`` (:mod:`.matches.vacations`): members pausing their turn-based turns.

Deadlines, reminders, expiry and the AI are :mod:`.matches.turns`; the steps that change a
match are :mod:`.matches.progress`; the open matches shared by all are
:mod:`.matches.open_matches`. Every feature announces through :mod:`.announcing` (the one
bus and outbox) and schedules through :mod:`.scheduling` (the one alarm clock).

Guarantees:

- Decisions of one match are applied one at a time (a lock per match); different matches
  never wait for each other.
- A submission names the version its player saw; a stale or repeated one raises
  :class:`StaleVersion` and is never applied twice.
- A decision is acknowledged (``submit`` returns) only after the store committed it; the
  state others see changes at the same moment.
- A rated match's new ratings are committed in the same transaction as its result
  (:mod:`engine.ratings.rated_match` says which matches are rated and how).
- On :meth:`MatchService.start`, every unfinished match is rebuilt by replaying its
  decisions, and its timers are re-armed from the stored absolute deadlines (one that
  passed while the bot was down gets a short grace: :meth:`MatchTurns.resume`).

With a shared database (``MatchStore.shared``: PostgreSQL, several bot processes) the
database is the authority and memory a cache: any process may apply a decision to any
match, each write checks in its transaction the version its caller saw
(``MatchConflict`` otherwise: a stale submission gets :class:`StaleVersion`), a match is
loaded when first needed and brought up to date before each use, and deadlines and
stored alarms are claimed from the database by one process at a time
(:mod:`.scheduling`). At start a process shows only what it had not shown itself (its
``origin`` in the outbox).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from concurrent.futures import Executor

from engine.model import MatchStatus
from engine.service.announcing.event_bus import Subscriber
from engine.service.challenges.seats import SeatCommands
from engine.service.challenges.service import MatchChallenges
from engine.service.clock import Clock, SystemClock
from engine.service.config import ServiceConfig
from engine.service.context import ServiceContext
from engine.service.events import Event, MatchResumed
from engine.service.figures import ServiceFigures
from engine.service.matches.abandonment import MatchAbandonment
from engine.service.matches.commands import MatchCommands
from engine.service.matches.live_match import LiveMatch, ReplayError, replay_decisions
from engine.service.matches.overdue import OverdueChoices
from engine.service.matches.placements import MatchPlacements
from engine.service.matches.progress import MatchProgress
from engine.service.matches.queries import MatchQueries
from engine.service.matches.turns import AgentFactory, MatchTurns, random_agent_factory
from engine.service.matches.vacations import MatchVacations
from engine.service.puzzles.daily import DailyPuzzles
from engine.service.puzzles.service import MatchPuzzles
from engine.service.puzzles.streaks import PuzzleStreaks
from engine.service.reviews.hints import MatchHints
from engine.service.reviews.service import MatchReviews
from engine.service.seasons.service import MatchSeasons
from engine.service.settings import MatchSettings
from engine.service.tournaments.service import TournamentService
from engine.store.health import StoreHealth
from engine.store.match_store import MatchStore

log = logging.getLogger(__name__)

_CLOSE_TIMEOUT = 5.0


class MatchService:
    """Owns every match from challenge to end; see the module docstring for guarantees."""

    def __init__(
        self,
        store: MatchStore,
        config: ServiceConfig | None = None,
        *,
        clock: Clock | None = None,
        agent_factory: AgentFactory = random_agent_factory,
        rng: random.Random | None = None,
        agent_executor: Executor | None = None,
    ) -> None:
        self.store = store
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self._ctx = ServiceContext(store, self.config, self.clock, rng or random.Random())
        self._progress = MatchProgress(self._ctx)
        self._turns = MatchTurns(self._ctx, self._progress, agent_factory, agent_executor)
        self.settings = MatchSettings(store, self.config)
        self.commands = MatchCommands(self._ctx, self.settings, self._progress, self._turns)
        self.challenges = MatchChallenges(
            self._ctx, self.settings, self._progress, self._turns, self.commands
        )
        self.seats = SeatCommands(self._ctx, self.challenges)
        self.queries = MatchQueries(self._ctx, self.settings)
        self.placements = MatchPlacements(self._ctx)
        self.abandonment = MatchAbandonment(self._ctx, self._turns)
        # Reviews and hints search in the AI's executor, one job at a time, so the AI's
        # own moves wait behind at most one of their jobs.
        self.reviews = MatchReviews(self._ctx, self.queries, agent_executor)
        self.hints = MatchHints(self._ctx, self.queries, agent_executor)
        self.seasons = MatchSeasons(self._ctx, self.settings)
        self.tournaments = TournamentService(self._ctx, self.commands)
        self.overdue = OverdueChoices(self._ctx, self._progress, self._turns)
        self.puzzles = MatchPuzzles(self._ctx, self.settings, agent_executor)
        self.reviews.reviewed = self.puzzles.reviewed
        self.puzzle_streaks = PuzzleStreaks(self._ctx, self.puzzles)
        self.daily_puzzles = DailyPuzzles(self._ctx)
        self.vacations = MatchVacations(self._ctx, self.settings, self._turns)
        self.broken: dict[int, str] = {}
        """Matches set aside at start-up because they no longer replay: id -> reason."""

    async def start(self) -> None:
        """Open (and migrate) the store, rebuild every unfinished match, re-arm its timers."""
        ctx = self._ctx
        await self.store.open()
        await self._install_puzzles()
        undelivered = await self.store.undelivered()
        if ctx.shared:
            ctx.started = True
            ctx.outbox.publish(undelivered)
            await ctx.alarms.start()
            await self.tournaments.resume()
            log.info(
                "match service started on a shared database, %d announcements to show",
                len(undelivered),
            )
            return
        for info, rows in await self.store.open_matches():
            if info.status is MatchStatus.PENDING:
                ctx.matches.add(LiveMatch(info))
                continue
            try:
                live = replay_decisions(info, rows)
            except ReplayError as error:
                await self._progress.set_aside(info, str(error))
                self.broken[info.match_id] = str(error)
                continue
            ctx.matches.add(live)
        ctx.started = True
        # What the bot had not shown yet goes first, in order, then every match under way
        # is brought up to date; timers come after, so their events follow both.
        ctx.outbox.publish(undelivered)
        for live in ctx.matches:
            if live.state is not None and not live.state.is_over:
                ctx.bus.publish(MatchResumed(live.match_id, live.state.version))
        for live in ctx.matches:
            if live.state is not None and live.state.is_over:
                # Cannot happen with one store (the last decision and the result commit
                # together), but a hand-edited database should still end cleanly.
                ctx.spawn(self._finish_replayed(live))
            else:
                self._turns.resume(live)
        await ctx.alarms.start()
        await self.tournaments.resume()
        log.info(
            "match service started with %d open matches, %d announcements to show",
            len(ctx.matches),
            len(undelivered),
        )

    async def _install_puzzles(self) -> None:
        """The built-in puzzles, stored once (a restart keeps their ratings); a failure is
        logged and only costs the puzzles of servers with none of their own."""
        try:
            await self.puzzles.install_builtin()
        except Exception:
            log.exception("the built-in puzzles were not stored")

    async def close(self) -> None:
        """Stop timers, let in-flight decisions finish, deliver queued events, close the store."""
        ctx = self._ctx
        if ctx.closed:
            return
        ctx.closed = True
        self._turns.close()
        await ctx.alarms.close()
        await self.reviews.close()
        await self.hints.close()
        await ctx.finish_work(_CLOSE_TIMEOUT)
        await ctx.operations_done()
        await ctx.bus.close(_CLOSE_TIMEOUT)
        await ctx.outbox.close()
        await self.store.close()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Receive every event (async callback); returns a function that unsubscribes.

        Delivery is per subscriber and in order; a slow or failing subscriber is logged
        and never holds up the service.
        """
        return self._ctx.bus.subscribe(callback)

    def announced(self, event: Event) -> None:
        """The subscriber showing ``event`` in public is done with it: Discord took it, or
        refused it for good. Until then it is shown again after a restart (:mod:`.outbox`)."""
        self._ctx.outbox.announced(event)

    def figures(self) -> ServiceFigures:
        """Headline counts for metrics and health checks, from memory."""
        ctx = self._ctx
        pending = sum(1 for live in ctx.matches if live.state is None)
        waiting, oldest = ctx.outbox.waiting()
        store = self.store
        health = store if isinstance(store, StoreHealth) else None
        return ServiceFigures(
            started=ctx.started and not ctx.closed,
            challenges_open=pending,
            matches_playing=len(ctx.matches) - pending,
            announcements_waiting=waiting,
            oldest_announcement_seconds=oldest,
            reviews_running=self.reviews.running,
            database_down=health is not None and health.database_down,
            disk_full=health is not None and health.disk_full,
            connections_in_use=0 if health is None else health.connections_in_use,
        )

    async def ping_database(self) -> None:
        """Return once the database answers a write round trip (for a readiness check);
        raise :class:`~engine.store.errors.DatabaseUnavailable` if it does not in time."""
        store = self.store
        if isinstance(store, StoreHealth):
            await store.ping()

    async def wait_idle(self) -> None:
        """Wait until AI moves, timer actions and event deliveries under way are done."""
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            busy = self._ctx.busy_tasks()
            if busy:
                await asyncio.wait(busy)
                continue
            if self._ctx.bus.has_backlog():
                await self._ctx.bus.drain()
                continue
            return

    async def _finish_replayed(self, live: LiveMatch) -> None:
        async with live.lock:
            assert live.state is not None
            await self._progress.finish(live, live.state)
            self._turns.arm(live)
