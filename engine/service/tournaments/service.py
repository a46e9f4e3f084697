"""Tournaments from registration to podium: create, join, leave, start, withdraw, remove,
cancel; each round paired when the last one's matches have all ended (:mod:`.rounds`).

The pairing, scoring and tiebreaks are the pure rules of :mod:`engine.tournaments`; this
part stores the tournament and makes each step happen once, in whichever process gets
there first: every step runs under the tournament's key (``store.exclusive``) after
reading it again. What the public is told (the start, each round's pairings, a
withdrawal, the end and its standings) is an event committed in the outbox with the write
that causes it and published on the bus once committed (:mod:`engine.service.announcing`).
A start time is a stored alarm written with the tournament (:data:`TOURNAMENT_START`),
rung by the service's one alarm clock in one process.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

from engine.clocks import TimeControl
from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.rules.state import Variant
from engine.service.challenges.errors import NotReliableEnough
from engine.service.context import ServiceContext
from engine.service.errors import ServiceError
from engine.service.events import PlayerWithdrawn, TournamentStarted
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
from engine.service.tournaments.rounds import (
    DEFAULT_RATING,
    TOURNAMENT_START,
    TournamentRounds,
    standings_of,
)
from engine.service.tournaments.unshown import UnshownNews
from engine.store.alarm import Alarm
from engine.store.errors import DuplicateKey
from engine.tournaments import Format, Standing

log = logging.getLogger(__name__)

MOST_PLAYERS = 256
"""A tournament's cap: each round is that many players' matches, threads and boards at once."""
MOST_ROUNDS = 20
LONGEST_NAME = 100


class TournamentService:
    """The ``service.tournaments`` part of :class:`~engine.service.MatchService`."""

    def __init__(self, context: ServiceContext, commands: MatchCommands) -> None:
        self._ctx = context
        self._commands = commands
        self._rounds = TournamentRounds(context, commands)
        context.alarms.handle(TOURNAMENT_START, self._start_due)
        UnshownNews(context, self._rounds.key)
        context.bus.subscribe(self._rounds.on_match_event)

    async def resume(self) -> None:
        """At start-up: move every running tournament on (a match may have ended, or a
        round's matches not all started, while no process was up)."""
        for tournament in await self._ctx.store.open_tournaments():
            if tournament.status is TournamentStatus.RUNNING:
                await self.advance(tournament.tournament_id)

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
        time_control: TimeControl | None = None,
        min_reliability: int | None = None,
    ) -> Tournament:
        """A new tournament, open for registration (the organiser is not entered: they join
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
                f"only a Swiss tournament takes a number of rounds, not a {format} one ({rounds})"
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
        if min_reliability is not None and not 0 <= min_reliability <= 100:
            raise BadTournamentSettings(
                f"the minimum reliability is 0 to 100 percent, got {min_reliability}"
            )
        async with self._ctx.operation():
            if not moderator:
                settings = await self._ctx.store.guild_settings(guild_id)
                role = None if settings is None else settings.tournament_role_id
                if role is None or role not in roles:
                    raise MayNotOrganise(guild_id, organiser_id)
            async with self._ctx.store.exclusive(f"tournaments-of-guild:{guild_id}"):
                await self._refuse_a_second_open_tournament(guild_id)
                start = [] if starts_at is None else [Alarm(TOURNAMENT_START, 0, starts_at)]
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
                        time_control=None if time_control is None else time_control.code,
                        min_reliability=min_reliability,
                        max_players=max_players,
                        starts_at=starts_at,
                        rated=rated,
                    ),
                    alarms=start,
                )
        self._ctx.alarms.wake(starts_at)
        return tournament

    async def _refuse_a_second_open_tournament(self, guild_id: int) -> None:
        """The server's tournament commands act on its one open tournament: a second one would
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
            if tournament.min_reliability is not None:
                found = await self._ctx.store.reliability(tournament.guild_id, user_id)
                if not found.meets(tournament.min_reliability):
                    raise NotReliableEnough(user_id, found.percent, tournament.min_reliability)
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

    async def start_now(
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
            # Read again under the key: the tournament may have started or ended since.
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                raise RegistrationClosed(tournament_id, tournament.status)
            entries = await self._ctx.store.tournament_entries(tournament_id)
            if all(entry.user_id != user_id for entry in entries):
                raise NotRegistered(tournament_id, user_id)
            await self._ctx.store.remove_entry(tournament_id, user_id)

    async def cancel(self, tournament_id: int, by_user: int, *, moderator: bool = False) -> None:
        """End the tournament now, without a podium; the matches under way play on, unscored."""
        async with self._ctx.operation():
            tournament = await self.tournament(tournament_id)
            self._check_organiser(tournament, by_user, moderator, "cancel it")
            async with self._key(tournament_id):
                # Read again under the key: the tournament may have ended since.
                tournament = await self.tournament(tournament_id)
                if not tournament.status.is_open:
                    raise TournamentNotRunning(tournament_id, tournament.status)
                now = self._ctx.clock.now()
                ended = replace(tournament, status=TournamentStatus.CANCELLED, ended_at=now)
                if not await self._rounds.end(ended, ()):
                    # Another process ended it between the read and the write: its news.
                    raise TournamentNotRunning(tournament_id, TournamentStatus.FINISHED)

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
        """The server's newest tournament, open or over (what ``/tournament standings`` shows)."""
        return await self._ctx.store.latest_tournament_in(guild_id)

    async def entries(self, tournament_id: int) -> list[TournamentEntry]:
        return await self._ctx.store.tournament_entries(tournament_id)

    async def games(self, tournament_id: int) -> list[TournamentGame]:
        return await self._ctx.store.tournament_games(tournament_id)

    async def standings(self, tournament_id: int) -> tuple[Standing, ...]:
        """The standings so far (final once the tournament ended), best first."""
        tournament = await self.tournament(tournament_id)
        entries = await self._ctx.store.tournament_entries(tournament_id)
        games = await self._ctx.store.tournament_games(tournament_id)
        return standings_of(tournament, entries, games)

    async def set_location(
        self, tournament_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        """Remember where the Discord layer shows the tournament."""
        await self._ctx.store.set_tournament_location(tournament_id, thread_id, message_id)

    # -- moving on -----------------------------------------------------------------------

    async def advance(self, tournament_id: int) -> None:
        """Bring the tournament up to date (:meth:`TournamentRounds.advance`)."""
        await self._rounds.advance(tournament_id)

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
            started = replace(tournament, status=TournamentStatus.RUNNING, started_at=now)
            news = TournamentStarted(started, tuple(e.user_id for e in seeded))
            try:
                await store.start_tournament(
                    tournament_id,
                    seeded,
                    now,
                    announcements=self._ctx.outbox.announcements([news], now),
                    cleared_alarms=[(TOURNAMENT_START, tournament_id)],
                )
            except DuplicateKey:
                raise RegistrationClosed(tournament_id, TournamentStatus.RUNNING) from None
        self._ctx.bus.publish(news)
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
                now = self._ctx.clock.now()
                news = PlayerWithdrawn(tournament, user_id, removed_by)
                await store.withdraw_entry(
                    tournament_id,
                    user_id,
                    now,
                    announcements=self._ctx.outbox.announcements([news], now),
                )
                under_way = [
                    game.match_id
                    for game in await store.tournament_games(tournament_id)
                    if game.match_id is not None
                    and game.result is None
                    and user_id in (game.first, game.second)
                ]
            self._ctx.bus.publish(news)
            for match_id in under_way:
                # Resigning ends the match; its end moves the tournament on (_on_match_event).
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
        return self._rounds.key(tournament_id)

    async def _start_due(self, alarm: Alarm) -> None:
        """Its start time came (the alarm claimed for this process): start it, or cancel it
        with fewer than two players. A failure of the database raises: the alarm clock
        tries again."""
        tournament_id = alarm.subject
        try:
            tournament = await self.tournament(tournament_id)
            if tournament.status is TournamentStatus.REGISTERING and not (
                await self._cancel_if_too_few(tournament_id)
            ):
                await self._start(tournament)
        except ServiceError as error:
            log.info("tournament %d did not start at its time: %s", tournament_id, error)
            return
        await self.advance(tournament_id)

    async def _cancel_if_too_few(self, tournament_id: int) -> bool:
        """At its start time, cancel a registering tournament of fewer than two players (the
        end is announced only if this call ended it); whether it is no longer registering."""
        store = self._ctx.store
        async with self._key(tournament_id):
            tournament = await self.tournament(tournament_id)
            if tournament.status is not TournamentStatus.REGISTERING:
                return True
            if len(await store.tournament_entries(tournament_id)) >= 2:
                return False
            now = self._ctx.clock.now()
            cancelled = replace(tournament, status=TournamentStatus.CANCELLED, ended_at=now)
            await self._rounds.end(cancelled, ())
        return True
