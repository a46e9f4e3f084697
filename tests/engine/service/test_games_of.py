"""A member's games in a server: in one read of the database, theirs to move first, then
the soonest deadline; other servers' matches and pending challenges left out."""

from __future__ import annotations

import functools
import inspect
from dataclasses import replace
from typing import Any

from engine.clocks import TimeControl
from engine.service import MatchInfo, MatchService

from .test_clock_matches import play_until_turn_of

MEMBER = 101


async def started(
    service: MatchService, opponent: int, guild_id: int, control: TimeControl | None
) -> MatchInfo:
    challenge = await service.challenges.challenge(
        MEMBER, opponent, guild_id=guild_id, channel_id=2, time_control=control
    )
    return await service.challenges.accept(challenge.match_id, opponent)


def count_reads(store: Any) -> list[str]:
    """Every call of the store's public coroutines from now on, by name, in order."""
    calls: list[str] = []
    for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue

        def counted(method: Any = method, name: str = name) -> Any:
            @functools.wraps(method)
            async def call(*args: Any, **kwargs: Any) -> Any:
                calls.append(name)
                return await method(*args, **kwargs)

            return call

        setattr(store, name, counted())
    return calls


async def test_games_of_reads_once_and_puts_the_members_turns_first(service, clock):
    waiting = await started(service, 202, 1, None)  # a 600 s timer, the opponent to move
    await play_until_turn_of(service, waiting.match_id, waiting.seat_of(202))
    days = await started(service, 303, 1, TimeControl.days(1))
    await play_until_turn_of(service, days.match_id, days.seat_of(MEMBER))
    fast = await started(service, 404, 1, TimeControl.clock(1, 2))
    await play_until_turn_of(service, fast.match_id, fast.seat_of(MEMBER))
    elsewhere = await started(service, 505, 2, None)
    await service.challenges.challenge(MEMBER, 606, guild_id=1, channel_id=2)  # pending
    await service.wait_idle()

    calls = count_reads(service.store)
    games = await service.queries.games_of(1, MEMBER)

    assert len(calls) == 1, calls
    assert [info.match_id for info in games] == [fast.match_id, days.match_id, waiting.match_id]
    assert [info.to_move for info in games] == [MEMBER, MEMBER, 202]
    assert [info.match_id for info in await service.queries.games_of(2, MEMBER)] == [
        elsewhere.match_id
    ]
    assert await service.queries.games_of(3, MEMBER) == []


async def test_a_match_from_before_the_upgrade_still_says_whose_turn(service):
    """A match whose row has no player to move yet (it had no decision since the migration
    added the column) is read once more, and listed in the right place."""
    legacy = await started(service, 202, 1, None)
    mover = legacy.players[legacy.first_player or 0]
    from_before = [replace(legacy, to_move=None)]

    async def as_stored(user_id: int) -> list[MatchInfo]:
        return from_before

    service.store.open_matches_of = as_stored
    [game] = await service.queries.games_of(1, MEMBER)
    assert game.to_move == mover
