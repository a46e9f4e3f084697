"""What each table keeps: matches and their decision logs, results, rematch presses."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace

import pytest

from engine.model import MatchStatus
from engine.store.announcement import Announcement
from engine.store.errors import MatchConflict
from engine.store.sqlite import SqliteMatchStore

from .conftest import active_match, decision_row, pending_match, result_of


async def test_a_decision_is_appended_only_as_the_next_one(store):
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))

    with pytest.raises(MatchConflict, match="expected version 0 \\(active\\), found version 1"):
        await store.append_decision(match_id, decision_row(1))
    with pytest.raises(MatchConflict, match="expected version 2 \\(active\\), found version 1"):
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
    await store.finish_match(result_of(finished), decision_row(1), version=0)

    opened = {info.match_id: rows for info, rows in await store.open_matches()}

    assert set(opened) == {pending.match_id, active}
    assert [(r.seq, r.seat) for r in opened[active]] == [(1, 1), (2, 0), (3, 1)]


async def test_finishing_records_the_result_and_the_last_decision_together(store):
    match_id = await active_match(store)
    await store.finish_match(result_of(match_id), decision_row(1), version=0)

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
            result_of(match_id, players=players, guild_id=guild_id, finished_at=at), None, version=0
        )
        ids.append(match_id)

    assert [r.match_id for r in await store.finished_matches(user_id=1)] == [ids[2], ids[0]]
    assert [r.match_id for r in await store.finished_matches(guild_id=5)] == [ids[1], ids[0]]
    assert [r.match_id for r in await store.finished_matches(before=650.0)] == [ids[1], ids[0]]
    assert len(await store.finished_matches(limit=1)) == 1


async def test_results_must_belong_to_a_stored_match(store):
    with pytest.raises(MatchConflict, match="expected version 0 \\(active\\), found no match"):
        await store.finish_match(result_of(12345), None, version=0)
    # Other broken constraints stay what they are: no conflict, a bug.
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await store.press_rematch(12345, 1, 600.0)


async def test_the_in_memory_database_works_for_quick_tests():
    store = SqliteMatchStore(":memory:")
    await store.open()
    match_id = await active_match(store)
    await store.append_decision(match_id, decision_row(1))
    assert len(await store.decisions(match_id)) == 1
    await store.close()


async def test_rematch_presses_are_kept_once_each_and_a_rematch_names_its_match(store):
    old = await active_match(store)
    await store.finish_match(result_of(old), None, version=0)
    await store.press_rematch(old, 2, 600.0)
    await store.press_rematch(old, 2, 601.0)
    await store.press_rematch(old, 1, 602.0)

    new = await store.create_match(replace(pending_match(), rematch_of=old))

    assert await store.rematch_presses(old) == {1, 2}
    assert [m.match_id for m in await store.rematches_of(old)] == [new.match_id]
    assert (await store.get_match(new.match_id)).rematch_of == old


async def test_a_conflicting_write_in_a_busy_commit_fails_alone_and_stores_nothing(store):
    busy = [await active_match(store) for _ in range(30)]
    pending = (await store.create_match(pending_match())).match_id
    stale = await active_match(store)
    await store.append_decision(stale, decision_row(1))

    def said(match_id: int, key: str) -> list[Announcement]:
        return [Announcement(match_id, key, "{}", 0.0)]

    outcomes = await asyncio.gather(
        *(store.append_decision(m, decision_row(1), said(m, "decision@1")) for m in busy),
        store.append_decision(stale, decision_row(1), said(stale, "repeated")),
        store.finish_match(
            result_of(stale), None, announcements=said(stale, "stale-finish"), version=0
        ),
        store.set_reminded(stale, 0, said(stale, "stale-reminder")),
        store.start_match(stale, seed=1, first_player=0, started_at=1.0, turn_deadline=None),
        store.close_challenge(pending, MatchStatus.DECLINED, 120.0, said(pending, "declined")),
        store.close_challenge(pending, MatchStatus.CANCELLED, 121.0, said(pending, "cancelled")),
        return_exceptions=True,
    )

    assert outcomes[:30] == [None] * 30
    conflicts = outcomes[30:34] + outcomes[35:]
    assert all(isinstance(c, MatchConflict) for c in conflicts), conflicts
    assert [(c.expected, c.found) for c in conflicts] == [
        ("version 0 (active)", "version 1 (active)"),
        ("version 0 (active)", "version 1 (active)"),
        ("version 0 (active), not yet reminded", "version 1 (active)"),
        ("pending", "active"),
        ("pending", "declined"),
    ]
    assert outcomes[34] is None  # the first answer to the challenge wins
    assert {a.key for a in await store.undelivered()} == {"decision@1", "declined"}
    assert [len(await store.decisions(m)) for m in busy] == [1] * 30
    assert (await store.get_match(stale)).status is MatchStatus.ACTIVE


async def test_a_reminder_is_recorded_once_per_version(store):
    match_id = await active_match(store)
    await store.set_reminded(match_id, 0)
    with pytest.raises(MatchConflict, match="found version 0 \\(active\\), already reminded"):
        await store.set_reminded(match_id, 0)
    await store.append_decision(match_id, decision_row(1))
    await store.set_reminded(match_id, 1)
    assert (await store.get_match(match_id)).reminded_version == 1


async def test_two_claims_in_one_commit_cannot_both_win(store):
    match_id = await active_match(store)

    won = await asyncio.gather(
        *(store.claim(match_id, 0, until=300.0, now=200.0) for _ in range(5))
    )

    assert sorted(won) == [False, False, False, False, True]
    assert not await store.claim(match_id, 0, until=300.0, now=299.0)
    assert await store.claim(match_id, 0, until=400.0, now=300.0)  # the first one expired
    assert not await store.claim(match_id, 1, until=500.0, now=450.0)  # not that version


async def test_due_matches_are_claimed_oldest_alarm_first_and_skipped_while_held(store):
    challenge = (await store.create_match(pending_match())).match_id  # expires at 400
    turn = await active_match(store)  # deadline 170, reminder at 140 (half of 60 s)
    held = (await store.create_match(pending_match())).match_id
    await store.start_match(held, seed=1, first_player=0, started_at=110.0, turn_deadline=None)
    assert await store.claim(held, 0, until=450.0, now=100.0)  # no deadline: only the claim

    assert await store.claim_due(150.0, reminder_lead=45.0, until=1000.0, limit=10) == [turn]
    assert await store.claim_due(500.0, reminder_lead=45.0, until=1000.0, limit=10) == [
        challenge,
        held,  # its claim ran out at 450 and no write released it
    ]
    await store.set_reminded(turn, 0)  # releases the claim; the deadline is still due
    assert await store.claim_due(500.0, reminder_lead=45.0, until=1000.0, limit=1) == [turn]


async def test_exclusive_keys_are_held_one_at_a_time_and_then_forgotten(store):
    inside: list[str] = []

    async def hold(name: str) -> None:
        async with store.exclusive("member:42"):
            inside.append(f"{name} in")
            await asyncio.sleep(0)
            inside.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"), hold("c"))

    assert inside == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert not store._held and not store.shared
