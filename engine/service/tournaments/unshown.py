"""Tournament news a version before the outbox committed and never showed (its rounds'
pairings, its end): the migration left an alarm (:data:`TOURNAMENT_UNSHOWN`) for each such
tournament, and this announces them once, through the outbox like any news today."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from engine.model import TournamentStatus
from engine.service.context import ServiceContext
from engine.service.events import Event, RoundPaired, TournamentEnded
from engine.service.tournaments.rounds import standings_of
from engine.store.alarm import Alarm

TOURNAMENT_UNSHOWN = "tournament-unshown"


class UnshownNews:
    """Handles :data:`TOURNAMENT_UNSHOWN` alarms."""

    def __init__(
        self,
        context: ServiceContext,
        key: Callable[[int], contextlib.AbstractAsyncContextManager[None]],
    ) -> None:
        self._ctx = context
        self._key = key
        context.alarms.handle(TOURNAMENT_UNSHOWN, self._announce)

    async def _announce(self, alarm: Alarm) -> None:
        # Under the tournament's key: news committed meanwhile is marked shown before this
        # reads what is not (:meth:`TournamentRounds.advance`).
        async with self._key(alarm.subject):
            await self._announce_old_news(alarm.subject)

    async def _announce_old_news(self, tournament_id: int) -> None:
        store = self._ctx.store
        tournament = await store.get_tournament(tournament_id)
        if tournament is None:
            return
        games = await store.tournament_games(tournament_id)
        news: list[Event] = [
            RoundPaired(tournament, number, tuple(g for g in games if g.round == number))
            for number in await store.unshown_rounds(tournament_id)
        ]
        if any(t.tournament_id == tournament_id for t in await store.ended_unshown()):
            cancelled = tournament.status is TournamentStatus.CANCELLED
            entries = await store.tournament_entries(tournament_id)
            standings = () if cancelled else standings_of(tournament, entries, games)
            news.append(TournamentEnded(tournament, standings))
        now = self._ctx.clock.now()
        await store.add_announcements(self._ctx.outbox.announcements(news, now))
        for event in news:
            if isinstance(event, RoundPaired):
                await store.round_shown(tournament_id, event.round, now)
            else:
                await store.end_shown(tournament_id, now)
            self._ctx.bus.publish(event)
