"""The MatchStore contract, run against every store: what each method promises, the same
for SQLite (one process) and PostgreSQL (several processes on one database)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

from engine.model import (
    AI_USER_ID,
    OPEN_SEAT,
    DecisionRow,
    ExpiryPolicy,
    GuildSettings,
    MatchStatus,
    Placement,
    UserSettings,
)
from engine.ratings import Standing, rate_finished_match
from engine.rules.outcome import Termination
from engine.store import SchemaTooNew
from engine.store.announcement import Announcement
from engine.store.errors import (
    CannotOpenDatabase,
    DatabaseUnavailable,
    MatchConflict,
    StorageFull,
)
from engine.store.match_store import MatchStore
from engine.store.migration_files import load_migrations
from engine.store.postgres import PostgresMatchStore
from engine.store.postgres.connection import MIGRATIONS as POSTGRES_MIGRATIONS
from engine.store.postgres.connection import masked, quiet_floor_restore, storage_errors
from engine.store.sqlite import SqliteMatchStore
from engine.store.timeouts import DatabaseTimeouts
from tests.engine.store.conftest import (
    active_match,
    decision_row,
    notice,
    pending_match,
    result_of,
)

HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang: what a test waits for comes at once, however busy the
machine is."""
POLL_SECONDS = 0.01

LEAD = 30.0
"""The reminder lead the claim_due tests pass: the reminder of a 60 s turn is due 30 s early."""


def announcement(key: str, match_id: int, body: str = '{"kind":"test"}') -> Announcement:
    return Announcement(match_id, key, body, created_at=150.0)


@pytest.fixture
def store(each_store: MatchStore) -> MatchStore:
    return each_store


async def assert_conflict(store: MatchStore, match_id: int, write) -> None:
    """``write`` raises MatchConflict and leaves the match, its decisions and the outbox as
    they were."""

    async def state():
        return (
            await store.get_match(match_id),
            await store.decisions(match_id),
            await store.finished_match(match_id),
            await store.rating_changes(match_id),
            await store.undelivered(),
        )

    before = await state()
    with pytest.raises(MatchConflict) as raised:
        await write
    assert raised.value.match_id == match_id
    assert await state() == before


# -- creating and reading matches --------------------------------------------------------


async def test_a_created_match_comes_back_with_a_new_id(store: MatchStore):
    first = await store.create_match(pending_match())
    second = await store.create_match(pending_match(3, 4))
    assert first.match_id != second.match_id
    assert first == replace(pending_match(), match_id=first.match_id)
    assert await store.get_match(first.match_id) == first
    assert await store.get_match(second.match_id) == second
    assert await store.get_match(second.match_id + 1000) is None


async def test_snowflakes_and_seeds_survive_the_round_trip(store: MatchStore):
    big = 2**63 - 1
    match = replace(pending_match(big - 1, big - 2, guild_id=big), channel_id=big)
    created = await store.create_match(match)
    await store.start_match(
        created.match_id, seed=big, first_player=0, started_at=110.0, turn_deadline=None
    )
    stored = await store.get_match(created.match_id)
    assert stored is not None
    assert (stored.players, stored.guild_id, stored.channel_id) == ((big - 1, big - 2), big, big)
    assert stored.seed == big


async def test_create_match_writes_its_announcements_under_the_new_id(store: MatchStore):
    created = await store.create_match(pending_match(), [announcement("challenge@0", 0)])
    assert await store.undelivered() == [announcement("challenge@0", created.match_id)]


async def test_undelivered_of_one_match_leaves_the_others_out(store: MatchStore):
    # What a write that got no answer made is looked up for its match alone.
    first = await store.create_match(pending_match(), [announcement("challenge@0", 0)])
    second = await store.create_match(pending_match(3, 4), [announcement("challenge@0", 0)])
    await store.close_challenge(
        first.match_id, MatchStatus.EXPIRED, 160.0, [announcement("expired", first.match_id)]
    )
    assert await store.undelivered(first.match_id) == [
        announcement("challenge@0", first.match_id),
        announcement("expired", first.match_id),
    ]
    assert await store.undelivered(second.match_id) == [
        announcement("challenge@0", second.match_id)
    ]
    assert await store.undelivered(second.match_id + 1000) == []


async def test_open_matches_are_the_pending_and_active_ones_with_their_decisions(
    store: MatchStore,
):
    pending = await store.create_match(pending_match())
    active = await active_match(store)
    await store.append_decision(active, decision_row(1))
    await store.append_decision(active, decision_row(2, seat=1))
    declined = await store.create_match(pending_match())
    await store.close_challenge(declined.match_id, MatchStatus.DECLINED, 150.0)
    finished = await active_match(store)
    await store.finish_match(result_of(finished), None, version=0)

    found = await store.open_matches()
    assert [(m.match_id, m.status, d) for m, d in found] == [
        (pending.match_id, MatchStatus.PENDING, []),
        (active, MatchStatus.ACTIVE, [decision_row(1), decision_row(2, seat=1)]),
    ]


async def test_match_since_brings_a_cached_match_up_to_date(store: MatchStore):
    match_id = await active_match(store)
    for seq in (1, 2, 3):
        await store.append_decision(match_id, decision_row(seq, seat=seq % 2))
    since = await store.match_since(match_id, 1)
    assert since is not None
    match, decisions = since
    assert match == await store.get_match(match_id)
    assert match.version == 3
    assert decisions == [decision_row(2, seat=0), decision_row(3, seat=1)]
    assert await store.match_since(match_id, 3) == (match, [])
    assert await store.match_since(match_id + 1000, 0) is None


async def test_open_matches_of_a_player_are_theirs_in_either_seat_oldest_first(
    store: MatchStore,
):
    challenged = await store.create_match(pending_match(7, 8))
    challenger = await active_match(store, player0=8, player1=9)
    later = await store.create_match(replace(pending_match(9, 8), created_at=150.0))
    await store.create_match(pending_match(7, 9))  # not 8's
    over = await active_match(store, player0=8, player1=7)
    await store.finish_match(result_of(over, players=(8, 7)), None, version=0)

    found = await store.open_matches_of(8)
    assert [m.match_id for m in found] == [challenged.match_id, challenger, later.match_id]
    assert await store.open_matches_of(12345) == []


