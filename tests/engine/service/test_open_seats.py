"""Open seats: challenges to anyone in a server, taken once, expiring, limited like challenges,
and answered on the challenge's own path."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest

from engine.model import OPEN_SEAT, GuildSettings
from engine.rules.state import Variant
from engine.service import (
    CannotJoinOwnSeat,
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeIssued,
    InvalidRequest,
    MatchStarted,
    MatchStatus,
    NotYourMatch,
    SeatAlreadyOpen,
    SeatClosed,
    SeatTaken,
    TooManyActiveMatches,
)
from engine.service.challenges.errors import TooManyNewMatches
from engine.service.events import ChallengeExpired as ExpiredEvent

from .conftest import Recorder, play_to_end

HOST, GUILD, CHANNEL = 101, 1, 2


async def listed(service):
    return list((await service.seats.listed(GUILD, per_page=100)).seats)


async def posted(service, host: int, guild: int = GUILD, channel: int = CHANNEL):
    """A seat whose message the bot posted (only those are listed)."""
    seat = await service.seats.open(host, guild, channel)
    await service.placements.set_challenge_message(seat.match_id, 9_000 + seat.match_id)
    return seat


async def test_the_first_member_to_join_takes_the_seat_and_the_match_starts(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    seat = await service.seats.open(HOST, GUILD, CHANNEL, Variant.THREE_ROUNDS, 900)
    assert seat.status is MatchStatus.PENDING and seat.players == (HOST, OPEN_SEAT)
    assert seat.is_open_seat and seat.variant is Variant.THREE_ROUNDS and seat.turn_seconds == 900

    match = await service.seats.join(seat.match_id, 202)

    assert match.status is MatchStatus.ACTIVE and match.players == (HOST, 202)
    assert not match.is_open_seat and match.channel_id == CHANNEL
    with pytest.raises(SeatTaken):
        await service.seats.join(seat.match_id, 303)
    with pytest.raises(SeatTaken):
        await service.seats.join(seat.match_id, 202)  # pressed twice
    stored = await service.store.get_match(seat.match_id)
    assert stored is not None and stored.players == (HOST, 202)
    await service.wait_idle()
    assert recorder.of(ChallengeAccepted)[0].opponent_id == 202
    assert recorder.of(MatchStarted)[0].players == (HOST, 202)


async def test_of_many_members_joining_at_once_exactly_one_plays(service):
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    joiners = list(range(500, 550))

    results = await asyncio.gather(
        *(service.seats.join(seat.match_id, user) for user in joiners), return_exceptions=True
    )

    started = [r for r in results if not isinstance(r, BaseException)]
    assert len(started) == 1
    assert all(isinstance(r, SeatTaken) for r in results if isinstance(r, BaseException))
    info = await service.queries.match_info(seat.match_id)
    assert info.players == (HOST, started[0].players[1])


async def test_the_host_cannot_join_their_own_seat(service):
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    with pytest.raises(CannotJoinOwnSeat, match=str(HOST)):
        await service.seats.join(seat.match_id, HOST)
    assert (await service.queries.match_info(seat.match_id)).status is MatchStatus.PENDING


async def test_only_the_host_cancels_and_a_cancelled_seat_cannot_be_joined(service):
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    with pytest.raises(NotYourMatch, match="only the host"):
        await service.seats.cancel(seat.match_id, 202)
    await service.seats.cancel(seat.match_id, HOST)
    with pytest.raises(SeatClosed, match="cancelled"):
        await service.seats.join(seat.match_id, 202)
    assert await listed(service) == []


async def test_a_seat_nobody_takes_expires_like_a_challenge(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder, challenge_expiry_seconds=60)
    seat = await posted(service, HOST)
    await clock.advance(59, settle=service.wait_idle)
    assert [s.match_id for s in await listed(service)] == [seat.match_id]
    await clock.advance(1, settle=service.wait_idle)

    assert (await service.queries.match_info(seat.match_id)).status is MatchStatus.EXPIRED
    assert [e.match_id for e in recorder.of(ExpiredEvent)] == [seat.match_id]
    with pytest.raises(SeatClosed, match="expired"):
        await service.seats.join(seat.match_id, 202)
    assert await listed(service) == []


async def test_one_waiting_seat_per_member_and_channel(service):
    first = await service.seats.open(HOST, GUILD, CHANNEL)
    with pytest.raises(SeatAlreadyOpen) as refused:
        await service.seats.open(HOST, GUILD, CHANNEL)
    assert refused.value.match_id == first.match_id
    other_channel = await service.seats.open(HOST, GUILD, CHANNEL + 1)
    assert other_channel.channel_id == CHANNEL + 1
    await service.seats.cancel(first.match_id, HOST)
    again = await service.seats.open(HOST, GUILD, CHANNEL)
    assert again.match_id != first.match_id


async def test_seats_count_against_the_limits_of_a_challenge(make_service):
    service = await make_service(max_active_matches=2, max_new_matches_per_hour=3)
    await posted(service, HOST, GUILD, 10)
    await posted(service, HOST, GUILD, 11)
    with pytest.raises(TooManyActiveMatches):
        await service.seats.open(HOST, GUILD, 12)
    # The joiner's open matches count too, as for an Accept.
    busy = 202
    for channel in (20, 21):
        await service.seats.open(busy, GUILD, channel)
    seat = await service.seats.open(303, GUILD, 30)
    with pytest.raises(TooManyActiveMatches):
        await service.seats.join(seat.match_id, busy)
    # Cancelled seats free a place but still count towards the hour.
    for seat_open in await listed(service):
        if seat_open.players[0] == HOST:
            await service.seats.cancel(seat_open.match_id, HOST)
    await posted(service, HOST, GUILD, 12)
    await service.seats.cancel((await listed(service))[-1].match_id, HOST)
    with pytest.raises(TooManyNewMatches):
        await service.seats.open(HOST, GUILD, 13)


async def test_a_server_lobby_channel_takes_its_seats(service):
    await service.settings.set_guild_settings(GuildSettings(GUILD, lobby_channel_id=77))
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    assert seat.channel_id == 77
    match = await service.seats.join(seat.match_id, 202)
    assert match.channel_id == 77


async def test_the_list_holds_the_servers_waiting_seats_oldest_first(service, clock):
    first = await posted(service, HOST)
    await clock.advance(5)
    second = await posted(service, 202)
    await posted(service, 303, GUILD + 1)  # another server
    await service.seats.open(404, GUILD, CHANNEL)  # not posted yet
    await service.challenges.challenge(404, 505, GUILD, CHANNEL)  # a named challenge
    assert [s.match_id for s in await listed(service)] == [
        first.match_id,
        second.match_id,
    ]
    await service.seats.join(first.match_id, 606)
    assert [s.match_id for s in await listed(service)] == [second.match_id]


async def test_join_on_a_challenge_to_someone_else_is_refused(service):
    challenge = await service.challenges.challenge(HOST, 202, GUILD, CHANNEL)
    with pytest.raises(NotYourMatch, match="for someone else"):
        await service.seats.join(challenge.match_id, 303)
    assert (await service.queries.match_info(challenge.match_id)).status is MatchStatus.PENDING


async def test_a_seat_joined_is_a_challenge_accepted_with_the_same_events_and_match(make_service):
    """An open seat is a challenge whose opponent is anyone: the same deal comes of joining
    one as of accepting a challenge, announced by the same events."""
    accepting = Recorder()
    first = await make_service(recorder=accepting)
    challenge = await first.challenges.challenge(HOST, 202, GUILD, CHANNEL)
    accepted = await first.challenges.accept(challenge.match_id, 202)
    await first.wait_idle()
    await first.close()

    joining = Recorder()
    second = await make_service(recorder=joining)  # the same seed: the same deal
    seat = await second.seats.open(HOST, GUILD, CHANNEL)
    joined = await second.seats.join(seat.match_id, 202)
    await second.wait_idle()

    assert replace(joined, match_id=0) == replace(accepted, match_id=0)
    assert [type(e) for e in joining.events] == [ChallengeIssued, ChallengeAccepted, MatchStarted]
    issued, *answered = joining.events
    assert isinstance(issued, ChallengeIssued) and issued.opponent_id == OPEN_SEAT
    assert [replace(e, match_id=0) for e in answered] == [
        replace(e, match_id=0) for e in accepting.events[1:]
    ]


async def test_a_cancelled_seat_is_a_withdrawn_challenge(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    challenge = await service.challenges.challenge(HOST, 202, GUILD, CHANNEL)
    await service.seats.cancel(seat.match_id, HOST)
    await service.challenges.cancel(challenge.match_id, HOST)
    await service.wait_idle()
    assert recorder.of(ChallengeCancelled) == [
        ChallengeCancelled(seat.match_id, HOST, OPEN_SEAT),
        ChallengeCancelled(challenge.match_id, HOST, 202),
    ]
    with pytest.raises(SeatClosed, match="cancelled"):
        await service.seats.cancel(seat.match_id, HOST)


async def test_an_unrated_seat_leaves_ratings_alone_and_a_rated_one_moves_them(service):
    rng = random.Random(5)
    unrated = await service.seats.open(HOST, GUILD, CHANNEL, rated=False)
    assert not unrated.rated
    await service.seats.join(unrated.match_id, 202)
    await play_to_end(service, unrated.match_id, rng)
    assert await service.queries.rating_changes(unrated.match_id) is None
    assert await service.store.standing(GUILD, HOST) is None

    rated = await service.seats.open(HOST, GUILD, CHANNEL)
    assert rated.rated
    await service.seats.join(rated.match_id, 202)
    await play_to_end(service, rated.match_id, rng)
    assert await service.queries.rating_changes(rated.match_id) is not None


async def test_a_seat_is_listed_only_once_its_message_is_posted(service):
    """Joined from the list before its lobby post, a seat whose post then failed could not
    be cancelled: its host would be told it was refused while a match with them runs."""
    seat = await service.seats.open(HOST, GUILD, CHANNEL)
    assert await listed(service) == []
    await service.placements.set_challenge_message(seat.match_id, 4242)
    (shown,) = await listed(service)
    assert shown.match_id == seat.match_id and shown.placement.board_message_id == 4242


async def test_the_list_comes_a_page_at_a_time_and_past_the_end_gives_the_last(service, clock):
    hosts = range(700, 707)
    for host in hosts:
        await posted(service, host)
        await clock.advance(1)
    first = await service.seats.listed(GUILD, 0, 5)
    assert [s.players[0] for s in first.seats] == [700, 701, 702, 703, 704]
    assert (first.page, first.pages) == (0, 2)
    second = await service.seats.listed(GUILD, 1, 5)
    assert [s.players[0] for s in second.seats] == [705, 706]
    assert await service.seats.listed(GUILD, 9, 5) == second
    with pytest.raises(InvalidRequest, match="-1"):
        await service.seats.listed(GUILD, -1, 5)
    empty = await service.seats.listed(GUILD + 1, 3, 5)
    assert (empty.seats, empty.page, empty.pages) == ((), 0, 1)
