"""Hints against the AI: only in a hint match against the AI, only on the player's own
decision, from their own view, searched once per position, and never changing the match."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

import pytest

from engine.service import (
    AI_USER_ID,
    HintFailed,
    MatchInfo,
    MatchService,
    MatchStarted,
    MatchStatus,
)

from .conftest import InlineExecutor, Recorder, ServiceFactory, new_match, play_one

ITERATIONS = 8
"""Play-outs per hint: enough for a legal suggestion, few enough for a quick test."""
PLAYER = 101


@pytest.fixture
async def service(make_service: ServiceFactory, worker: InlineExecutor) -> MatchService:
    return await make_service(agent_executor=worker, hint_iterations=ITERATIONS)


async def hint_match(service: MatchService, hints: bool = True) -> MatchInfo:
    """A match against the AI, waiting for its player (the AI moved first if it started)."""
    match = await service.commands.start_ai_match(
        PLAYER, "easy", guild_id=1, channel_id=2, hints=hints
    )
    await service.wait_idle()
    return match


async def test_a_hint_is_a_legal_decision_of_the_players_own_view(service, worker):
    match = await hint_match(service)
    seen = await service.queries.view_for(match.match_id, PLAYER)

    hint = await service.hints.hint(match.match_id, PLAYER)

    assert hint is not None and hint.decision in seen.legal
    assert 0.0 <= hint.chance <= 1.0
    assert worker.jobs["suggest"] == 1


async def test_a_hint_match_says_so_and_other_matches_do_not(make_service, worker):
    recorder = Recorder()
    service = await make_service(
        recorder=recorder, agent_executor=worker, hint_iterations=ITERATIONS
    )
    hinted = await hint_match(service)
    plain = await hint_match(service, hints=False)
    members = await new_match(service, 303, 404)

    assert hinted.hints and not plain.hints and not members.hints
    assert (await service.queries.match_info(hinted.match_id)).hints
    await service.wait_idle()
    started = {e.match_id: e.hints for e in recorder.of(MatchStarted)}
    assert started == {hinted.match_id: True, plain.match_id: False, members.match_id: False}


async def test_there_are_no_hints_in_a_match_between_two_members(service, worker):
    match = await new_match(service)
    rng = random.Random(4)
    for _ in range(4):
        for user in match.players:
            assert await service.hints.hint(match.match_id, user) is None
        await play_one(service, match.match_id, rng)
    assert worker.jobs["suggest"] == 0
    # Nor can such a match be made to carry them.
    with pytest.raises(ValueError, match="only for a match against the AI"):
        replace(match, hints=True)


async def test_there_are_no_hints_without_asking_for_them(service, worker):
    match = await hint_match(service, hints=False)
    assert await service.hints.hint(match.match_id, PLAYER) is None
    assert worker.jobs["suggest"] == 0


async def test_only_the_player_gets_a_hint_and_only_on_their_own_decision(make_service, worker):
    # The AI pauses before its move, so its turn can be seen.
    service = await make_service(
        agent_executor=worker, ai_move_delay_seconds=1.0, hint_iterations=ITERATIONS
    )
    match = await hint_match(service)
    assert await service.hints.hint(match.match_id, 999) is None  # a spectator
    assert await service.hints.hint(match.match_id, AI_USER_ID) is None
    assert await service.hints.hint(9999, PLAYER) is None  # no such match

    rng = random.Random(8)
    while True:
        await play_one(service, match.match_id, rng)
        table = await service.queries.public_view(match.match_id)
        if table.current_player == 1:  # the AI's turn: nothing for the player to decide
            break
        await service.wait_idle()
    assert await service.hints.hint(match.match_id, PLAYER) is None
    await service.wait_idle()
    assert await service.hints.hint(match.match_id, PLAYER) is not None


async def test_a_position_is_searched_once_however_often_it_is_asked(service, worker):
    match = await hint_match(service)

    together = await asyncio.gather(*(service.hints.hint(match.match_id, PLAYER) for _ in range(3)))
    again = await service.hints.hint(match.match_id, PLAYER)

    assert together[0] is not None and together.count(together[0]) == 3 and again == together[0]
    assert worker.jobs["suggest"] == 1
    await play_one(service, match.match_id, random.Random(2))  # the position moves on
    await service.wait_idle()
    if (await service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE:
        assert await service.hints.hint(match.match_id, PLAYER) is not None
        assert worker.jobs["suggest"] == 2


async def test_a_panel_gets_a_hint_only_for_the_position_it_shows(service, worker):
    match = await hint_match(service)
    shown = (await service.queries.view_for(match.match_id, PLAYER)).table.version

    assert await service.hints.hint(match.match_id, PLAYER, version=shown) is not None
    assert await service.hints.hint(match.match_id, PLAYER, version=shown - 1) is None
    await play_one(service, match.match_id, random.Random(3))  # the position moves on
    await service.wait_idle()
    searched = worker.jobs["suggest"]

    assert await service.hints.hint(match.match_id, PLAYER, version=shown) is None
    assert worker.jobs["suggest"] == searched  # nothing searched for an old panel
    now = (await service.queries.view_for(match.match_id, PLAYER)).table.version
    assert now > shown
    assert await service.hints.hint(match.match_id, PLAYER, version=now) is not None


async def test_a_hint_changes_nothing_in_the_match(make_service, worker):
    recorder = Recorder()
    service = await make_service(
        recorder=recorder, agent_executor=worker, hint_iterations=ITERATIONS
    )
    match = await hint_match(service)
    before = await service.queries.view_for(match.match_id, PLAYER)
    events = list(recorder.events)

    await service.hints.hint(match.match_id, PLAYER)
    await service.wait_idle()

    assert await service.queries.view_for(match.match_id, PLAYER) == before
    assert recorder.events == events
    stored = await service.store.get_match(match.match_id)
    assert stored is not None and stored.version == before.table.version


async def test_the_hints_flag_survives_a_restart(make_service, worker):
    first = await make_service(agent_executor=worker, hint_iterations=ITERATIONS)
    match = await hint_match(first)
    await first.close()

    second = await make_service(agent_executor=worker, hint_iterations=ITERATIONS)

    assert (await second.queries.match_info(match.match_id)).hints
    seen = await second.queries.view_for(match.match_id, PLAYER)
    hint = await second.hints.hint(match.match_id, PLAYER)
    assert hint is not None and hint.decision in seen.legal


async def test_a_rematch_of_a_hint_match_has_hints_too(service):
    match = await hint_match(service)
    await service.commands.resign(match.match_id, PLAYER)

    rematch = await service.challenges.rematch(match.match_id, PLAYER)

    assert rematch.started is not None and rematch.started.hints


async def test_a_dead_worker_fails_the_hint_and_the_next_ask_searches_again(service, worker):
    match = await hint_match(service)
    worker.failing = BrokenProcessPool("the worker process died")

    with pytest.raises(HintFailed):
        await service.hints.hint(match.match_id, PLAYER)

    worker.failing = None
    assert await service.hints.hint(match.match_id, PLAYER) is not None
    assert worker.jobs["suggest"] == 2