async def test_match_in_thread_finds_the_open_match_shown_there(store: MatchStore):
    match_id = await active_match(store)
    await store.set_location(match_id, 900, 901)
    found = await store.match_in_thread(900)
    assert found is not None
    assert (found.match_id, found.placement) == (match_id, Placement(900, 901))
    assert await store.match_in_thread(999) is None

    await store.finish_match(result_of(match_id), None, version=0)
    assert await store.match_in_thread(900) is None


async def test_match_of_thread_finds_the_match_shown_there_after_it_ended(store: MatchStore):
    match_id = await active_match(store)
    await store.set_location(match_id, 900, 901)
    assert (await store.match_of_thread(900)).match_id == match_id
    await store.finish_match(result_of(match_id), None, version=0)
    found = await store.match_of_thread(900)
    assert found is not None
    assert (found.match_id, found.status) == (match_id, MatchStatus.FINISHED)
    assert await store.match_of_thread(999) is None


async def test_matches_started_by_are_the_seat_0_matches_since_a_time(store: MatchStore):
    early = await store.create_match(pending_match(1, 2))
    late = await store.create_match(replace(pending_match(1, 3), created_at=200.0))
    await store.create_match(replace(pending_match(2, 1), created_at=200.0))  # seat 1
    assert [m.match_id for m in await store.matches_started_by(1, 100.0)] == [
        early.match_id,
        late.match_id,
    ]
    assert [m.match_id for m in await store.matches_started_by(1, 150.0)] == [late.match_id]


# -- moving a match on, and the writes that find it moved already ------------------------


async def test_a_challenges_message_is_kept_only_while_it_is_pending(store: MatchStore):
    created = await store.create_match(pending_match())
    await store.set_challenge_message(created.match_id, 901)
    found = await store.get_match(created.match_id)
    assert found is not None and found.placement == Placement(None, 901)
    await store.start_match(
        created.match_id, seed=42, first_player=1, started_at=110.0, turn_deadline=170.0
    )
    # Accepted before the bot learnt its challenge's message id: the start's clear board stays.
    await store.set_challenge_message(created.match_id, 902)
    found = await store.get_match(created.match_id)
    assert found is not None and found.placement == Placement(None, None)


async def test_start_makes_a_challenge_active_and_forgets_its_message(store: MatchStore):
    created = await store.create_match(pending_match())
    await store.set_location(created.match_id, 900, 901)
    await store.start_match(
        created.match_id,
        seed=42,
        first_player=1,
        started_at=110.0,
        turn_deadline=170.0,
        announcements=[announcement("start@0", created.match_id)],
    )
    match = await store.get_match(created.match_id)
    assert match == replace(
        created,
        status=MatchStatus.ACTIVE,
        seed=42,
        first_player=1,
        started_at=110.0,
        turn_deadline=170.0,
        placement=Placement(900, None),
        to_move=created.players[1],  # seat 1 starts
    )
    assert await store.undelivered() == [announcement("start@0", created.match_id)]


async def test_starting_a_match_that_is_not_pending_conflicts(store: MatchStore):
    match_id = await active_match(store)
    again = store.start_match(
        match_id,
        seed=7,
        first_player=0,
        started_at=120.0,
        turn_deadline=180.0,
        announcements=[announcement("start@0", match_id)],
    )
    await assert_conflict(store, match_id, again)


async def test_an_open_seat_is_taken_once_by_its_first_joiner(store: MatchStore):
    seat = await store.create_match(replace(pending_match(1, OPEN_SEAT), rated=False))
    assert seat.is_open_seat and not seat.rated
    assert await store.get_match(seat.match_id) == seat
    assert await store.open_matches_in(5, 6) == [seat]

    await store.start_match(
        seat.match_id, seed=42, first_player=0, started_at=110.0, turn_deadline=170.0, opponent_id=3
    )
    taken = await store.get_match(seat.match_id)
    assert taken is not None and taken.players == (1, 3) and not taken.rated
    assert [m.match_id for m in await store.open_matches_of(3)] == [seat.match_id]
    again = store.start_match(
        seat.match_id, seed=7, first_player=1, started_at=120.0, turn_deadline=180.0, opponent_id=4
    )
    await assert_conflict(store, seat.match_id, again)


async def test_waiting_seats_are_a_servers_posted_unexpired_open_seats_a_page_at_a_time(
    store: MatchStore,
):
    async def seat(created_at: float, *, guild_id: int = 5, expires: float = 400.0) -> int:
        made = replace(
            pending_match(1, OPEN_SEAT, guild_id=guild_id),
            created_at=created_at,
            challenge_expires_at=expires,
        )
        match_id = (await store.create_match(made)).match_id
        await store.set_challenge_message(match_id, 9_000 + match_id)
        return match_id

    later, first, second = await seat(103.0), await seat(101.0), await seat(102.0)
    await seat(100.0, expires=200.0)  # expired at 200
    await seat(100.0, guild_id=8)  # another server
    unposted = await store.create_match(pending_match(1, OPEN_SEAT))
    await store.create_match(pending_match(1, 2))  # a named challenge
    taken = await seat(100.0)
    await store.start_match(
        taken, seed=1, first_player=0, started_at=110.0, turn_deadline=170.0, opponent_id=3
    )

    page, total = await store.waiting_seats_in(5, 300.0, offset=0, limit=2)
    assert ([m.match_id for m in page], total) == ([first, second], 3)
    assert page[0].placement.board_message_id == 9_000 + first
    page, total = await store.waiting_seats_in(5, 300.0, offset=2, limit=2)
    assert ([m.match_id for m in page], total) == ([later], 3)
    assert await store.waiting_seats_in(5, 400.0, offset=0, limit=2) == ([], 0)
    assert unposted.match_id not in [m.match_id for m in page]


async def test_a_challenge_starts_with_its_named_opponent_and_is_rated(store: MatchStore):
    match_id = await active_match(store)
    match = await store.get_match(match_id)
    assert match is not None and match.players == (1, 2) and match.rated


