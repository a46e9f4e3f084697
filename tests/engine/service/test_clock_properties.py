"""A property of clock matches played through the service: whatever the players' waits
(some past their bank, so that the timer plays or forfeits for them), every second between
the start and the last decision is charged to exactly one seat, no bank ever goes below
zero, and none gains time but by the increment."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clocks import ChessClock, TimeControl
from engine.rules.outcome import Termination
from engine.service import ManualClock, MatchService, ServiceConfig
from engine.store.sqlite import SqliteMatchStore

from .conftest import START, Recorder

CONTROL = TimeControl.clock(0.5, 1)  # 30 s banks, 1 s a decision: waits often run them out

# Half seconds: exact in binary, so the sums below compare exactly.
waits = st.lists(st.integers(0, 90).map(lambda halves: halves / 2), min_size=1, max_size=25)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(waits=waits)
def test_every_second_is_charged_once_and_no_bank_goes_below_zero(waits: list[float]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(_check(Path(directory) / "matches.sqlite3", waits))


async def _check(path: Path, waits: list[float]) -> None:
    clock = ManualClock(START)
    service = MatchService(
        SqliteMatchStore(str(path)),
        ServiceConfig(ai_move_delay_seconds=0.0),
        clock=clock,
        rng=random.Random(1),
    )
    recorder = Recorder()
    recorder.service = service
    service.subscribe(recorder)
    await service.start()
    try:
        challenge = await service.challenges.challenge(
            101, 202, guild_id=1, channel_id=2, time_control=CONTROL
        )
        match = await service.challenges.accept(challenge.match_id, 202)
        for wait in waits:
            now = await service.queries.match_now(match.match_id)
            seat = now.public.current_player
            if seat is None:
                break
            assert now.info.turn_deadline is not None
            in_time = clock.now() + wait < now.info.turn_deadline
            await clock.advance(wait, settle=service.wait_idle)
            if in_time:  # else the timer played (or forfeited) for them meanwhile
                user = now.info.players[seat]
                seen = await service.queries.view_for(match.match_id, user)
                await service.commands.submit(
                    match.match_id, user, seen.legal[0], seen.table.version
                )
        await service.wait_idle()
        await _check_charges(service, match.match_id)
    finally:
        await service.close()


async def _check_charges(service: MatchService, match_id: int) -> None:
    info = await service.queries.match_info(match_id)
    assert info.started_at is not None
    rows = sorted(await service.store.decisions(match_id), key=lambda row: row.seq)
    banks = [CONTROL.seconds, CONTROL.seconds]
    turn_started = info.started_at
    for row in rows:
        spent = row.decided_at - turn_started
        # Nobody decided after their bank ran out; the timer played exactly as it did.
        assert 0 <= spent <= banks[row.seat]
        if row.automatic:
            assert spent == banks[row.seat]
        before = banks[row.seat]
        banks[row.seat] = banks[row.seat] - spent + CONTROL.increment
        assert banks[row.seat] <= before + CONTROL.increment
        if row.next_to_move is not None:
            following = info.players.index(row.next_to_move)
            # The next turn has its mover's bank, not a second more.
            assert row.next_deadline == row.decided_at + banks[following]
        turn_started = row.decided_at

    replayed = ChessClock.replay(
        CONTROL.seconds,
        CONTROL.increment,
        info.started_at,
        ((row.seat, row.decided_at) for row in rows),
    )
    assert replayed.banks == tuple(banks)
    assert sum(replayed.used) == turn_started - info.started_at
    if info.status.value == "active":
        assert info.banks == replayed.banks
    else:
        [result] = await service.queries.finished_matches()
        if result.reason is Termination.TIMEOUT:
            # The forfeit came the moment the loser's bank ran out.
            loser = 1 - (result.winner_seat or 0)
            assert result.finished_at - turn_started == banks[loser]
