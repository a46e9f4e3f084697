"""What each table keeps: matches and their decision logs, results, rematch presses."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from engine.store import MatchStatus
from engine.store.sqlite import SqliteMatchStore

from .conftest import active_match, decision_row, pending_match, result_of


async def test_a_decision_is_appended_only_as_the_next_one(store):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))

    with pytest.raises(sqlite3.IntegrityError, match="out of order"):
        await store.append_decision(match_id, decision_row(1))
    with pytest.raises(sqlite3.IntegrityError, match="out of order"):
        await store.append_decision(match_id, decision_row(3))

    assert [d.seq for d in await store.decisions(match_id)] == [1]
    match = await store.get_match(match_id)
    assert (match.version, match.turn_deadline) == (1, 201.0)


async def test_open_matches_come_back_with_their_decisions_in_order(store):
    pending = await store.create_match(pending_match())
    active = await active_match(store)
    for seq in (1, 2, 3):
        await store.append_decision(active, decision_row(seq, seat=seq % 2))
    finished = await active_match(store)
    await store.finish_match(result_of(finished), decision_row(1))

    opened = {info.match_id: rows for info, rows in await store.open_matches()}

    assert set(opened) == {pending.match_id, active}
    assert [(r.seq, r.seat) for r in opened[active]] == [(1, 1), (2, 0), (3, 1)]


async def test_finishing_records_the_result_and_the_last_decision_together(store):
    match_id = await active_match(store)
    await store.finish_match(result_of(match_id), decision_row(1))

    match = await store.get_match(match_id)
    assert match.status is MatchStatus.FINISHED and match.version == 1
    result = await store.finished_match(match_id)
    assert result == result_of(match_id) and result.duration_seconds == 390.0


async def test_results_are_filtered_by_user_guild_and_time(store):
    ids = []
    for players, guild_id, at in [((1, 2), 5, 500.0), ((2, 3), 5, 600.0), ((3, 1), 7, 700.0)]:
        match_id = await active_match(
            store, player0=players[0], player1=players[1], guild_id=guild_id
        )
        await store.finish_match(
            result_of(match_id, players=players, guild_id=guild_id, finished_at=at), None
        )
        ids.append(match_id)

    assert [r.match_id for r in await store.finished_matches(user_id=1)] == [ids[2], ids[0]]
    assert [r.match_id for r in await store.finished_matches(guild_id=5)] == [ids[1], ids[0]]
    assert [r.match_id for r in await store.finished_matches(before=650.0)] == [ids[1], ids[0]]
    assert len(await store.finished_matches(limit=1)) == 1


async def test_results_must_belong_to_a_stored_match(store):
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await store.finish_match(result_of(12345), None)


async def test_the_in_memory_database_works_for_quick_tests():
    store = SqliteMatchStore(":memory:")
    await store.open()
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    assert len(await store.decisions(match_id)) == 1
    await store.close()


async def test_rematch_presses_are_kept_once_each_and_a_rematch_names_its_match(store):
    old = await active_match(store)
    await store.finish_match(result_of(old), None)
    await store.press_rematch(old, 2, 600.0)
    await store.press_rematch(old, 2, 601.0)
    await store.press_rematch(old, 1, 602.0)

    new = await store.create_match(replace(pending_match(), rematch_of=old))

    assert await store.rematch_presses(old) == {1, 2}
    assert [m.match_id for m in await store.rematches_of(old)] == [new.match_id]
    assert (await store.get_match(new.match_id)).rematch_of == old