async def test_closing_a_challenge_ends_it_once(store: MatchStore):
    created = await store.create_match(pending_match())
    await store.close_challenge(created.match_id, MatchStatus.DECLINED, 150.0)
    match = await store.get_match(created.match_id)
    assert match is not None
    assert (match.status, match.ended_at) == (MatchStatus.DECLINED, 150.0)

    again = store.close_challenge(
        created.match_id, MatchStatus.EXPIRED, 400.0, [announcement("expired", created.match_id)]
    )
    await assert_conflict(store, created.match_id, again)
    active = await active_match(store)
    await assert_conflict(
        store, active, store.close_challenge(active, MatchStatus.CANCELLED, 150.0)
    )


async def test_an_appended_decision_becomes_current(store: MatchStore):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1), [announcement("decision@1", match_id)])
    match = await store.get_match(match_id)
    assert match is not None
    assert (match.version, match.turn_deadline) == (1, decision_row(1).next_deadline)
    assert await store.decisions(match_id) == [decision_row(1)]
    assert await store.undelivered() == [announcement("decision@1", match_id)]


async def test_automatic_decisions_and_open_deadlines_are_kept(store: MatchStore):
    match_id = await active_match(store)
    auto = DecisionRow(1, 1, "2AB", 170.0, automatic=True, next_deadline=None)
    await store.append_decision(match_id, auto)
    assert await store.decisions(match_id) == [auto]
    match = await store.get_match(match_id)
    assert match is not None and match.turn_deadline is None


async def test_a_stale_or_repeated_append_conflicts_and_writes_nothing(store: MatchStore):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    ahead = store.append_decision(match_id, decision_row(3), [announcement("d@3", match_id)])
    await assert_conflict(store, match_id, ahead)
    repeated = store.append_decision(match_id, decision_row(1), [announcement("d@1", match_id)])
    await assert_conflict(store, match_id, repeated)


async def test_appending_to_a_match_that_is_not_active_conflicts(store: MatchStore):
    pending = await store.create_match(pending_match())
    await assert_conflict(
        store, pending.match_id, store.append_decision(pending.match_id, decision_row(1))
    )
    missing = pending.match_id + 1000
    with pytest.raises(MatchConflict):
        await store.append_decision(missing, decision_row(1))
    assert await store.decisions(missing) == []


async def test_finishing_records_the_last_decision_and_the_result(store: MatchStore):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    result = result_of(match_id)
    await store.finish_match(
        result, decision_row(2, seat=1), announcements=[announcement("result", match_id)], version=1
    )
    match = await store.get_match(match_id)
    assert match is not None
    assert (match.status, match.version, match.turn_deadline, match.ended_at) == (
        MatchStatus.FINISHED,
        2,
        None,
        result.finished_at,
    )
    assert await store.decisions(match_id) == [decision_row(1), decision_row(2, seat=1)]
    assert await store.finished_match(match_id) == result
    assert await store.undelivered() == [announcement("result", match_id)]
    assert await store.rating_changes(match_id) == []


async def test_finishing_without_a_last_decision_keeps_the_version(store: MatchStore):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    await store.finish_match(result_of(match_id), None, version=1)
    match = await store.get_match(match_id)
    assert match is not None and (match.status, match.version) == (MatchStatus.FINISHED, 1)


async def test_finishing_a_stale_or_finished_match_conflicts_and_writes_nothing(
    store: MatchStore,
):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    stale = store.finish_match(
        result_of(match_id), decision_row(1), announcements=[announcement("r", match_id)], version=0
    )
    await assert_conflict(store, match_id, stale)

    await store.finish_match(result_of(match_id), None, version=1)
    twice = store.finish_match(
        result_of(match_id, finished_at=600.0),
        None,
        announcements=[announcement("r2", match_id)],
        version=1,
    )
    await assert_conflict(store, match_id, twice)
    assert await store.finished_match(match_id) == result_of(match_id)

    pending = await store.create_match(pending_match())
    await assert_conflict(
        store,
        pending.match_id,
        store.finish_match(result_of(pending.match_id), None, version=0),
    )


async def test_a_broken_match_keeps_why(store: MatchStore):
    match_id = await active_match(store)
    await store.mark_broken(match_id, "replay failed at 3", 300.0)
    match = await store.get_match(match_id)
    assert match is not None
    assert (match.status, match.broken_reason, match.ended_at) == (
        MatchStatus.BROKEN,
        "replay failed at 3",
        300.0,
    )
    assert await store.open_matches() == []


async def test_the_open_matches_of_a_server_or_one_of_its_channels(store: MatchStore):
    pending = await store.create_match(pending_match(guild_id=5))  # channel 6
    active = await active_match(store, guild_id=5)
    other_server = await active_match(store, guild_id=8)
    closed = await store.create_match(pending_match(guild_id=5))
    await store.close_challenge(closed.match_id, MatchStatus.DECLINED, 150.0)

    in_server = [m.match_id for m in await store.open_matches_in(5, None)]
    assert in_server == [pending.match_id, active]
    assert [m.match_id for m in await store.open_matches_in(5, 6)] == in_server
    assert await store.open_matches_in(5, 7) == []
    assert [m.match_id for m in await store.open_matches_in(8, None)] == [other_server]


async def test_an_abandoned_match_keeps_its_decisions_and_is_never_due(store: MatchStore):
    match_id = await active_match(store)
    await store.append_decision(match_id, DecisionRow(1, 1, "1A", 120.0, next_deadline=180.0))
    await store.abandon_match(match_id, MatchStatus.ACTIVE, 130.0)

    match = await store.get_match(match_id)
    assert match is not None
    assert (match.status, match.ended_at, match.version) == (MatchStatus.ABANDONED, 130.0, 1)
    assert len(await store.decisions(match_id)) == 1
    assert await store.finished_match(match_id) is None
    assert await store.open_matches() == [] and await store.open_matches_in(5, None) == []
    assert await store.claim_due(1000.0, LEAD, until=1001.0, limit=10) == []
    again = store.append_decision(match_id, DecisionRow(2, 0, "1B", 140.0))
    await assert_conflict(store, match_id, again)


