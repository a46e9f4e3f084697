"""A chess-style clock on two bot processes sharing PostgreSQL, one of them killed while a
player's clock runs: the other acts on the clock, once, and no second of a bank is lost or
gained. The processes run on the real clock (they are separate programs), so the banks are
seconds long and the test waits for events, looked at every 50 ms, never for a time."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from engine.clocks import ChessClock, Pace
from engine.model import MatchStatus
from tests.discord_emulator.fixtures import sharded_emulator  # noqa: F401
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.cluster import (
    Cluster,
    Observer,
    assert_no_hidden_card_in_public,
    eventually,
    play_in_thread,
)
from tests.e2e.test_cluster import challenge_in_guild_b, guild_b

pytestmark = pytest.mark.slow  # a cluster of bot processes

BANK = 8.0
INCREMENT = 2.0


@pytest.fixture
async def emulator(sharded_emulator: DiscordEmulator) -> AsyncIterator[DiscordEmulator]:  # noqa: F811
    yield sharded_emulator


@pytest.fixture
async def observer(postgres_url: str) -> AsyncIterator[Observer]:
    seen = Observer(postgres_url)
    await seen.open()
    try:
        yield seen
    finally:
        await seen.close()


async def test_a_killed_process_mid_clock_loses_no_second_and_doubles_no_move(
    emulator, postgres_url, tmp_path, observer
):
    cluster = Cluster(emulator, postgres_url, tmp_path, min_turn_seconds=1)
    await cluster.start_all()
    try:
        # Guild B plays clocks of 8 s + 2 s by default (set before any process reads it).
        await observer.value(
            "INSERT INTO guild_settings (guild_id, time_control) VALUES ($1, $2)"
            " ON CONFLICT (guild_id) DO UPDATE SET time_control = EXCLUDED.time_control",
            guild_b(emulator).id,
            f"clock:{BANK:g}+{INCREMENT:g}",
        )
        match = await challenge_in_guild_b(emulator, observer, cluster, dms=False)
        info = await observer.info(match.match_id)
        assert (info.pace, info.turn_seconds, info.increment_seconds) == (
            Pace.CLOCK,
            BANK,
            INCREMENT,
        )
        first, _, _ = await observer.whose_turn(match)
        await play_in_thread(emulator, observer, match, random.Random(3))
        [played] = await observer.decisions(match.match_id)
        assert not played.automatic

        # P1 holds guild B; killed while the next player's clock runs. P0 claims every
        # deadline from now: each absent player's bank runs out, the AI plays once for
        # each, and a second time in a row forfeits.
        await cluster.processes[1].kill()

        async def ended() -> bool:
            return (await observer.info(match.match_id)).status is MatchStatus.FINISHED

        await eventually(ended, "the match ended on time", 4 * (BANK + INCREMENT) + 30)
        rows = await observer.decisions(match.match_id)
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1)), "none doubled"
        assert all(row.automatic for row in rows[1:]), rows
        [(reason, winner_id)] = [
            tuple(r)
            for r in await observer.rows(
                "SELECT reason, winner_id FROM results WHERE match_id = $1", match.match_id
            )
        ]
        assert reason == "timeout"

        # The banks, replayed from the stored decisions: never below zero, never more than
        # the increment gained, every second between the start and the last decision
        # charged to one player. The first mover's bank kept exactly what they left.
        info = await observer.info(match.match_id)
        assert info.started_at is not None
        clock = ChessClock.start(BANK, info.started_at)
        for row in rows:
            before = clock.banks[row.seat]
            clock = clock.charge(row.seat, row.decided_at, INCREMENT)
            assert 0 <= clock.banks[row.seat] <= before + INCREMENT
            if row.automatic:
                # The AI played when the bank was out (or at most a poll later).
                assert clock.banks[row.seat] == INCREMENT
        assert sum(clock.used) == pytest.approx(rows[-1].decided_at - info.started_at)
        first_seat = info.players.index(first.id)
        assert rows[0].seat == first_seat
        spent = rows[0].decided_at - info.started_at
        replayed = ChessClock.replay(
            BANK, INCREMENT, info.started_at, [(first_seat, rows[0].decided_at)]
        )
        assert replayed.banks[first_seat] == pytest.approx(BANK - spent + INCREMENT)

        # P1 comes back: it shows nothing twice (each timer's move once in the thread, and
        # the result once).
        await cluster.start(1)
        await observer.shown(emulator, "everything shown after the restart")
        board_id = info.placement.board_message_id
        lines = [m.text() for m in first.messages(match.thread_id) if m.id != board_id]
        for user in match.players:
            seat = info.players.index(user.id)
            played_for = [row for row in rows if row.automatic and row.seat == seat]
            said = [t for t in lines if f"{user.name} ran out of time, so the AI" in t]
            assert len(said) == len(played_for), (user.name, said)
        loser = next(u for u in match.players if u.id != winner_id)
        assert len([t for t in lines if f"{loser.name} ran out of time." in t]) == 1
        cluster.assert_no_traceback()
        assert_no_hidden_card_in_public(emulator)
    finally:
        await cluster.close()
