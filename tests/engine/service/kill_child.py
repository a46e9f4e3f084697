"""A bot process for the kill tests: it makes a write that commits an announcement, says so,
and waits to be killed before anyone could show (or confirm) it.

Run as ``python -m tests.engine.service.kill_child WHAT DATABASE`` with WHAT ``season`` or
``tournament`` and DATABASE a SQLite file's path or a ``postgresql://`` URL. Nobody
subscribes to the bus here, so nothing is confirmed. It prints ``ready``, sets the scene,
then makes the write: the season's end (its podium in the outbox), or the pairing of a
knockout's final (in the background, after the last semi-final ended). Once the store
returned from that commit it prints ``committed`` and waits for the SIGKILL, before the
service could publish the event.
"""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import replace
from typing import Any

from engine.service import ManualClock, MatchService, ServiceConfig
from engine.store.match_store import MatchStore
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore
from engine.tournaments import Format

START = 1_700_000_000.0
GUILD, CHANNEL, ORGANISER = 1, 77, 900
PLAYERS = (101, 102, 103, 104)
ORIGIN = "bot"
"""The process's name on PostgreSQL: the restarted one has the same, so it shows what this
one committed."""
CONFIG = ServiceConfig(ai_move_delay_seconds=0.0, season_min_games=1)


def store_for(database: str) -> MatchStore:
    if database.startswith("postgresql://"):
        return PostgresMatchStore(database, origin=ORIGIN)
    return SqliteMatchStore(database)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def die_after(write: Any, *args: Any, **kwargs: Any) -> Any:
    """Make the write, say it committed, and never return: the parent kills us."""
    result = await write(*args, **kwargs)
    say("committed")
    await asyncio.Event().wait()
    return result


async def end_a_season(service: MatchService, clock: ManualClock) -> None:
    settings = await service.settings.guild_settings(GUILD)
    await service.settings.set_guild_settings(replace(settings, season_channel_id=CHANNEL))
    await service.seasons.start(GUILD)
    await clock.advance(60.0)
    challenge = await service.challenges.challenge(101, 202, guild_id=GUILD, channel_id=2)
    match = await service.challenges.accept(challenge.match_id, 202)
    await service.commands.resign(match.match_id, 202)  # 101 wins: first on the podium
    await clock.advance(60.0)
    end_season = service.store.end_season

    async def end_then_die(*args: Any, **kwargs: Any) -> None:
        await die_after(end_season, *args, **kwargs)

    service.store.end_season = end_then_die  # type: ignore[method-assign]
    await service.seasons.end(GUILD)


async def pair_a_final(service: MatchService, clock: ManualClock) -> None:
    created = await service.tournaments.create(
        ORGANISER, GUILD, CHANNEL, "Cup", Format.KNOCKOUT, moderator=True
    )
    tid = created.tournament_id
    for player in PLAYERS:
        await service.tournaments.join(tid, player)
    await service.tournaments.start_now(tid, ORGANISER)
    pair_round = service.store.pair_round

    async def pair_then_die(tournament_id: int, number: int, *args: Any, **kwargs: Any) -> None:
        if number == 2:
            await die_after(pair_round, tournament_id, number, *args, **kwargs)
        else:
            await pair_round(tournament_id, number, *args, **kwargs)

    service.store.pair_round = pair_then_die  # type: ignore[method-assign,assignment]
    for game in await service.tournaments.games(tid):
        assert game.match_id is not None and game.second is not None
        await service.commands.resign(game.match_id, max(game.first, game.second))
    await asyncio.Event().wait()  # the final is paired by the service, in the background


async def main(what: str, database: str) -> None:
    clock = ManualClock(START)
    service = MatchService(store_for(database), CONFIG, clock=clock, rng=random.Random(3))
    await service.start()
    say("ready")
    await (end_a_season if what == "season" else pair_a_final)(service, clock)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