async def test_abandoning_conflicts_unless_the_match_is_as_seen(store: MatchStore):
    created = await store.create_match(pending_match())
    await store.start_match(
        created.match_id, seed=1, first_player=0, started_at=110.0, turn_deadline=170.0
    )
    seen_pending = store.abandon_match(created.match_id, MatchStatus.PENDING, 130.0)
    await assert_conflict(store, created.match_id, seen_pending)
    await store.abandon_match(created.match_id, MatchStatus.ACTIVE, 130.0)
    twice = store.abandon_match(created.match_id, MatchStatus.ACTIVE, 140.0)
    await assert_conflict(store, created.match_id, twice)


async def test_a_reminder_is_remembered_once_per_version(store: MatchStore):
    match_id = await active_match(store)
    await store.set_reminded(match_id, 0, [announcement("reminder@0", match_id)])
    match = await store.get_match(match_id)
    assert match is not None and match.reminded_version == 0
    twice = store.set_reminded(match_id, 0, [announcement("reminder@0b", match_id)])
    await assert_conflict(store, match_id, twice)
    stale = store.set_reminded(match_id, 1)
    await assert_conflict(store, match_id, stale)

    await store.append_decision(match_id, decision_row(1))
    await store.set_reminded(match_id, 1)
    match = await store.get_match(match_id)
    assert match is not None and match.reminded_version == 1


# -- claims ------------------------------------------------------------------------------


async def test_a_claim_holds_the_match_until_it_expires(store: MatchStore):
    match_id = await active_match(store)
    assert await store.claim(match_id, 0, until=130.0, now=120.0)
    assert not await store.claim(match_id, 0, until=140.0, now=125.0)  # another process
    assert await store.claim(match_id, 0, until=150.0, now=130.0)  # the first one expired


async def test_a_claim_needs_the_match_active_at_the_version(store: MatchStore):
    match_id = await active_match(store)
    assert not await store.claim(match_id, 1, until=130.0, now=120.0)
    pending = await store.create_match(pending_match())
    assert not await store.claim(pending.match_id, 0, until=130.0, now=120.0)
    assert not await store.claim(match_id + 1000, 0, until=130.0, now=120.0)


@pytest.mark.parametrize("write", ["append", "remind"])
async def test_a_write_that_moves_the_match_on_releases_its_claim(store: MatchStore, write):
    match_id = await active_match(store)
    assert await store.claim(match_id, 0, until=1000.0, now=120.0)
    if write == "append":
        await store.append_decision(match_id, decision_row(1))
        version = 1
    else:
        await store.set_reminded(match_id, 0)
        version = 0
    assert await store.claim(match_id, version, until=1000.0, now=121.0)


async def test_a_challenge_is_due_when_it_expires(store: MatchStore):
    created = await store.create_match(pending_match())  # expires at 400
    assert await store.claim_due(399.0, LEAD, until=500.0, limit=10) == []
    assert await store.claim_due(400.0, LEAD, until=500.0, limit=10) == [created.match_id]


async def test_a_turn_is_due_for_its_reminder_then_at_its_deadline(store: MatchStore):
    match_id = await active_match(store)  # 60 s turns, deadline 170: reminder due at 140
    assert await store.claim_due(139.0, LEAD, until=141.0, limit=10) == []
    assert await store.claim_due(141.0, LEAD, until=142.0, limit=10) == [match_id]
    await store.set_reminded(match_id, 0)  # releases the claim
    assert await store.claim_due(160.0, LEAD, until=161.0, limit=10) == []
    assert await store.claim_due(170.0, LEAD, until=171.0, limit=10) == [match_id]


async def test_the_reminder_lead_is_at_most_half_a_turn(store: MatchStore):
    match_id = await active_match(store)  # 60 s turns: a 50 s lead counts as 30
    assert await store.claim_due(135.0, 50.0, until=136.0, limit=10) == []
    assert await store.claim_due(141.0, 50.0, until=142.0, limit=10) == [match_id]


async def test_claim_due_takes_the_oldest_due_first_up_to_its_limit(store: MatchStore):
    late = await store.create_match(replace(pending_match(), challenge_expires_at=300.0))
    early = await store.create_match(replace(pending_match(), challenge_expires_at=200.0))
    middle = await store.create_match(replace(pending_match(), challenge_expires_at=250.0))
    assert await store.claim_due(500.0, LEAD, until=600.0, limit=2) == [
        early.match_id,
        middle.match_id,
    ]
    assert await store.claim_due(500.0, LEAD, until=600.0, limit=2) == [late.match_id]


async def test_claim_due_skips_what_another_claim_holds_and_takes_over_an_expired_one(
    store: MatchStore,
):
    due = await store.create_match(replace(pending_match(), challenge_expires_at=200.0))
    assert await store.claim_due(300.0, LEAD, until=310.0, limit=10) == [due.match_id]
    assert await store.claim_due(305.0, LEAD, until=320.0, limit=10) == []
    assert await store.claim_due(310.0, LEAD, until=320.0, limit=10) == [due.match_id]


async def test_an_expired_claim_is_due_even_without_an_alarm(store: MatchStore):
    created = await store.create_match(pending_match())
    await store.start_match(
        created.match_id, seed=1, first_player=0, started_at=110.0, turn_deadline=10_000.0
    )
    assert await store.claim(created.match_id, 0, until=130.0, now=120.0)  # an AI move
    assert await store.claim_due(125.0, LEAD, until=200.0, limit=10) == []
    assert await store.claim_due(131.0, LEAD, until=200.0, limit=10) == [created.match_id]


async def test_matches_not_open_are_never_due(store: MatchStore):
    declined = await store.create_match(pending_match())
    await store.close_challenge(declined.match_id, MatchStatus.DECLINED, 150.0)
    finished = await active_match(store)
    await store.finish_match(result_of(finished), None, version=0)
    assert await store.claim_due(10_000.0, LEAD, until=20_000.0, limit=10) == []


# -- the outbox and rematches ------------------------------------------------------------


