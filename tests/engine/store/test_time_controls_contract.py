"""The MatchStore contract for time controls, run against every store (SQLite and
PostgreSQL): a turn's clock moved without a decision, whose turn it is, vacations, and
reliability."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.clocks import DAY_SECONDS, Pace, Vacation
from engine.model import OPEN_SEAT, DecisionRow
from engine.ratings import Reliability
from engine.rules.outcome import Termination
from engine.store.errors import MatchConflict
from engine.store.match_store import MatchStore
from tests.engine.store.conftest import active_match, pending_match, result_of

LEAD = 30.0


@pytest.fixture
def store(each_store: MatchStore) -> MatchStore:
    return each_store


async def days_match(store: MatchStore) -> int:
    """A turn-based match (a day per move) started at 110, player 1 (seat 0) to move."""
    pending = replace(pending_match(), pace=Pace.DAYS, turn_seconds=DAY_SECONDS)
    created = await store.create_match(pending)
    await store.start_match(
        created.match_id,
        seed=7,
        first_player=0,
        started_at=110.0,
        turn_deadline=110.0 + DAY_SECONDS,
    )
    return created.match_id


async def test_a_match_keeps_its_time_control(store: MatchStore):
    pending = replace(pending_match(), pace=Pace.CLOCK, turn_seconds=300.0, increment_seconds=5.0)
    created = await store.create_match(replace(pending, min_reliability=80))
    stored = await store.get_match(created.match_id)
    assert stored is not None
    assert (stored.pace, stored.turn_seconds, stored.increment_seconds) == (Pace.CLOCK, 300.0, 5.0)
    assert stored.min_reliability == 80 and stored.to_move is None


@pytest.mark.parametrize("first_player", [0, 1])
async def test_starting_a_match_says_who_moves_first(store: MatchStore, first_player: int):
    created = await store.create_match(pending_match(player0=1, player1=2))
    await store.start_match(
        created.match_id, seed=1, first_player=first_player, started_at=110.0, turn_deadline=170.0
    )
    stored = await store.get_match(created.match_id)
    assert stored is not None and stored.to_move == (1, 2)[first_player]


async def test_an_open_seats_joiner_is_to_move_when_seat_1_starts(store: MatchStore):
    created = await store.create_match(pending_match(player0=1, player1=OPEN_SEAT))
    await store.start_match(
        created.match_id,
        seed=1,
        first_player=1,
        started_at=110.0,
        turn_deadline=170.0,
        opponent_id=9,
    )
    stored = await store.get_match(created.match_id)
    assert stored is not None and stored.to_move == 9


async def test_setting_a_turns_clock_keeps_it_and_conflicts_once_the_match_moved(
    store: MatchStore,
):
    match_id = await days_match(store)
    claim_at = 110.0 + DAY_SECONDS + 12 * 3600
    await store.set_turn_clock(
        match_id,
        0,
        turn_deadline=claim_at,
        overdue_since=110.0 + DAY_SECONDS,
        paused_until=None,
        reminded_version=0,
    )
    stored = await store.get_match(match_id)
    assert stored is not None
    assert (stored.turn_deadline, stored.overdue_since, stored.reminded_version) == (
        claim_at,
        110.0 + DAY_SECONDS,
        0,
    )

    await store.append_decision(match_id, DecisionRow(1, 0, "1A", 200.0, next_deadline=300.0))
    with pytest.raises(MatchConflict):
        await store.set_turn_clock(
            match_id,
            0,
            turn_deadline=1.0,
            overdue_since=None,
            paused_until=None,
            reminded_version=None,
        )
    stored = await store.get_match(match_id)
    assert stored is not None and stored.turn_deadline == 300.0


async def test_setting_the_clock_of_a_match_not_active_conflicts(store: MatchStore):
    pending = await store.create_match(pending_match())
    with pytest.raises(MatchConflict):
        await store.set_turn_clock(
            pending.match_id,
            0,
            turn_deadline=1.0,
            overdue_since=None,
            paused_until=None,
            reminded_version=None,
        )


async def test_a_decision_says_who_moves_next_and_ends_an_overdue_turn(store: MatchStore):
    match_id = await days_match(store)
    await store.set_turn_clock(
        match_id,
        0,
        turn_deadline=None,
        overdue_since=500.0,
        paused_until=None,
        reminded_version=0,
    )
    row = DecisionRow(1, 0, "1A", 600.0, next_deadline=9000.0, next_to_move=2, paused_until=8000.0)
    await store.append_decision(match_id, row)

    stored = await store.get_match(match_id)
    assert stored is not None
    assert (stored.to_move, stored.paused_until, stored.overdue_since, stored.turn_deadline) == (
        2,
        8000.0,
        None,
        9000.0,
    )
    assert await store.decisions(match_id) == [row]


async def test_an_overdue_turn_is_due_at_its_claim_time_and_not_once_offered(store: MatchStore):
    match_id = await days_match(store)
    overdue_since = 110.0 + DAY_SECONDS
    claim_at = overdue_since + 12 * 3600
    await store.set_turn_clock(
        match_id,
        0,
        turn_deadline=claim_at,
        overdue_since=overdue_since,
        paused_until=None,
        reminded_version=0,
    )
    assert await store.claim_due(claim_at - 1, LEAD, until=claim_at, limit=10) == []
    assert await store.claim_due(claim_at, LEAD, until=claim_at + 1, limit=10) == [match_id]

    await store.set_turn_clock(
        match_id,
        0,
        turn_deadline=None,
        overdue_since=overdue_since,
        paused_until=None,
        reminded_version=0,
    )
    assert await store.claim_due(claim_at + 10 * DAY_SECONDS, LEAD, until=1e12, limit=10) == []


async def test_a_vacation_saved_again_with_its_start_replaces_the_first(store: MatchStore):
    first = Vacation(100.0, 100.0 + 3 * DAY_SECONDS)
    later = Vacation(first.ends_at + DAY_SECONDS, first.ends_at + 2 * DAY_SECONDS)
    await store.save_vacation(5, 1, later)
    await store.save_vacation(5, 1, first)
    await store.save_vacation(6, 1, first)  # another server's
    assert await store.vacations(5, 1) == [first, later]

    ended_early = replace(first, ends_at=100.0 + DAY_SECONDS)
    await store.save_vacation(5, 1, ended_early)
    assert await store.vacations(5, 1) == [ended_early, later]
    assert await store.vacations(6, 1) == [first]
    assert await store.vacations(5, 2) == []


async def test_reliability_counts_the_ended_matches_and_those_lost_on_time(store: MatchStore):
    ends = [
        (Termination.TIMEOUT, 0),  # player 1 won on time: 2 abandoned it
        (Termination.TIMEOUT, 1),  # 1 lost on time
        (Termination.RESIGNATION, 1),
        (Termination.RESIGNATION, 0),
    ]
    for reason, winner_seat in ends:
        match_id = await active_match(store, player0=1, player1=2)
        result = result_of(match_id, players=(1, 2))
        result = replace(
            result, reason=reason, winner_seat=winner_seat, winner_id=(1, 2)[winner_seat]
        )
        await store.finish_match(result, None, version=0)
    elsewhere = await active_match(store, player0=1, player1=2, guild_id=6)
    await store.finish_match(
        replace(
            result_of(elsewhere, guild_id=6), reason=Termination.TIMEOUT, winner_seat=1, winner_id=2
        ),
        None,
        version=0,
    )

    assert await store.reliability(5, 1) == Reliability(finished=3, abandoned=1)
    assert await store.reliability(5, 2) == Reliability(finished=3, abandoned=1)
    assert await store.reliability(6, 1) == Reliability(finished=0, abandoned=1)
    assert await store.reliability(5, 3) == Reliability(finished=0, abandoned=0)
