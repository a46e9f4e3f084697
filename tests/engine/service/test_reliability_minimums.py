"""An open seat's or a tournament's minimum reliability: a member who lost too many of
their matches on time is refused, a newcomer (fewer than five ended matches) is let in."""

from __future__ import annotations

import pytest

from engine.ratings import Reliability
from engine.service import ExpiryPolicy, GuildSettings, MatchService
from engine.service.challenges.errors import NotReliableEnough
from engine.tournaments import Format

from .test_clock_matches import play_until_turn_of

GUILD = 1
MEMBER = 101
NEWCOMER = 404
HOST = 303
TURN = 600.0


async def ended_matches(service: MatchService, clock, *, finished: int, abandoned: int) -> None:
    """MEMBER ends ``finished`` matches won by resignation and ``abandoned`` lost on time."""
    await service.settings.set_guild_settings(
        GuildSettings(GUILD, expiry_policy=ExpiryPolicy.FORFEIT)
    )
    for lost_on_time in [False] * finished + [True] * abandoned:
        challenge = await service.challenges.challenge(MEMBER, 202, guild_id=GUILD, channel_id=2)
        match = await service.challenges.accept(challenge.match_id, 202)
        if lost_on_time:
            await play_until_turn_of(service, match.match_id, match.seat_of(MEMBER))
            await clock.advance(TURN, settle=service.wait_idle)
        else:
            await service.commands.resign(match.match_id, 202)
    await service.wait_idle()
    assert await service.store.reliability(GUILD, MEMBER) == Reliability(finished, abandoned)


async def test_an_open_seat_refuses_a_member_below_its_minimum(service, clock):
    await ended_matches(service, clock, finished=3, abandoned=2)
    seat = await service.seats.open(HOST, GUILD, 2, None, None, min_reliability=80)
    assert seat.min_reliability == 80

    with pytest.raises(NotReliableEnough) as refused:
        await service.seats.join(seat.match_id, MEMBER)
    assert (refused.value.percent, refused.value.minimum) == (60, 80)

    joined = await service.seats.join(seat.match_id, NEWCOMER)
    assert joined.players == (HOST, NEWCOMER)


async def test_a_member_at_the_minimum_takes_the_seat(service, clock):
    await ended_matches(service, clock, finished=4, abandoned=1)
    seat = await service.seats.open(HOST, GUILD, 2, None, None, min_reliability=80)

    joined = await service.seats.join(seat.match_id, MEMBER)
    assert joined.players == (HOST, MEMBER)


async def test_a_tournament_refuses_a_member_below_its_minimum(service, clock):
    await ended_matches(service, clock, finished=3, abandoned=2)
    event = await service.tournaments.create(
        HOST, GUILD, 2, "Cup", Format.SWISS, moderator=True, min_reliability=80
    )
    assert event.min_reliability == 80

    with pytest.raises(NotReliableEnough):
        await service.tournaments.join(event.tournament_id, MEMBER)
    entries = await service.tournaments.join(event.tournament_id, NEWCOMER)
    assert [entry.user_id for entry in entries] == [NEWCOMER]