async def test_announcements_wait_oldest_first_until_announced(store: MatchStore):
    first = await store.create_match(pending_match(), [announcement("challenge", 0)])
    second = await active_match(store)
    await store.append_decision(second, decision_row(1), [announcement("decision@1", second)])
    await store.close_challenge(
        first.match_id, MatchStatus.CANCELLED, 150.0, [announcement("cancelled", first.match_id)]
    )
    assert [(a.match_id, a.key) for a in await store.undelivered()] == [
        (first.match_id, "challenge"),
        (second, "decision@1"),
        (first.match_id, "cancelled"),
    ]
    await store.announced([(first.match_id, "challenge"), (first.match_id, "cancelled")])
    assert await store.undelivered() == [announcement("decision@1", second)]
    await store.announced([])
    await store.announced([(second, "no such key")])
    assert await store.undelivered() == [announcement("decision@1", second)]


async def test_an_announcement_written_again_replaces_the_first(store: MatchStore):
    match_id = await active_match(store)
    await store.set_reminded(match_id, 0, [announcement("k", match_id, body="old")])
    await store.append_decision(match_id, decision_row(1), [announcement("other", match_id)])
    await store.append_decision(
        match_id, decision_row(2), [announcement("k", match_id, body="new")]
    )
    assert await store.undelivered() == [
        announcement("other", match_id),
        announcement("k", match_id, body="new"),
    ]


async def test_announcements_of_no_match_wait_in_order_with_the_matches_ones(store: MatchStore):
    match_id = await active_match(store)
    await store.add_announcements([notice("season@5:1")])
    await store.append_decision(match_id, decision_row(1), [announcement("decision@1", match_id)])
    await store.add_announcements([notice("tournament@9:round@1"), announcement("x", match_id)])
    assert await store.undelivered() == [
        notice("season@5:1"),
        announcement("decision@1", match_id),
        notice("tournament@9:round@1"),
        announcement("x", match_id),
    ]
    assert await store.undelivered(match_id) == [
        announcement("decision@1", match_id),
        announcement("x", match_id),
    ]
    await store.announced([(None, "season@5:1"), (match_id, "x")])
    assert await store.undelivered() == [
        announcement("decision@1", match_id),
        notice("tournament@9:round@1"),
    ]
    # A match's key is not the same announcement as that key without a match.
    await store.announced([(None, "decision@1"), (match_id, "tournament@9:round@1")])
    assert len(await store.undelivered()) == 2


async def test_an_announcement_of_no_match_written_again_replaces_the_first(store: MatchStore):
    match_id = await active_match(store)
    await store.add_announcements([notice("season@5:1", body="old"), notice("other")])
    await store.set_reminded(match_id, 0, [announcement("season@5:1", match_id)])
    await store.add_announcements([notice("season@5:1", body="new")])
    assert await store.undelivered() == [
        notice("other"),
        announcement("season@5:1", match_id),  # the same key of a match is another one
        notice("season@5:1", body="new"),
    ]
    await store.add_announcements([])
    assert len(await store.undelivered()) == 3


async def test_rematch_presses_and_the_rematches_of_a_match(store: MatchStore):
    match_id = await active_match(store)
    await store.finish_match(result_of(match_id), None, version=0)
    await store.press_rematch(match_id, 2, 600.0)
    await store.press_rematch(match_id, 2, 601.0)
    assert await store.rematch_presses(match_id) == frozenset({2})
    await store.press_rematch(match_id, 1, 602.0)
    assert await store.rematch_presses(match_id) == frozenset({1, 2})

    first = await store.create_match(replace(pending_match(), rematch_of=match_id))
    second = await store.create_match(replace(pending_match(), rematch_of=match_id))
    assert [m.match_id for m in await store.rematches_of(match_id)] == [
        second.match_id,
        first.match_id,
    ]
    assert await store.rematches_of(first.match_id) == []


# -- results and ratings -----------------------------------------------------------------


async def finish_rated(store: MatchStore, winner: int, loser: int, *, at: float) -> int:
    """A rated match between two players of guild 5 won by ``winner``."""
    match_id = await active_match(store, player0=winner, player1=loser)
    result = result_of(match_id, players=(winner, loser), finished_at=at)
    await store.finish_match(
        result, None, lambda before: rate_finished_match(result, before), version=0
    )
    return match_id


async def test_a_player_ending_two_matches_at_once_is_rated_from_one_to_the_next(
    store: MatchStore,
):
    # Both endings read the standings under the guild's key: the second starts from the
    # first's result, never from the old rating.
    results = []
    for loser in (2, 3):
        match_id = await active_match(store, player0=1, player1=loser)
        results.append(result_of(match_id, players=(1, loser), finished_at=500.0 + loser))
    seen: list[int] = []

    def rater(result):
        def rate(before):
            seen.append(before[0].games)
            return rate_finished_match(result, before)

        return rate

    await asyncio.gather(*(store.finish_match(r, None, rater(r), version=0) for r in results))
    assert sorted(seen) == [0, 1]
    standing = await store.standing(5, 1)
    assert standing is not None and standing.games == 2 and standing.wins == 2


async def test_a_rated_match_writes_standings_and_rating_changes(store: MatchStore):
    match_id = await finish_rated(store, 1, 2, at=500.0)
    winner, loser = await store.standing(5, 1), await store.standing(5, 2)
    assert winner is not None and loser is not None
    assert (winner.games, winner.wins, winner.streak, winner.last_match_id) == (1, 1, 1, match_id)
    assert (loser.games, loser.losses, loser.streak) == (1, 1, -1)
    assert winner.rating.rating > 1500 > loser.rating.rating
    changes = await store.rating_changes(match_id)
    assert [(c.seat, c.user_id, c.score) for c in changes] == [(0, 1, 1.0), (1, 2, 0.0)]
    assert changes[0].after == winner.rating.rating
    assert await store.standing(5, 3) is None
    assert await store.standing(6, 1) is None


