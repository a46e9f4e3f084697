"""Tournaments from registration to podium: create, join, leave, start, withdraw, remove,
cancel; each round paired when the last one's matches have all ended.

The pairing, scoring and tiebreaks are the pure rules of :mod:`engine.tournaments`; this
part stores the event and makes each step happen once, in whichever process gets there
first: every step runs under the event's key (``store.exclusive``), a round is written
with all its games in one commit that a second try cannot repeat
(:meth:`~engine.store.tournament_store.TournamentStore.pair_round`), and a table gets its
match once. The state of an event is only what is stored, so :meth:`TournamentService.advance`
after a restart (start-up runs it for every event under way) picks up where it stopped:
it reads finished matches' results, starts a table's match that was never started, and
pairs the next round if the last is over.

Tournament matches are ordinary matches (their own thread and board, turn timers, the
server's expiry policy, ratings); seat 0 is the pairing's first player, who starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine.model import (
    MatchStatus,
    Tournament,
    TournamentEntry,
    TournamentGame,
    TournamentStatus,
)
from engine.rules.state import Variant
from engine.service.context import ServiceContext
from engine.service.errors import ServiceError
from engine.service.events import (
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    MatchAbandoned,
    MatchEnded,
)
from engine.service.matches.commands import MatchCommands
from engine.service.tournaments.errors import (
    AlreadyRegistered,
    BadTournamentSettings,
    MayNotOrganise,
    NotEnoughPlayers,
    NotOrganiser,
    NotRegistered,
    OrganiserCannotLeave,
    RegistrationClosed,
    TournamentAlreadyOpen,
    TournamentFull,
    TournamentNotFound,
    TournamentNotRunning,
)
from engine.service.tournaments.events import (
    PlayerWithdrawn,
    RoundPaired,
    TournamentEnded,
    TournamentEvent,
    TournamentStarted,
)
from engine.store.errors import DuplicateKey, StoreError
from engine.tournaments import (
    Entrant,
    EventPlan,
    Finished,
    Format,
    Game,
    Pairing,
    Result,
    Standing,
    final_standings,
    next_round,
)

log = logging.getLogger(__name__)

MOST_PLAYERS = 256
"""An event's cap: each round is that many players' matches, threads and boards at once."""
MOST_ROUNDS = 20
LONGEST_NAME = 100
DEFAULT_RATING = 1500.0
ADVANCE_RETRY_SECONDS = 5.0
"""After a failed advance (the database did not answer, a match changed meanwhile), the
first wait before the next try; it doubles each time, up to the longest."""
LONGEST_ADVANCE_RETRY_SECONDS = 300.0

TournamentSubscriber = Callable[[TournamentEvent], Awaitable[None]]

_CLOSED_UNSTARTED = frozenset({MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED})


class _NeverStarted(enum.Enum):
    """A table's match closed before it began (see :meth:`TournamentService._result_of`)."""

    NEVER_STARTED = enum.auto()


_NEVER_STARTED = _NeverStarted.NEVER_STARTED


