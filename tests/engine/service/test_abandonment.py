"""A match whose place is gone (its channel deleted, the bot removed from its server) ends
as abandoned: unrated, its timers stopped, its record kept, and nothing more happens to it."""

from __future__ import annotations

import random

import pytest

from engine.service import (
    AI_USER_ID,
    DecisionApplied,
    MatchAbandoned,
    MatchNotActive,
    MatchStatus,
    Reminder,
)
from engine.store.errors import DatabaseUnavailable

from .conftest import Recorder, new_match, play_one


async def test_a_deleted_channel_ends_its_matches_and_challenges_and_no_other(make_service, clock):
    heard = Recorder()
    service = await make_service(recorder=heard, turn_timer_seconds=60.0)
    here = await new_match(service)  # guild 1, channel 2
    await play_one(service, here.match_id, random.Random(1))
    challenge = await service.challenges.challenge(303, 404, guild_id=1, channel_id=2)
    elsewhere = await service.challenges.challenge(505, 606, guild_id=1, channel_id=9)

    ended = await service.abandonment.abandon_channel(1, 2)

    assert sorted(m.match_id for m in ended) == sorted([here.match_id, challenge.match_id])
    assert (await service.queries.match_info(here.match_id)).status is MatchStatus.ABANDONED
    assert (await service.queries.match_info(challenge.match_id)).status is MatchStatus.ABANDONED
    assert (await service.queries.match_info(elsewhere.match_id)).status is MatchStatus.PENDING
    told = {e.match_id: e for e in heard.of(MatchAbandoned)}
    assert told[here.match_id].started and told[here.match_id].version == 1
    assert told[here.match_id].players == here.players
    assert not told[challenge.match_id].started
    # The record is kept, nothing is rated, no result exists.
    assert len(await service.store.decisions(here.match_id)) == 1
    assert await service.store.finished_match(here.match_id) is None


async def test_an_abandoned_match_never_fires_its_timer_and_refuses_moves(make_service, clock):
    heard = Recorder()
    service = await make_service(recorder=heard, turn_timer_seconds=60.0)
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    seen = await service.queries.view_for(match.match_id, mover)

    await service.abandonment.abandon_guild(1)
    await clock.advance(3600, settle=service.wait_idle)

    assert heard.of(Reminder) == [] and heard.of(DecisionApplied) == []
    with pytest.raises(MatchNotActive):
        await service.commands.submit(match.match_id, mover, seen.legal[0], 0)
    assert await service.queries.open_matches_for(mover) == []


async def test_a_match_against_the_ai_is_abandoned_too_and_a_server_twice_is_harmless(
    make_service,
):
    service = await make_service()
    match = await service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    await service.wait_idle()

    first = await service.abandonment.abandon_guild(1)
    again = await service.abandonment.abandon_guild(1)

    assert [m.match_id for m in first] == [match.match_id] and again == []
    info = await service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ABANDONED and AI_USER_ID in info.players


async def test_an_abandoned_match_stays_ended_after_a_restart(make_service, clock):
    service = await make_service(turn_timer_seconds=60.0)
    match = await new_match(service)
    await service.abandonment.abandon_channel(1, 2)
    await service.close()

    heard = Recorder()
    again = await make_service(recorder=heard, turn_timer_seconds=60.0)
    await clock.advance(600, settle=again.wait_idle)

    assert again.broken == {}
    assert (await again.queries.match_info(match.match_id)).status is MatchStatus.ABANDONED
    assert heard.resumed == [] and heard.of(DecisionApplied) == []


def fail_abandoning(service, match_id: int, error: Exception) -> None:  # type: ignore[no-untyped-def]
    """The store's write that abandons ``match_id`` fails once with ``error``."""
    store = service.store
    real = store.abandon_match
    failed: list[int] = []

    async def abandon_match(match_id_, was, at):  # type: ignore[no-untyped-def]
        if match_id_ == match_id and not failed:
            failed.append(match_id_)
            raise error
        await real(match_id_, was, at)

    store.abandon_match = abandon_match  # type: ignore[method-assign]


async def test_a_match_that_cannot_be_abandoned_does_not_keep_the_others_open(make_service):
    service = await make_service()
    first = await new_match(service)
    second = await new_match(service, 303, 404)
    fail_abandoning(service, first.match_id, RuntimeError("a fault"))

    ended = await service.abandonment.abandon_channel(1, 2)

    assert [m.match_id for m in ended] == [second.match_id]
    assert (await service.queries.match_info(second.match_id)).status is MatchStatus.ABANDONED


async def test_a_stalled_database_is_said_after_the_others_ended_and_asking_again_ends_it(
    make_service,
):
    service = await make_service()
    first = await new_match(service)
    second = await new_match(service, 303, 404)
    fail_abandoning(service, first.match_id, DatabaseUnavailable("test.sqlite3", "no answer"))

    with pytest.raises(DatabaseUnavailable):
        await service.abandonment.abandon_channel(1, 2)
    assert (await service.queries.match_info(second.match_id)).status is MatchStatus.ABANDONED
    assert (await service.queries.match_info(first.match_id)).status is MatchStatus.ACTIVE

    again = await service.abandonment.abandon_channel(1, 2)
    assert [m.match_id for m in again] == [first.match_id]
