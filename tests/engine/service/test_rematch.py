"""Rematch: both players press under a finished match (the AI's player alone), stored."""

from __future__ import annotations

import asyncio

import pytest

from engine.rules.state import Variant
from engine.service import (
    AI_USER_ID,
    MatchNotFinished,
    MatchStatus,
    NotYourMatch,
    Rematch,
    RematchAlreadyStarted,
)

from .conftest import new_match


async def _finished(service, challenger: int = 101, opponent: int = 202, **kwargs):
    challenge = await service.challenges.challenge(
        challenger, opponent, guild_id=1, channel_id=2, **kwargs
    )
    match = await service.challenges.accept(challenge.match_id, opponent)
    await service.commands.resign(match.match_id, challenger)
    return await service.queries.match_info(match.match_id)


async def test_both_presses_start_a_match_in_the_same_channel_with_the_seats_swapped(service):
    old = await _finished(service, variant=Variant.THREE_ROUNDS, turn_seconds=120.0)

    first = await service.challenges.rematch(old.match_id, 202)
    assert first == Rematch(started=None, waiting_for=101)
    second = await service.challenges.rematch(old.match_id, 101)

    assert second.waiting_for is None and second.started is not None
    new = second.started
    assert new.status is MatchStatus.ACTIVE
    assert new.players == (202, 101)
    assert (new.guild_id, new.channel_id) == (old.guild_id, old.channel_id)
    assert (new.variant, new.turn_seconds) == (Variant.THREE_ROUNDS, 120.0)
    assert new.rematch_of == old.match_id


async def test_the_rematch_of_a_friendly_match_is_friendly_too(service):
    old = await _finished(service, rated=False)
    await service.challenges.rematch(old.match_id, 202)
    second = await service.challenges.rematch(old.match_id, 101)
    assert second.started is not None and not second.started.rated
    rated = await _finished(service, challenger=303, opponent=404)
    await service.challenges.rematch(rated.match_id, 404)
    again = await service.challenges.rematch(rated.match_id, 303)
    assert again.started is not None and again.started.rated


async def test_pressing_twice_still_waits_for_the_other_player(service):
    old = await _finished(service)
    await service.challenges.rematch(old.match_id, 101)
    assert await service.challenges.rematch(old.match_id, 101) == Rematch(None, waiting_for=202)
    assert await service.queries.open_matches_for(101) == []


async def test_against_the_ai_one_press_starts_a_match_at_the_same_level(service):
    ai_match = await service.commands.start_ai_match(
        303, "easy", guild_id=1, channel_id=2, turn_seconds=90.0
    )
    await service.commands.resign(ai_match.match_id, 303)

    rematch = await service.challenges.rematch(ai_match.match_id, 303)

    new = rematch.started
    assert new is not None and rematch.waiting_for is None
    assert new.players == (303, AI_USER_ID)
    assert (new.ai_level, new.turn_seconds, new.channel_id) == ("easy", 90.0, 2)


async def test_a_match_still_being_played_has_no_rematch(service):
    match = await new_match(service)
    with pytest.raises(MatchNotFinished, match=f"match {match.match_id} is active"):
        await service.challenges.rematch(match.match_id, 101)


async def test_only_its_players_may_ask_for_a_rematch(service):
    old = await _finished(service)
    with pytest.raises(NotYourMatch, match=f"user 999 cannot act in match {old.match_id}"):
        await service.challenges.rematch(old.match_id, 999)


async def test_pressing_after_the_rematch_started_is_refused_even_after_a_restart(make_service):
    first = await make_service()
    old = await _finished(first)
    await first.challenges.rematch(old.match_id, 101)
    started = (await first.challenges.rematch(old.match_id, 202)).started
    assert started is not None
    await first.close()

    second = await make_service()
    with pytest.raises(RematchAlreadyStarted, match=f"match {started.match_id}") as refused:
        await second.challenges.rematch(old.match_id, 101)
    assert refused.value.rematch_id == started.match_id


async def test_a_press_survives_a_restart(make_service):
    first = await make_service()
    old = await _finished(first)
    assert (await first.challenges.rematch(old.match_id, 101)).waiting_for == 202
    await first.close()

    second = await make_service()
    rematch = await second.challenges.rematch(old.match_id, 202)

    assert rematch.started is not None and rematch.started.players == (202, 101)


async def test_a_failure_while_starting_does_not_block_the_rematch(service, monkeypatch):
    old = await _finished(service)
    await service.challenges.rematch(old.match_id, 101)
    start_match = service.store.start_match

    async def fail_once(*args, **kwargs):
        monkeypatch.setattr(service.store, "start_match", start_match)
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "start_match", fail_once)
    with pytest.raises(OSError):
        await service.challenges.rematch(old.match_id, 202)

    retried = await service.challenges.rematch(old.match_id, 202)

    assert retried.started is not None and retried.started.status is MatchStatus.ACTIVE
    assert [m.match_id for m in await service.queries.open_matches_for(101)] == [
        retried.started.match_id
    ]


async def test_two_simultaneous_last_presses_start_exactly_one_match(service):
    old = await _finished(service)

    results = await asyncio.gather(
        service.challenges.rematch(old.match_id, 101),
        service.challenges.rematch(old.match_id, 202),
        service.challenges.rematch(old.match_id, 202),
        return_exceptions=True,
    )

    started = [r for r in results if isinstance(r, Rematch) and r.started is not None]
    assert len(started) == 1
    assert all(
        isinstance(r, RematchAlreadyStarted) or r.started is None
        for r in results
        if r is not started[0]
    )
    assert len(await service.queries.open_matches_for(101)) == 1
