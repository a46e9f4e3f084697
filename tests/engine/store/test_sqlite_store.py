"""The SQLite store: migrations, refusing bad databases untouched, group commit, ordering."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from engine.rules.outcome import Termination
from engine.rules.state import Variant
from engine.store import (
    CorruptDatabase,
    DecisionRow,
    ExpiryPolicy,
    FinishedMatch,
    MatchInfo,
    MatchStatus,
    SchemaTooNew,
    SqliteMatchStore,
)
from engine.store.migration_files import latest_version


def _pending(player0: int = 1, player1: int = 2, guild_id: int = 5) -> MatchInfo:
    return MatchInfo(
        match_id=0,
        status=MatchStatus.PENDING,
        variant=Variant.STANDARD,
        players=(player0, player1),
        guild_id=guild_id,
        channel_id=6,
        turn_seconds=60.0,
        expiry_policy=ExpiryPolicy.AI,
        created_at=100.0,
        challenge_expires_at=400.0,
    )


async def _active(store: SqliteMatchStore, **kwargs: int) -> int:
    match = await store.create_match(_pending(**kwargs))
    await store.start_match(
        match.match_id, seed=42, first_player=1, started_at=110.0, turn_deadline=170.0
    )
    return match.match_id


def _row(seq: int, seat: int = 0, text: str = "1A") -> DecisionRow:
    return DecisionRow(seq, seat, text, 100.0 + seq, next_deadline=200.0 + seq)


def _result(match_id: int, *, players=(1, 2), guild_id=5, finished_at=500.0) -> FinishedMatch:
    return FinishedMatch(
        match_id=match_id,
        guild_id=guild_id,
        variant=Variant.STANDARD,
        players=players,
        ai_level=None,
        winner_seat=0,
        winner_id=players[0],
        reason=Termination.RESIGNATION,
        rounds=1,
        started_at=110.0,
        finished_at=finished_at,
        record='{"format":1}',
    )


@pytest.fixture
async def store(tmp_path: Path):
    store = SqliteMatchStore(tmp_path / "store.sqlite3")
    await store.open()
    yield store
    await store.close()


async def test_a_new_database_is_migrated_to_the_latest_version_in_wal_mode(tmp_path):
    path = tmp_path / "fresh.sqlite3"
    store = SqliteMatchStore(path)
    await store.open()
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_keeps_the_data_and_applies_no_migration_twice(tmp_path):
    path = tmp_path / "again.sqlite3"
    first = SqliteMatchStore(path)
    await first.open()
    match_id = await _active(first)
    await first.close()
    second = SqliteMatchStore(path)
    await second.open()
    assert (await second.get_match(match_id)).status is MatchStatus.ACTIVE
    assert (await second.create_match(_pending())).match_id == match_id + 1
    await second.close()


async def test_a_newer_schema_stops_start_up_and_leaves_the_file_untouched(tmp_path):
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()

    latest = latest_version()
    with pytest.raises(SchemaTooNew, match=rf"schema version 99.*knows only up to {latest}"):
        await SqliteMatchStore(path).open()

    assert path.read_bytes() == before


@pytest.mark.parametrize("damage", ["garbage", "torn-page"])
async def test_a_corrupt_database_stops_start_up_and_leaves_the_file_untouched(tmp_path, damage):
    path = tmp_path / "corrupt.sqlite3"
    if damage == "garbage":
        path.write_bytes(b"this is not a database, just a text file " * 200)
    else:
        store = SqliteMatchStore(path)
        await store.open()
        for _ in range(50):
            await _active(store)
        await store.close()
        data = bytearray(path.read_bytes())
        page = 4096
        data[2 * page : 3 * page] = b"\xa5" * page  # overwrite a b-tree page
        path.write_bytes(bytes(data))
    before = path.read_bytes()

    with pytest.raises(CorruptDatabase, match="corrupt or not a SQLite database"):
        await SqliteMatchStore(path).open()

    assert path.read_bytes() == before


async def test_a_decision_is_appended_only_as_the_next_one(store):
    match_id = await _active(store)
    await store.append_decision(match_id, _row(1))

    with pytest.raises(sqlite3.IntegrityError, match="out of order"):
        await store.append_decision(match_id, _row(1))
    with pytest.raises(sqlite3.IntegrityError, match="out of order"):
        await store.append_decision(match_id, _row(3))

    assert [d.seq for d in await store.decisions(match_id)] == [1]
    match = await store.get_match(match_id)
    assert (match.version, match.turn_deadline) == (1, 201.0)


async def test_concurrent_appends_share_commits(store):
    match_ids = [await _active(store) for _ in range(200)]
    batches_before = store.batches

    await asyncio.gather(*(store.append_decision(m, _row(1)) for m in match_ids))

    assert store.batches - batches_before < 20  # grouped, not one commit per append
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1


async def test_a_bad_write_in_a_shared_commit_fails_alone(store):
    match_ids = [await _active(store) for _ in range(20)]

    results = await asyncio.gather(
        *(store.append_decision(m, _row(1)) for m in match_ids),
        store.append_decision(match_ids[0], _row(5)),
        return_exceptions=True,
    )

    assert results[:20] == [None] * 20
    assert isinstance(results[20], sqlite3.IntegrityError)
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1


async def test_open_matches_come_back_with_their_decisions_in_order(store):
    pending = await store.create_match(_pending())
    active = await _active(store)
    for seq in (1, 2, 3):
        await store.append_decision(active, _row(seq, seat=seq % 2))
    finished = await _active(store)
    await store.finish_match(_result(finished), _row(1))

    opened = {info.match_id: rows for info, rows in await store.open_matches()}

    assert set(opened) == {pending.match_id, active}
    assert [(r.seq, r.seat) for r in opened[active]] == [(1, 1), (2, 0), (3, 1)]


async def test_finishing_records_the_result_and_the_last_decision_together(store):
    match_id = await _active(store)
    await store.finish_match(_result(match_id), _row(1))

    match = await store.get_match(match_id)
    assert match.status is MatchStatus.FINISHED and match.version == 1
    result = await store.finished_match(match_id)
    assert result == _result(match_id) and result.duration_seconds == 390.0


async def test_results_are_filtered_by_user_guild_and_time(store):
    ids = []
    for players, guild_id, at in [((1, 2), 5, 500.0), ((2, 3), 5, 600.0), ((3, 1), 7, 700.0)]:
        match_id = await _active(store, player0=players[0], player1=players[1], guild_id=guild_id)
        await store.finish_match(
            _result(match_id, players=players, guild_id=guild_id, finished_at=at), None
        )
        ids.append(match_id)

    assert [r.match_id for r in await store.finished_matches(user_id=1)] == [ids[2], ids[0]]
    assert [r.match_id for r in await store.finished_matches(guild_id=5)] == [ids[1], ids[0]]
    assert [r.match_id for r in await store.finished_matches(before=650.0)] == [ids[1], ids[0]]
    assert len(await store.finished_matches(limit=1)) == 1


async def test_results_must_belong_to_a_stored_match(store):
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await store.finish_match(_result(12345), None)


async def test_the_in_memory_database_works_for_quick_tests():
    store = SqliteMatchStore(":memory:")
    await store.open()
    match_id = await _active(store)
    await store.append_decision(match_id, _row(1))
    assert len(await store.decisions(match_id)) == 1
    await store.close()
