"""The group-commit writer: concurrent writes share commits, a bad write fails alone, a
full disk refuses writes with one line in the log."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from engine.store.errors import MatchConflict, StorageFull
from engine.store.rows import Announcement
from engine.store.sqlite.writer import GroupCommitWriter

from .conftest import active_match, decision_row
from .disk_space import connection_of, fill_the_disk, make_room

WRITER_LOG = "engine.store.sqlite.writer"


async def test_concurrent_appends_share_commits(store):
    match_ids = [await active_match(store) for _ in range(200)]
    batches_before = store.batches

    await asyncio.gather(*(store.append_decision(m, decision_row(1)) for m in match_ids))

    assert store.batches - batches_before < 20  # grouped, not one commit per append
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1


async def test_appends_with_their_announcements_share_commits_and_keep_both(store):
    """Each append carries its outbox row; the rows of a batch go in after its appends, so
    the appends still share one statement and every announcement lands with its decision."""
    match_ids = [await active_match(store) for _ in range(100)]
    batches_before = store.batches

    await asyncio.gather(
        *(
            store.append_decision(
                m, decision_row(1), [Announcement(m, "decision@1", '{"kind": "x"}', 0.0)]
            )
            for m in match_ids
        )
    )

    assert store.batches - batches_before < 20
    stored = {(a.match_id, a.key) for a in await store.undelivered()}
    assert {(m, "decision@1") for m in match_ids} <= stored
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1


async def test_a_bad_write_in_a_shared_commit_fails_alone(store):
    match_ids = [await active_match(store) for _ in range(20)]

    results = await asyncio.gather(
        *(store.append_decision(m, decision_row(1)) for m in match_ids),
        store.append_decision(match_ids[0], decision_row(5)),
        return_exceptions=True,
    )

    assert results[:20] == [None] * 20
    assert isinstance(results[20], MatchConflict)
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1


def room_taker(n: int) -> list[tuple[str, dict[str, int]]]:
    """A write that needs a page of its own (the filler table of ``fill_the_disk``)."""
    return [("INSERT INTO disk_filler VALUES (zeroblob(:size))", {"size": 5000 + n})]


@pytest.fixture
def short_quiet(monkeypatch):
    """The full state ends at the first commit this long after the last refused write."""
    monkeypatch.setattr("engine.store.sqlite.writer.SPACE_AGAIN_QUIET_SECONDS", 0.2)
    return 0.2


async def test_a_full_disk_refuses_writes_with_one_line_in_the_log(store, caplog, short_quiet):
    caplog.set_level(logging.INFO, logger=WRITER_LOG)
    await fill_the_disk(store)
    writer = GroupCommitWriter(connection_of(store))

    refusals = await asyncio.gather(
        *(writer.write(room_taker(n)) for n in range(20)), return_exceptions=True
    )
    for n in range(20, 30):  # one by one, as clicks arrive
        with pytest.raises(StorageFull):
            await writer.write(room_taker(n))

    assert all(isinstance(error, StorageFull) for error in refusals), refusals
    assert [r.getMessage() for r in caplog.records] == [
        f"the disk is full: moves are refused until there is space (database {store.path})"
    ]
    assert caplog.records[0].levelno == logging.ERROR
    assert not caplog.records[0].exc_info  # plainly said, no traceback

    caplog.clear()
    await make_room(store)
    await asyncio.sleep(short_quiet)
    await writer.write(room_taker(0))
    await writer.write(room_taker(1))
    assert [r.getMessage() for r in caplog.records] == [
        f"the disk has space again: moves are accepted (database {store.path})"
    ]


async def test_small_writes_between_refused_ones_do_not_make_the_log_flap(
    store, caplog, short_quiet
):
    caplog.set_level(logging.INFO, logger=WRITER_LOG)
    await fill_the_disk(store)
    writer = GroupCommitWriter(connection_of(store))
    fits = [("DELETE FROM disk_filler WHERE rowid = :rowid", {"rowid": -1})]

    for n in range(5):  # still at the edge: a write that needs no room goes through
        with pytest.raises(StorageFull):
            await writer.write(room_taker(n))
        await writer.write(fits)

    assert ["disk is full" in r.getMessage() for r in caplog.records] == [True]


async def test_a_store_write_on_a_full_disk_is_storage_full_and_nothing_is_written(store):
    match_id = await active_match(store)
    await fill_the_disk(store)
    written = 0
    with pytest.raises(StorageFull) as refused:
        for seq in range(1, 2000):  # the table's last page fills, then the disk is full
            await store.append_decision(match_id, decision_row(seq, text="1A" * 100))
            written += 1

    assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
    assert refused.value.path == store.path
    assert len(await store.decisions(match_id)) == written
    await make_room(store)
    await store.append_decision(match_id, decision_row(written + 1))
    assert len(await store.decisions(match_id)) == written + 1