async def test_the_leaderboard_pages_through_players_with_enough_games(store: MatchStore):
    await finish_rated(store, 1, 2, at=500.0)
    await finish_rated(store, 1, 3, at=600.0)
    page = await store.leaderboard(5, min_games=1, offset=0, limit=2)
    assert [s.user_id for s in page.entries][:1] == [1]  # two wins
    assert (len(page.entries), page.offset, page.total) == (2, 0, 3)
    rest = await store.leaderboard(5, min_games=1, offset=2, limit=2)
    assert len(rest.entries) == 1 and rest.total == 3
    assert {s.user_id for s in page.entries + rest.entries} == {1, 2, 3}
    veterans = await store.leaderboard(5, min_games=2, offset=0, limit=10)
    assert [s.user_id for s in veterans.entries] == [1] and veterans.total == 1
    assert (await store.leaderboard(6, min_games=0, offset=0, limit=10)).total == 0


async def test_player_stats_count_rated_results_by_termination_and_the_ai_record(
    store: MatchStore,
):
    await finish_rated(store, 1, 2, at=500.0)
    await finish_rated(store, 2, 1, at=600.0)
    await finish_rated(store, 1, 3, at=700.0)
    ai_match = await store.create_match(
        replace(pending_match(1, AI_USER_ID), ai_level="easy", challenge_expires_at=None)
    )
    await store.start_match(
        ai_match.match_id, seed=1, first_player=0, started_at=110.0, turn_deadline=None
    )
    ai_result = replace(
        result_of(ai_match.match_id, players=(1, AI_USER_ID), finished_at=800.0), ai_level="easy"
    )
    await store.finish_match(ai_result, None, version=0)

    stats = await store.player_stats(5, 1)
    assert stats.standing == await store.standing(5, 1)
    assert stats.wins_by == {Termination.RESIGNATION: 2}
    assert stats.losses_by == {Termination.RESIGNATION: 1}
    assert (stats.ai_games, stats.ai_wins) == (1, 1)
    nobody = await store.player_stats(5, 99)
    assert nobody.standing == Standing(5, 99)
    assert (nobody.wins_by, nobody.losses_by, nobody.ai_games) == ({}, {}, 0)


async def test_finished_matches_newest_first_by_user_guild_and_time(store: MatchStore):
    ids = []
    for players, guild, at in [((1, 2), 5, 500.0), ((2, 3), 5, 600.0), ((1, 3), 6, 700.0)]:
        match_id = await active_match(store, player0=players[0], player1=players[1], guild_id=guild)
        await store.finish_match(
            result_of(match_id, players=players, guild_id=guild, finished_at=at), None, version=0
        )
        ids.append(match_id)

    def found(results):
        return [r.match_id for r in results]

    assert found(await store.finished_matches()) == ids[::-1]
    assert found(await store.finished_matches(user_id=1)) == [ids[2], ids[0]]
    assert found(await store.finished_matches(guild_id=5)) == [ids[1], ids[0]]
    assert found(await store.finished_matches(user_id=3, guild_id=5)) == [ids[1]]
    assert found(await store.finished_matches(before=700.0)) == [ids[1], ids[0]]
    assert found(await store.finished_matches(limit=1)) == [ids[2]]
    assert await store.finished_matches(user_id=42) == []


# -- settings ----------------------------------------------------------------------------


async def test_guild_settings_are_saved_whole_and_replaced(store: MatchStore):
    assert await store.guild_settings(5) is None
    full = GuildSettings(5, 90.0, ExpiryPolicy.FORFEIT, False, True, "fr")
    await store.save_guild_settings(full)
    assert await store.guild_settings(5) == full
    await store.save_guild_settings(GuildSettings(5, language="de"))
    assert await store.guild_settings(5) == GuildSettings(5, language="de")
    assert await store.guild_settings(6) is None


async def test_a_servers_lobby_channel_is_a_guild_setting(store: MatchStore):
    lobby = 1_234_567_890_123_456_789  # a snowflake: 64 bits
    await store.save_guild_settings(GuildSettings(5, language="es", lobby_channel_id=lobby))
    assert await store.guild_settings(5) == GuildSettings(5, language="es", lobby_channel_id=lobby)
    await store.save_guild_settings(GuildSettings(5, language="es"))
    saved = await store.guild_settings(5)
    assert saved is not None and saved.lobby_channel_id is None


async def test_user_settings_are_saved_and_replaced(store: MatchStore):
    assert await store.user_settings(1) is None
    await store.save_user_settings(UserSettings(1, dm_notifications=True))
    assert await store.user_settings(1) == UserSettings(1, dm_notifications=True)
    await store.save_user_settings(UserSettings(1))
    assert await store.user_settings(1) == UserSettings(1, dm_notifications=False)


async def test_sharing_reviews_is_a_user_setting_off_until_chosen(store: MatchStore):
    await store.save_user_settings(UserSettings(1, dm_notifications=True))
    assert await store.user_settings(1) == UserSettings(1, True, share_reviews=False)
    await store.save_user_settings(UserSettings(1, share_reviews=True))
    assert await store.user_settings(1) == UserSettings(1, False, share_reviews=True)
    await store.save_user_settings(UserSettings(1, dm_notifications=True))
    assert await store.user_settings(1) == UserSettings(1, True, share_reviews=False)


# -- hints and reviews -------------------------------------------------------------------


async def test_a_hint_match_keeps_its_flag_and_other_matches_have_none(store: MatchStore):
    ai = replace(pending_match(1, AI_USER_ID), status=MatchStatus.ACTIVE, ai_level="hard")
    hinted = await store.create_match(replace(ai, seed=7, first_player=0, hints=True))
    await store.create_match(replace(ai, seed=8, first_player=1))
    await active_match(store)  # a challenge between members, accepted
    assert hinted.hints and await store.get_match(hinted.match_id) == hinted
    assert [m.hints for m, _ in await store.open_matches()] == [True, False, False]
    assert [m.hints for m in await store.open_matches_of(1)] == [True, False, False]
    found = await store.match_since(hinted.match_id, 0)
    assert found is not None and found[0].hints


