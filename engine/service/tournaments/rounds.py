"""Moving a running tournament on: results read from its matches, a table's lost match
started again, and the next round paired (or the end) once every game of the last is over.

Every step runs under the tournament's key (``store.exclusive``, across processes on
PostgreSQL) after reading it again; a round is written with all its games and its
:class:`RoundPaired` announcement in one commit that a second try cannot repeat
(:meth:`~engine.store.tournament_store.TournamentStore.pair_round`), the end with its
:class:`TournamentEnded` in the commit that ends it, so whichever process gets there first
does it, once, and says it once. The state of a tournament is only what is stored, so
:meth:`TournamentRounds.advance` after a restart picks up where it stopped.

Tournament matches are ordinary matches (their own thread and board, turn timers, the
server's expiry policy, ratings); seat 0 is the pairing's first player, who starts.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from dataclasses import replace

from engine.clocks import TimeControl
from engine.model import MatchStatus, Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.service.context import ServiceContext
from engine.service.events import (
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    Event,
    MatchAbandoned,
    MatchEnded,
    RoundPaired,
    TournamentEnded,
)
from engine.service.matches.commands import MatchCommands
from engine.store.alarm import Alarm
from engine.store.errors import DuplicateKey, StoreError
from engine.tournaments import (
    Entrant,
    Finished,
    Game,
    Pairing,
    Result,
    Standing,
    TournamentPlan,
    final_standings,
    next_round,
)

log = logging.getLogger(__name__)

TOURNAMENT_START = "tournament-start"
"""The stored alarm of a registering tournament with a start time; subject: its id."""
TOURNAMENT_ADVANCE = "tournament-advance"
"""A tournament whose move on failed (the database did not answer): tried again until it
works, the alarm clock's pauses doubling; subject: its id."""

ADVANCE_RETRY_SECONDS = 5.0
"""After a failed move on, the pause before the alarm that tries again."""
DEFAULT_RATING = 1500.0

_CLOSED_UNSTARTED = frozenset({MatchStatus.DECLINED, MatchStatus.CANCELLED, MatchStatus.EXPIRED})
_MATCH_OVER = (
    MatchEnded | MatchAbandoned | ChallengeDeclined | ChallengeCancelled | ChallengeExpired
)


class _NeverStarted(enum.Enum):
    """A table's match closed before it began (see :meth:`TournamentRounds._result_of`)."""

    NEVER_STARTED = enum.auto()


_NEVER_STARTED = _NeverStarted.NEVER_STARTED