class TournamentService:
    """The ``service.tournaments`` part of :class:`~engine.service.MatchService`."""

    def __init__(self, context: ServiceContext, commands: MatchCommands) -> None:
        self._ctx = context
        self._commands = commands
        self._subscribers: list[TournamentSubscriber] = []
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._retries: dict[int, asyncio.Task[None]] = {}  # by match id

    def subscribe(self, callback: TournamentSubscriber) -> Callable[[], None]:
        """Receive every tournament event; returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    # -- life of the service -------------------------------------------------------------

    async def start(self) -> None:
        """Listen for tournament matches ending, then :meth:`resume`."""
        self._ctx.bus.subscribe(self._on_match_event)
        await self.resume()

    async def resume(self) -> None:
        """Pick up every event under way, and show again what a process stopped before
        showing (pairings, an end).

        Shown at least once: another process may be posting the same round at that
        moment, and then it shows twice rather than never."""
        store = self._ctx.store
        for tournament in await store.open_tournaments():
            if tournament.status is TournamentStatus.RUNNING:
                await self.advance(tournament.tournament_id)
                await self._publish(await self._unshown_rounds(tournament.tournament_id))
            else:
                self._arm(tournament)
        for ended in await store.ended_unshown():
            standings = (
                ()
                if ended.status is TournamentStatus.CANCELLED
                else await self.standings(ended.tournament_id)
            )
            await self._publish([TournamentEnded(ended, standings)])

    async def shown(self, event: TournamentEvent) -> None:
        """The Discord layer showed ``event``: a round's pairings or the end are not shown
        again after a restart."""
        now = self._ctx.clock.now()
        tournament_id = event.tournament.tournament_id
        if isinstance(event, RoundPaired):
            await self._ctx.store.round_shown(tournament_id, event.round, now)
        elif isinstance(event, TournamentEnded):
            await self._ctx.store.end_shown(tournament_id, now)

    async def _unshown_rounds(self, tournament_id: int) -> list[TournamentEvent]:
        store = self._ctx.store
        unshown = await store.unshown_rounds(tournament_id)
        tournament = await store.get_tournament(tournament_id)
        if not unshown or tournament is None:
            return []
        games = await store.tournament_games(tournament_id)
        return [
            RoundPaired(tournament, number, tuple(g for g in games if g.round == number))
            for number in unshown
        ]

    def close(self) -> None:
        for timer in [*self._timers.values(), *self._retries.values()]:
            timer.cancel()
        self._timers.clear()
        self._retries.clear()

    # -- registration --------------------------------------------------------------------

    async def create(
        self,
        organiser_id: int,
        guild_id: int,
        channel_id: int,
        name: str,
        format: Format,
        *,
        rounds: int | None = None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        max_players: int | None = None,
        starts_at: float | None = None,
        rated: bool = True,
        moderator: bool = False,
        roles: frozenset[int] = frozenset(),
    ) -> Tournament:
        """A new event, open for registration (the organiser is not entered: they join
        like anyone if they play).

        Only a ``moderator`` (who may Manage Server) or a member holding the server's
        tournament role (``roles``: the member's role ids) may create one."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= LONGEST_NAME:
            raise BadTournamentSettings(
                f"a tournament name has 1 to {LONGEST_NAME} characters, got {name[:40]!r}"
            )
        if rounds is not None and format is not Format.SWISS:
            raise BadTournamentSettings(
                f"only a Swiss event takes a number of rounds, not a {format} one ({rounds})"
            )
        if rounds is not None and not 1 <= rounds <= MOST_ROUNDS:
            raise BadTournamentSettings(f"rounds must be 1 to {MOST_ROUNDS}, got {rounds}")
        if max_players is not None and not 2 <= max_players <= MOST_PLAYERS:
            raise BadTournamentSettings(
                f"max players must be 2 to {MOST_PLAYERS}, got {max_players}"
            )
        now = self._ctx.clock.now()
        if starts_at is not None and starts_at <= now:
            raise BadTournamentSettings("the start time must be in the future")
        if turn_seconds is not None and turn_seconds <= 0:
            raise BadTournamentSettings(f"the turn timer must be positive, got {turn_seconds}")
        async with self._ctx.operation():
            if not moderator:
                settings = await self._ctx.store.guild_settings(guild_id)
                role = None if settings is None else settings.tournament_role_id
                if role is None or role not in roles:
                    raise MayNotOrganise(guild_id, organiser_id)
            async with self._ctx.store.exclusive(f"tournaments-of-guild:{guild_id}"):
                await self._refuse_a_second_open_event(guild_id)
                tournament = await self._ctx.store.create_tournament(
                    Tournament(
                        tournament_id=0,
                        guild_id=guild_id,
                        channel_id=channel_id,
                        organiser_id=organiser_id,
                        name=name,
                        format=format,
                        status=TournamentStatus.REGISTERING,
                        created_at=now,
                        rounds=rounds,
                        variant=variant,
                        turn_seconds=turn_seconds,
                        max_players=max_players,
                        starts_at=starts_at,
                        rated=rated,
                    )
                )
        self._arm(tournament)
        return tournament

    async def _refuse_a_second_open_event(self, guild_id: int) -> None:
        """The server's tournament commands act on its one open event: a second one would
        hide the first."""
        for tournament in await self._ctx.store.open_tournaments():
            if tournament.guild_id == guild_id:
                raise TournamentAlreadyOpen(guild_id, tournament.tournament_id, tournament.name)

    async def join(self, tournament_id: int, user_id: int) -> list[TournamentEntry]:
        """Register ``user_id``; the players registered after it."""
        async with self._ctx.operation(), self._key(tournament_id):
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationClosed(tournament_id, tournament.status)
            entries = await self._ctx.store.tournament_entries(tournament_id)
            if any(entry.user_id == user_id for entry in entries):
                raise AlreadyRegistered(tournament_id, user_id)
            most = min(tournament.max_players or MOST_PLAYERS, MOST_PLAYERS)
            if len(entries) >= most:
                raise TournamentFull(tournament_id, most)
            try:
                await self._ctx.store.add_entry(tournament_id, user_id, self._ctx.clock.now())
            except DuplicateKey:
                raise AlreadyRegistered(tournament_id, user_id) from None
            return await self._ctx.store.tournament_entries(tournament_id)

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Unregister before the start; once it runs, withdraw (the match under way is
        resigned, later rounds are not paired for them)."""
        tournament = await self.tournament(tournament_id)
        if tournament.status is TournamentStatus.RUNNING:
            await self._withdraw(tournament, user_id, removed_by=None)
            return
        async with self._ctx.operation(), self._key(tournament_id):
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationClosed(tournament_id, tournament.status)
            if user_id == tournament.organiser_id:
                raise OrganiserCannotLeave(tournament_id, user_id)
            entries = await self._ctx.store.tournament_entries(tournament_id)
            if all(entry.user_id != user_id for entry in entries):
                raise NotRegistered(tournament_id, user_id)
            await self._ctx.store.remove_entry(tournament_id, user_id)

    # -- the organiser -------------------------------------------------------------------

    async def start_event(
        self, tournament_id: int, by_user: int, *, moderator: bool = False
    ) -> Tournament:
        """Close registration and pair round 1 (the organiser, or a moderator)."""
        async with self._ctx.operation():
            tournament = await self.tournament(tournament_id)
            self._check_organiser(tournament, by_user, moderator, "start it")
            started = await self._start(tournament)
        await self.advance(tournament_id)
        return started

    async def remove_player(
        self, tournament_id: int, by_user: int, user_id: int, *, moderator: bool = False
    ) -> None:
        """The organiser takes a player out: unregistered before the start, withdrawn after."""
        tournament = await self.tournament(tournament_id)
        self._check_organiser(tournament, by_user, moderator, "remove a player")
        if tournament.status is TournamentStatus.RUNNING:
            await self._withdraw(tournament, user_id, removed_by=by_user)
            return
        async with self._ctx.operation(), self._key(tournament_id):
            # Read again under the key: the event may have started or ended since.
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationClosed(tournament_id, tournament.status)
            entries = await self._ctx.store.tournament_entries(tournament_id)
            if all(entry.user_id != user_id for entry in entries):
                raise NotRegistered(tournament_id, user_id)
            await self._ctx.store.remove_entry(tournament_id, user_id)

    async def cancel(self, tournament_id: int, by_user: int, *, moderator: bool = False) -> None:
        """End the event now, without a podium; the matches under way play on, unscored."""
        async with self._ctx.operation():
            tournament = await self.tournament(tournament_id)
            self._check_organiser(tournament, by_user, moderator, "cancel it")
            async with self._key(tournament_id):
                # Read again under the key: the event may have ended since.
                tournament = await self.tournament(tournament_id)
                if not tournament.status.is_open:
                    raise TournamentNotRunning(tournament_id, tournament.status)
                now = self._ctx.clock.now()
                store = self._ctx.store
                if not await store.end_tournament(tournament_id, TournamentStatus.CANCELLED, now):
                    # Another process ended it between the read and the write: its news.
                    raise TournamentNotRunning(tournament_id, TournamentStatus.FINISHED)
            self._disarm(tournament_id)
            ended = replace(tournament, status=TournamentStatus.CANCELLED, ended_at=now)
        await self._publish([TournamentEnded(ended, ())])

    # -- reads ---------------------------------------------------------------------------

    def clock_now(self) -> float:
        """The service's time (a start time is given from it)."""
        return self._ctx.clock.now()

    async def tournament(self, tournament_id: int) -> Tournament:
        found = await self._ctx.store.get_tournament(tournament_id)
        if found is None:
            raise TournamentNotFound(tournament_id)
        return found

    async def latest_in(self, guild_id: int) -> Tournament | None:
        """The server's newest event, open or over (what ``/tournament standings`` shows)."""
        return await self._ctx.store.latest_tournament_in(guild_id)

    async def entries(self, tournament_id: int) -> list[TournamentEntry]:
        return await self._ctx.store.tournament_entries(tournament_id)

    async def games(self, tournament_id: int) -> list[TournamentGame]:
        return await self._ctx.store.tournament_games(tournament_id)

    async def standings(self, tournament_id: int) -> tuple[Standing, ...]:
        """The standings so far (final once the event ended), best first."""
        tournament = await self.tournament(tournament_id)
        entries = await self._ctx.store.tournament_entries(tournament_id)
        games = await self._ctx.store.tournament_games(tournament_id)
        return _standings(tournament, entries, games)

    async def set_location(
        self, tournament_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        """Remember where the Discord layer shows the event."""
        await self._ctx.store.set_tournament_location(tournament_id, thread_id, message_id)

    # -- moving on -----------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """Bring the event up to date: results in, missing matches started, the next
        round paired once every game of this one is over, or the end and the podium."""
        async with self._key(tournament_id):
            events = await self._advance(tournament_id)
        await self._publish(events)

    async def _advance(self, tournament_id: int) -> list[TournamentEvent]:
        store = self._ctx.store
        events: list[TournamentEvent] = []
        while True:
            tournament = await store.get_tournament(tournament_id)
            if tournament is None or tournament.status is not TournamentStatus.RUNNING:
                return events
            entries = await store.tournament_entries(tournament_id)
            games = await store.tournament_games(tournament_id)
            unfinished = False
            for game in games:
                if game.second is None or game.result is not None:
                    continue
                if game.match_id is None:
                    await self._start_game(tournament, game)
                    unfinished = True
                    continue
                result = await self._result_of(game)
                if result is _NEVER_STARTED:
                    # Its start was lost (a stop, an outage): the table plays a new match.
                    await store.detach_match(tournament_id, game.round, game.table, game.match_id)
                    await self._start_game(tournament, replace(game, match_id=None))
                    unfinished = True
                    continue
                if result is None:
                    unfinished = True
                    continue
                await store.record_game_result(tournament_id, game.round, game.table, result)
            if unfinished:
                return events
            games = await store.tournament_games(tournament_id)
            plan = EventPlan(tournament.format, tournament.rounds)
            entrants, withdrawn = _entrants(entries)
            step = next_round(plan, entrants, _games(games), withdrawn=withdrawn)
            now = self._ctx.clock.now()
            if isinstance(step, Finished):
                if not await store.end_tournament(tournament_id, TournamentStatus.FINISHED, now):
                    return events  # cancelled meanwhile: that was announced
                ended = replace(tournament, status=TournamentStatus.FINISHED, ended_at=now)
                events.append(TournamentEnded(ended, _standings(tournament, entries, games)))
                return events
            paired = [
                TournamentGame(step.number, pairing.table, pairing.first, pairing.second)
                for pairing in step.pairings
            ]
            try:
                await store.pair_round(tournament_id, step.number, paired, now)
            except DuplicateKey:
                return events  # another process paired it: it shows it too
            started = [
                game if game.second is None else await self._start_game(tournament, game)
                for game in paired
            ]
            events.append(RoundPaired(tournament, step.number, tuple(started)))
            # A round of byes only (everyone else withdrew) is over at once: go on.

    async def _start_game(self, tournament: Tournament, game: TournamentGame) -> TournamentGame:
        """The table's new match, linked to the table before it starts."""
        assert game.second is not None
        tournament_id = tournament.tournament_id

        async def attach(match_id: int) -> None:
            await self._ctx.store.attach_match(tournament_id, game.round, game.table, match_id)

        info = await self._commands.start_paired_match(
            game.first,
            game.second,
            tournament.guild_id,
            tournament.channel_id,
            tournament.variant,
            tournament.turn_seconds,
            attach,
        )
        return replace(game, match_id=info.match_id)

    async def _result_of(self, game: TournamentGame) -> Result | _NeverStarted | None:
        """The result of a table's match once it is over; None while it is played;
        :data:`_NEVER_STARTED` if it closed before it began."""
        assert game.match_id is not None
        store = self._ctx.store
        finished = await store.finished_match(game.match_id)
        if finished is not None:
            if finished.winner_id is None:
                return Result.DRAW
            return Result.FIRST_WON if finished.winner_id == game.first else Result.SECOND_WON
        info = await store.get_match(game.match_id)
        if info is not None and info.status in (MatchStatus.ABANDONED, MatchStatus.BROKEN):
            # Its place or its record is gone: nobody won (a knockout replays it).
            return Result.DRAW
        if info is not None and info.status in _CLOSED_UNSTARTED:
            return _NEVER_STARTED
        return None

    async def _on_match_event(self, event: Event) -> None:
        ends = (
            MatchEnded | MatchAbandoned | ChallengeDeclined | ChallengeCancelled | ChallengeExpired
        )
        if not isinstance(event, ends):
            return
        # As the service's own work, not awaited here: a slow read for one match end must
        # not hold back every later event of the bus (under load it fell 1,000 behind).
        self._ctx.spawn(self._move_on_after(event.match_id, attempt=0))

    async def _move_on_after(self, match_id: int, attempt: int) -> None:
        """Advance the event ``match_id`` was played for; if the database fails meanwhile,
        try again later (``attempt`` counts the tries that failed), not only at the next
        start-up."""
        try:
            found = await self._ctx.store.tournament_game_of_match(match_id)
            if found is not None:
                await self.advance(found[0])
        except StoreError as error:
            delay = min(ADVANCE_RETRY_SECONDS * 2**attempt, LONGEST_ADVANCE_RETRY_SECONDS)
            log.warning(
                "the tournament of match %d did not move on (%s); again in %.0f s",
                match_id,
                error,
                delay,
            )
            self._retry_later(match_id, attempt + 1, self._ctx.clock.now() + delay)

    def _retry_later(self, match_id: int, attempt: int, at: float) -> None:
        async def retry() -> None:
            await self._ctx.clock.sleep_until(at)
            self._retries.pop(match_id, None)
            # As the service's own work from here: close() and wait_idle() wait for it.
            self._ctx.spawn(self._move_on_after(match_id, attempt))

        self._retries[match_id] = asyncio.create_task(retry())

    # -- helpers -------------------------------------------------------------------------

    async def _start(self, tournament: Tournament) -> Tournament:
        tournament_id = tournament.tournament_id
        store = self._ctx.store
        async with self._key(tournament_id):
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationClosed(tournament_id, tournament.status)
            entries = await store.tournament_entries(tournament_id)
            if len(entries) < 2:
                raise NotEnoughPlayers(tournament_id, len(entries))
            rated: list[tuple[float, float, int]] = []
            for entry in entries:
                standing = await store.standing(tournament.guild_id, entry.user_id)
                rating = DEFAULT_RATING if standing is None else standing.rating.rating
                rated.append((rating, entry.joined_at, entry.user_id))
            # Best rating first; equal ratings in the order they joined.
            rated.sort(key=lambda item: (-item[0], item[1]))
            by_user = {entry.user_id: entry for entry in entries}
            seeded = [
                replace(by_user[user_id], seed=index + 1, rating=rating)
                for index, (rating, _, user_id) in enumerate(rated)
            ]
            now = self._ctx.clock.now()
            try:
                await store.start_tournament(tournament_id, seeded, now)
            except DuplicateKey:
                raise RegistrationClosed(tournament_id, TournamentStatus.RUNNING) from None
        self._disarm(tournament_id)
        started = replace(tournament, status=TournamentStatus.RUNNING, started_at=now)
        await self._publish([TournamentStarted(started, tuple(e.user_id for e in seeded))])
        return started

    async def _withdraw(self, tournament: Tournament, user_id: int, removed_by: int | None) -> None:
        tournament_id = tournament.tournament_id
        store = self._ctx.store
        async with self._ctx.operation():
            async with self._key(tournament_id):
                status = (await self.tournament(tournament_id)).status
                if status is not TournamentStatus.RUNNING:
                    raise TournamentNotRunning(tournament_id, status)
                entries = await store.tournament_entries(tournament_id)
                entry = next((e for e in entries if e.user_id == user_id), None)
                if entry is None or entry.withdrawn_at is not None:
                    raise NotRegistered(tournament_id, user_id)
                await store.withdraw_entry(tournament_id, user_id, self._ctx.clock.now())
                under_way = [
                    game.match_id
                    for game in await store.tournament_games(tournament_id)
                    if game.match_id is not None
                    and game.result is None
                    and user_id in (game.first, game.second)
                ]
            await self._publish([PlayerWithdrawn(tournament, user_id, removed_by)])
            for match_id in under_way:
                # Resigning ends the match; its end moves the event on (_on_match_event).
                try:
                    await self._commands.resign(match_id, user_id)
                except ServiceError as error:
                    log.info("withdrawal: match %d was already over (%s)", match_id, error)
        await self.advance(tournament_id)

    def _check_organiser(
        self, tournament: Tournament, user_id: int, moderator: bool, action: str
    ) -> None:
        if user_id != tournament.organiser_id and not moderator:
            raise NotOrganiser(tournament.tournament_id, user_id, action)

    def _key(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        return self._ctx.store.exclusive(f"tournament:{tournament_id}")

    def _arm(self, tournament: Tournament) -> None:
        """Start the event at its start time (if it has one)."""
        if tournament.starts_at is None or tournament.status is not TournamentStatus.REGISTERING:
            return
        self._disarm(tournament.tournament_id)
        if tournament.starts_at <= self._ctx.clock.now():
            # Due already (a restart after the start time): start now, as work wait_idle()
            # sees, rather than one hop later from a task that nothing waits for.
            self._ctx.spawn(self._start_due(tournament.tournament_id))
            return
        self._timers[tournament.tournament_id] = asyncio.create_task(
            self._start_at(tournament.tournament_id, tournament.starts_at)
        )

    def _disarm(self, tournament_id: int) -> None:
        timer = self._timers.pop(tournament_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _start_at(self, tournament_id: int, at: float) -> None:
        await self._ctx.clock.sleep_until(at)
        self._timers.pop(tournament_id, None)
        # As the service's own work from here: close() and wait_idle() wait for it.
        self._ctx.spawn(self._start_due(tournament_id))

    async def _start_due(self, tournament_id: int) -> None:
        try:
            tournament = await self.tournament(tournament_id)
            if tournament.status is TournamentStatus.REGISTERING and not (
                await self._cancel_if_too_few(tournament_id)
            ):
                await self._start(tournament)
            await self.advance(tournament_id)
        except ServiceError as error:
            log.info("tournament %d did not start at its time: %s", tournament_id, error)
        except Exception:
            log.exception("tournament %d did not start at its time", tournament_id)

    async def _cancel_if_too_few(self, tournament_id: int) -> bool:
        """At its start time, cancel a registering event of fewer than two players (the
        end is announced only if this call ended it); whether it is no longer registering."""
        store = self._ctx.store
        async with self._key(tournament_id):
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                return True
            if len(await store.tournament_entries(tournament_id)) >= 2:
                return False
            now = self._ctx.clock.now()
            changed = await store.end_tournament(tournament_id, TournamentStatus.CANCELLED, now)
        if changed:
            cancelled = replace(tournament, status=TournamentStatus.CANCELLED, ended_at=now)
            await self._publish([TournamentEnded(cancelled, ())])
        return True

    async def _publish(self, events: list[TournamentEvent]) -> None:
        for event in events:
            for subscriber in list(self._subscribers):
                try:
                    await subscriber(event)
                except Exception:
                    log.exception("a tournament subscriber failed on %s", type(event).__name__)


def _entrants(entries: list[TournamentEntry]) -> tuple[list[Entrant], frozenset[int]]:
    """The players in seed order, and those who withdrew."""
    ordered = sorted(entries, key=lambda entry: (entry.seed or 0, entry.joined_at))
    entrants = [Entrant(entry.user_id, entry.rating or DEFAULT_RATING) for entry in ordered]
    withdrawn = frozenset(e.user_id for e in entries if e.withdrawn_at is not None)
    return entrants, withdrawn


def _games(games: list[TournamentGame]) -> list[Game]:
    return [
        Game(game.round, Pairing(game.table, game.first, game.second), game.result)
        for game in games
    ]


def _standings(
    tournament: Tournament, entries: list[TournamentEntry], games: list[TournamentGame]
) -> tuple[Standing, ...]:
    entrants, withdrawn = _entrants(entries)
    if len(entrants) < 2:
        return ()
    plan = EventPlan(tournament.format, tournament.rounds)
    over = [game for game in _games(games) if game.is_over]
    return final_standings(plan, entrants, over, withdrawn=withdrawn)
