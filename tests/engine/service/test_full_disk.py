"""A full disk: moves are refused with StorageFull and nothing moves on; the log says so
once when the disk fills and once when there is space again."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from engine.rules.decisions import Decision
from engine.rules.views import PlayerView
from engine.service import MatchInfo, MatchService
from engine.service.events import DecisionApplied
from engine.service.matches.turns import DISK_FULL_RETRY_SECONDS
from engine.store.errors import StorageFull
from tests.engine.store.disk_space import fill_the_disk, make_room

from .conftest import Recorder, new_match


async def play_until_refused(
    service: MatchService, matches: list[MatchInfo], rng: random.Random
) -> tuple[MatchInfo, int, PlayerView, Decision]:
    """Random moves, match after match, until one is refused: where, who, what they saw,
    and the move."""
    for match in matches:
        while (table := await service.queries.public_view(match.match_id)).outcome is None:
            assert table.current_player is not None
            user = match.players[table.current_player]
            seen = await service.queries.view_for(match.match_id, user)
            decision = rng.choice(seen.legal)
            try:
                await service.commands.submit(match.match_id, user, decision, table.version)
            except StorageFull:
                return match, user, seen, decision
    pytest.fail("the disk never filled up")


async def test_moves_on_a_full_disk_are_refused_once_logged_and_nothing_moves_on(
    make_service, caplog, monkeypatch
):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr("engine.store.sqlite.writer.SPACE_AGAIN_QUIET_SECONDS", 0.2)
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    matches = [await new_match(service, 101 + n, 202 + n) for n in range(20)]
    rng = random.Random(3)
    await fill_the_disk(service.store)

    # Play until the database's last free page is used up: that move is refused.
    match, user, seen, decision = await play_until_refused(service, matches, rng)
    table = seen.table
    applied = len(recorder.of(DecisionApplied))
    stored = len(await service.store.decisions(match.match_id))

    for _ in range(10):  # the player clicks again and again
        with pytest.raises(StorageFull):
            await service.commands.submit(match.match_id, user, decision, table.version)

    await service.wait_idle()
    assert (await service.queries.public_view(match.match_id)).version == table.version
    assert (await service.queries.view_for(match.match_id, user)) == seen  # hand unchanged
    assert len(recorder.of(DecisionApplied)) == applied  # the opponent heard of nothing
    assert len(await service.store.decisions(match.match_id)) == stored
    full_lines = [r for r in caplog.records if "disk is full" in r.getMessage()]
    assert len(full_lines) == 1, caplog.text
    assert str(service.store.path) in full_lines[0].getMessage()
    assert not any(r.exc_info for r in caplog.records), "no traceback"
    assert not any("retrying one by one" in r.getMessage() for r in caplog.records)

    caplog.clear()
    await make_room(service.store)
    await asyncio.sleep(0.2)  # refusals have stopped for a while
    result = await service.commands.submit(match.match_id, user, decision, table.version)

    assert result.version == table.version + 1
    assert len(await service.store.decisions(match.match_id)) == stored + 1
    assert len([r for r in caplog.records if "space again" in r.getMessage()]) == 1


async def test_a_turn_timer_that_meets_a_full_disk_fires_again_once_there_is_space(
    make_service, clock, caplog
):
    """The timer's move is refused like a player's (no traceback in the log, nothing
    applied), and it is tried again later rather than lost until a restart."""
    caplog.set_level(logging.INFO)
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=0.0)
    match = await new_match(service)
    await fill_the_disk(service.store)

    await clock.advance(600, settle=service.wait_idle)  # the turn timer runs out
    assert (await service.queries.public_view(match.match_id)).version == 0
    assert recorder.of(DecisionApplied) == []
    assert not any(r.exc_info for r in caplog.records), caplog.text

    await make_room(service.store)
    await clock.advance(DISK_FULL_RETRY_SECONDS, settle=service.wait_idle)
    [automatic] = recorder.of(DecisionApplied)
    assert automatic.automatic and automatic.match_id == match.match_id