class TournamentRounds:
    """Moves running tournaments on; see the module docstring."""

    def __init__(self, context: ServiceContext, commands: MatchCommands) -> None:
        self._ctx = context
        self._commands = commands
        context.alarms.handle(TOURNAMENT_ADVANCE, self._advance_due)

    def key(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The tournament's key: every change to it is made holding it."""
        return self._ctx.store.exclusive(f"tournament:{tournament_id}")

    async def on_match_event(self, event: Event) -> None:
        """The bus's subscriber: a match that ended (or never began) may move its
        tournament on."""
        if isinstance(event, _MATCH_OVER):
            # As the service's own work, not awaited here: a slow read for one match end must
            # not hold back every later event of the bus (under load it fell 1,000 behind).
            self._ctx.spawn(self._move_on_after(event.match_id))

    async def _move_on_after(self, match_id: int) -> None:
        """Advance the tournament ``match_id`` was played for; if the database fails
        meanwhile, a stored alarm tries again (not only at the next start)."""
        tournament_id: int | None = None
        try:
            found = await self._ctx.store.tournament_game_of_match(match_id)
            if found is None:
                return
            tournament_id = found[0]
            await self.advance(tournament_id)
        except StoreError as error:
            log.warning("the tournament of match %d did not move on (%s)", match_id, error)
            if tournament_id is None:
                return  # the read failed: the next start advances every running tournament
            later = self._ctx.clock.now() + ADVANCE_RETRY_SECONDS
            # This failure counts as the alarm's first: the next pause is twice this one.
            retry = Alarm(TOURNAMENT_ADVANCE, tournament_id, later, attempt=1)
            with contextlib.suppress(StoreError):
                await self._ctx.alarms.set([retry])

    async def _advance_due(self, alarm: Alarm) -> None:
        await self.advance(alarm.subject)

    async def advance(self, tournament_id: int) -> None:
        """Bring the tournament up to date: results in, missing matches started, the next
        round paired once every game of this one is over, or the end and its standings."""
        async with self.key(tournament_id):
            await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> None:
        store = self._ctx.store
        while True:
            tournament = await store.get_tournament(tournament_id)
            if tournament is None or tournament.status is not TournamentStatus.RUNNING:
                return
            entries = await store.tournament_entries(tournament_id)
            if not await self._results_in(tournament, await store.tournament_games(tournament_id)):
                return
            games = await store.tournament_games(tournament_id)
            plan = TournamentPlan(tournament.format, tournament.rounds)
            entrants, withdrawn = entrants_of(entries)
            step = next_round(plan, entrants, _games(games), withdrawn=withdrawn)
            now = self._ctx.clock.now()
            if isinstance(step, Finished):
                ended = replace(tournament, status=TournamentStatus.FINISHED, ended_at=now)
                await self.end(ended, standings_of(tournament, entries, games))
                return
            paired = tuple(
                TournamentGame(step.number, pairing.table, pairing.first, pairing.second)
                for pairing in step.pairings
            )
            news = RoundPaired(tournament, step.number, paired)
            try:
                await store.pair_round(
                    tournament_id,
                    step.number,
                    list(paired),
                    now,
                    announcements=self._ctx.outbox.announcements([news], now),
                )
            except DuplicateKey:
                return  # another process paired it, and says so
            self._ctx.bus.publish(news)
            for game in paired:
                if game.second is not None:
                    await self._start_game(tournament, game)
            # A round of byes only (everyone else withdrew) is over at once: go on.

    async def end(self, ended: Tournament, standings: tuple[Standing, ...]) -> bool:
        """End the tournament as ``ended`` says (finished or cancelled), its standings
        announced in the same commit; False if another call ended it first (its news)."""
        news = TournamentEnded(ended, standings)
        tournament_id = ended.tournament_id
        assert ended.ended_at is not None
        if not await self._ctx.store.end_tournament(
            tournament_id,
            ended.status,
            ended.ended_at,
            announcements=self._ctx.outbox.announcements([news], ended.ended_at),
            cleared_alarms=[(TOURNAMENT_START, tournament_id), (TOURNAMENT_ADVANCE, tournament_id)],
        ):
            return False
        self._ctx.bus.publish(news)
        return True

    async def _results_in(self, tournament: Tournament, games: list[TournamentGame]) -> bool:
        """Record the results of the round's matches that ended; start a table's match
        that never started. Whether every game is over."""
        store = self._ctx.store
        tournament_id = tournament.tournament_id
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
            elif result is None:
                unfinished = True
            else:
                await store.record_game_result(tournament_id, game.round, game.table, result)
        return not unfinished

    async def _start_game(self, tournament: Tournament, game: TournamentGame) -> None:
        """The table's new match, linked to the table before it starts."""
        assert game.second is not None
        tournament_id = tournament.tournament_id

        async def attach(match_id: int) -> None:
            await self._ctx.store.attach_match(tournament_id, game.round, game.table, match_id)

        await self._commands.start_paired_match(
            game.first,
            game.second,
            tournament.guild_id,
            tournament.channel_id,
            tournament.variant,
            tournament.turn_seconds,
            attach,
            None if tournament.time_control is None else TimeControl.parse(tournament.time_control),
        )

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


def entrants_of(entries: list[TournamentEntry]) -> tuple[list[Entrant], frozenset[int]]:
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


def standings_of(
    tournament: Tournament, entries: list[TournamentEntry], games: list[TournamentGame]
) -> tuple[Standing, ...]:
    """The standings over the games that are over, best first (none under two players)."""
    entrants, withdrawn = entrants_of(entries)
    if len(entrants) < 2:
        return ()
    plan = TournamentPlan(tournament.format, tournament.rounds)
    over = [game for game in _games(games) if game.is_over]
    return final_standings(plan, entrants, over, withdrawn=withdrawn)
