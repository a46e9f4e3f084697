"""Subscribers and shutdown: a failing subscriber breaks nothing; close() finishes what it began."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine.service import DecisionApplied, Event, MatchStarted, ServiceClosed

from .conftest import Recorder, new_match, play_one


async def test_a_failing_subscriber_is_logged_and_the_others_still_hear_everything(
    make_service, caplog
):
    async def broken(event: Event) -> None:
        raise RuntimeError("subscriber bug")

    recorder = Recorder()
    service = await make_service()
    service.subscribe(broken)
    service.subscribe(recorder)
    match = await new_match(service)
    await play_one(service, match.match_id, random.Random(1))
    await service.wait_idle()

    assert [type(e) for e in recorder.events][-2:] == [MatchStarted, DecisionApplied]
    assert "subscriber bug" in caplog.text


async def test_unsubscribing_stops_delivery(make_service):
    recorder = Recorder()
    service = await make_service()
    unsubscribe = service.subscribe(recorder)
    await new_match(service)
    await service.wait_idle()
    heard = len(recorder.events)
    unsubscribe()
    await new_match(service, 303, 404)
    await service.wait_idle()
    assert len(recorder.events) == heard


async def test_close_finishes_a_decision_under_way_then_refuses_new_ones(make_service, db_path):
    service = await make_service()
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    decision = (await service.queries.view_for(match.match_id, mover)).legal[0]

    submitting = asyncio.create_task(service.commands.submit(match.match_id, mover, decision, 0))
    await asyncio.sleep(0)  # the submission is under way when the bot shuts down
    await service.close()

    assert (await submitting).version == 1
    with pytest.raises(ServiceClosed, match="shutting down"):
        await service.commands.submit(match.match_id, mover, decision, 1)
    reopened = await make_service()
    assert (await reopened.queries.public_view(match.match_id)).version == 1