async def test_a_review_is_kept_and_a_second_save_replaces_it(store: MatchStore):
    match_id = await active_match(store)
    await store.finish_match(result_of(match_id), None, version=0)
    assert await store.review_of(match_id) is None
    await store.save_review(match_id, '{"format":1,"steps":[]}', 600.0)
    assert await store.review_of(match_id) == '{"format":1,"steps":[]}'
    await store.save_review(match_id, '{"format":2,"steps":[1]}', 700.0)
    assert await store.review_of(match_id) == '{"format":2,"steps":[1]}'
    assert await store.review_of(match_id + 1000) is None


async def test_reviews_of_two_matches_are_kept_apart(store: MatchStore):
    first, second = await active_match(store), await active_match(store)
    for match_id in (first, second):
        await store.finish_match(result_of(match_id), None, version=0)
    await asyncio.gather(
        store.save_review(first, '{"format":1,"for":"first"}', 600.0),
        store.save_review(second, '{"format":1,"for":"second"}', 600.0),
    )
    assert await store.review_of(first) == '{"format":1,"for":"first"}'
    assert await store.review_of(second) == '{"format":1,"for":"second"}'


async def test_exclusive_lets_one_holder_in_at_a_time(store: MatchStore):
    inside = 0
    most = 0

    async def hold(user: int) -> None:
        nonlocal inside, most
        async with store.exclusive("member:1"):
            inside += 1
            most = max(most, inside)
            await store.save_user_settings(UserSettings(user))  # holders write
            await asyncio.sleep(0.001)
            inside -= 1

    await asyncio.gather(*(hold(user) for user in range(12)))
    assert most == 1
    assert [await store.user_settings(u) for u in range(12)] == [UserSettings(u) for u in range(12)]


# -- PostgreSQL: several processes on one database ----------------------------------------


@contextlib.asynccontextmanager
async def processes(url: str, *origins: str) -> AsyncIterator[list[PostgresMatchStore]]:
    """One store per origin on ``url``, as if each were a bot process of its own."""
    stores = [PostgresMatchStore(url, origin=origin, max_size=4) for origin in origins]
    await asyncio.gather(*(s.open() for s in stores))  # they migrate at once too
    try:
        yield stores
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_postgres_racing_appends_from_two_processes_apply_one(postgres_url: str):
    async with processes(postgres_url, "a", "b") as (a, b):
        match_id = await active_match(a)
        decision = decision_row(1)
        writes = [
            (a if i % 2 else b).append_decision(
                match_id, decision, [announcement("decision@1", match_id)]
            )
            for i in range(50)
        ]
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        assert sum(o is None for o in outcomes) == 1
        assert all(isinstance(o, MatchConflict) for o in outcomes if o is not None)
        assert await b.decisions(match_id) == [decision]
        match = await b.get_match(match_id)
        assert match is not None and match.version == 1
        both = await a.undelivered() + await b.undelivered()
        assert both == [announcement("decision@1", match_id)]


async def test_postgres_fifty_joins_of_one_seat_from_two_processes_take_it_once(
    postgres_url: str,
):
    async with processes(postgres_url, "a", "b") as (a, b):
        seat = await a.create_match(pending_match(1, OPEN_SEAT))
        writes = [
            (a if joiner % 2 else b).start_match(
                seat.match_id,
                seed=joiner,
                first_player=0,
                started_at=110.0,
                turn_deadline=170.0,
                opponent_id=joiner,
            )
            for joiner in range(100, 150)
        ]
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        won = [100 + i for i, o in enumerate(outcomes) if o is None]
        assert len(won) == 1
        assert all(isinstance(o, MatchConflict) for o in outcomes if o is not None)
        taken = await b.get_match(seat.match_id)
        assert taken is not None and taken.players == (1, won[0]) and taken.seed == won[0]


async def test_postgres_exclusive_excludes_across_processes(postgres_url: str):
    async with processes(postgres_url, "a", "b") as (a, b):
        entered = asyncio.Event()
        async with a.exclusive("member:1"):
            waiting = asyncio.create_task(_enter(b, "member:1", entered))
            async with b.exclusive("member:2"):  # another key is free
                pass
            await until_waiting_or_in(postgres_url, entered)  # b is queued behind a
            assert not entered.is_set()
        await asyncio.wait_for(waiting, HANG_GUARD_SECONDS)
        assert entered.is_set()


async def until_waiting_or_in(url: str, entered: asyncio.Event) -> None:
    """Until a session waits for an advisory lock another holds (PostgreSQL says so), or
    the one that should wait got in."""
    conn = await asyncpg.connect(url)
    waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    try:
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            # Polled: PostgreSQL tells no one that a session started waiting.
            while not entered.is_set() and not await conn.fetchval(waiting):  # noqa: ASYNC110
                await asyncio.sleep(POLL_SECONDS)
    finally:
        await conn.close()


async def _enter(store: PostgresMatchStore, key: str, entered: asyncio.Event) -> None:
    async with store.exclusive(key):
        entered.set()


async def test_postgres_each_process_shows_its_own_announcements(postgres_url: str):
    async with processes(postgres_url, "shards 0-3", "shards 4-7") as (a, b):
        mine = await a.create_match(pending_match(), [announcement("challenge", 0)])
        theirs = await b.create_match(pending_match(), [announcement("challenge", 0)])
        assert await a.undelivered() == [announcement("challenge", mine.match_id)]
        assert await b.undelivered() == [announcement("challenge", theirs.match_id)]
        assert await a.undelivered(theirs.match_id) == []
        assert await b.undelivered(theirs.match_id) == [announcement("challenge", theirs.match_id)]
        await a.announced([(theirs.match_id, "challenge")])  # by any process
        assert await b.undelivered() == []
        await b.add_announcements([notice("season@5:1")])
        assert await a.undelivered() == [announcement("challenge", mine.match_id)]
        assert await b.undelivered() == [notice("season@5:1")]
        await a.announced([(None, "season@5:1")])
        assert await b.undelivered() == []


async def test_postgres_claim_due_by_two_processes_shares_the_work(postgres_url: str):
    async with processes(postgres_url, "a", "b") as (a, b):
        created = [await a.create_match(pending_match()) for _ in range(20)]
        got = await asyncio.gather(
            *(s.claim_due(500.0, LEAD, until=600.0, limit=20) for s in (a, b, a, b))
        )
        claimed = [match_id for ids in got for match_id in ids]
        assert sorted(claimed) == sorted(m.match_id for m in created)


async def test_postgres_processes_starting_at_once_migrate_once(postgres_url: str):
    async with processes(postgres_url, "a", "b", "c", "d") as stores:
        match = await stores[0].create_match(pending_match())
        assert await stores[3].get_match(match.match_id) == match
    conn = await asyncpg.connect(postgres_url)
    try:
        versions = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
    finally:
        await conn.close()
    assert [row["version"] for row in versions] == [
        m.version for m in load_migrations(POSTGRES_MIGRATIONS)
    ]


async def test_postgres_refuses_a_newer_schema_untouched(postgres_url: str):
    async with processes(postgres_url, "a"):
        pass
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (99, 'x')")
    finally:
        await conn.close()
    store = PostgresMatchStore(postgres_url)
    with pytest.raises(SchemaTooNew) as raised:
        await store.open()
    assert raised.value.found == 99


async def test_postgres_a_database_it_cannot_reach_is_named_without_its_password(
    postgres_url: str,
):
    host = postgres_url.partition("?")[2]
    url = f"postgresql://postgres:s3cret@/no_such_database?{host}"
    with pytest.raises(CannotOpenDatabase) as raised:
        await PostgresMatchStore(url).open()
    assert "s3cret" not in str(raised.value)
    assert "no_such_database" in str(raised.value) and "***" in str(raised.value)
    assert masked("postgresql://u:pw@h/db?password=pw2") == "postgresql://u:***@h/db?password=***"


def test_postgres_a_full_disk_is_storage_full():
    with pytest.raises(StorageFull) as raised, storage_errors("postgresql://u:pw@h/db"):
        raise asyncpg.DiskFullError("could not extend file")
    assert "pw" not in str(raised.value)


# -- a database that does not answer ---------------------------------------------------

QUICK = DatabaseTimeouts(
    command_seconds=0.3, acquire_seconds=0.3, connect_seconds=2.0, busy_seconds=0.3
)
"""Short bounds, so that a stall is given up on at once (the wait is the driver's)."""


@contextlib.asynccontextmanager
async def held_locked(store: MatchStore) -> AsyncIterator[None]:
    """Another connection holds the database (SQLite: its write lock; PostgreSQL: the
    matches table) until the block ends, as a backup, a migration or a stuck job would."""
    if isinstance(store, SqliteMatchStore):
        conn = sqlite3.connect(store.path, isolation_level=None, check_same_thread=False)
        await asyncio.to_thread(conn.execute, "BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
        return
    assert isinstance(store, PostgresMatchStore)
    other = await asyncpg.connect(store.url)
    try:
        async with other.transaction():
            await other.execute("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")
            yield
    finally:
        await other.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def quick_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MatchStore]:
    if request.param == "sqlite":
        opened: MatchStore = SqliteMatchStore(tmp_path / "store.sqlite3", timeouts=QUICK)
    else:
        url = request.getfixturevalue("postgres_url")
        opened = PostgresMatchStore(url, timeouts=QUICK)
    await opened.open()
    yield opened
    await opened.close()


async def test_a_write_the_database_holds_up_fails_in_time_and_writes_nothing(
    quick_store: MatchStore, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.INFO)
    match_id = await active_match(quick_store)
    async with held_locked(quick_store):
        for _ in range(3):  # tried again and again while it lasts
            with pytest.raises(DatabaseUnavailable) as raised:
                await quick_store.append_decision(match_id, decision_row(1))
            # It failed before its commit: nothing was written, and the error says so.
            assert not raised.value.outcome_unknown
            assert "nothing was written" in str(raised.value)
    match = await quick_store.get_match(match_id)
    assert match is not None and match.version == 0
    assert await quick_store.decisions(match_id) == []
    # The store recovers by itself: the same write goes through once the lock is gone.
    await quick_store.append_decision(match_id, decision_row(1))
    assert [row.seq for row in await quick_store.decisions(match_id)] == [1]
    told = [r for r in caplog.records if r.name == "engine.store.outage"]
    assert [r.levelno for r in told] == [logging.ERROR], caplog.text
    assert "not answering" in told[0].getMessage()
    assert not any(r.exc_info for r in caplog.records), caplog.text


async def test_a_stalled_database_is_told_once_down_and_once_up(
    quick_store: MatchStore, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("engine.store.outage.QUIET_SECONDS", 0.0)
    caplog.set_level(logging.INFO)
    match_id = await active_match(quick_store)
    async with held_locked(quick_store):
        failures = await asyncio.gather(
            *(quick_store.set_location(match_id, n, n) for n in range(1, 5)),
            return_exceptions=True,
        )
        assert all(isinstance(f, DatabaseUnavailable) for f in failures), failures
    await quick_store.set_location(match_id, 9, 9)
    await quick_store.set_location(match_id, 10, 10)
    told = [r.getMessage() for r in caplog.records if r.name == "engine.store.outage"]
    assert len(told) == 2 and "not answering" in told[0] and "answers again" in told[1], told
    assert not any(r.exc_info for r in caplog.records), caplog.text


def test_asyncpgs_floor_restore_traceback_is_left_to_the_outage_line(
    caplog: pytest.LogCaptureFixture,
):
    """While the server is away asyncpg logs a traceback each time it fails to reopen the
    pool's idle connections; the store's one "not answering" line says it instead. Other
    warnings of asyncpg's pool still get through."""
    quiet_floor_restore()
    quiet_floor_restore()  # a second store in the process adds no second filter
    pool_log = logging.getLogger("asyncpg.pool")
    try:
        raise ConnectionRefusedError(111, "Connection refused")
    except ConnectionRefusedError:
        pool_log.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
    pool_log.warning("Pool.close() is taking over 60 seconds to complete.")
    said = [r.getMessage() for r in caplog.records if r.name == "asyncpg.pool"]
    assert said == ["Pool.close() is taking over 60 seconds to complete."]
