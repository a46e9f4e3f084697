"""The group-commit writer: concurrent writes share commits, a bad write fails alone, a
write's prepare step sees the batch's earlier writes, a full disk refuses writes with one
line in the log."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from engine.model import FinishedMatch, MatchStatus
from engine.ratings import rate_finished_match
from engine.store.announcement import Announcement
from engine.store.errors import MatchConflict, StorageFull
from engine.store.sqlite.writer import GroupCommitWriter

from .conftest import active_match, decision_row, result_of
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


def noting_games(result: FinishedMatch, seen: list[int], *, fails: bool = False):
    """A rater that notes how many games the first seat had before, and maybe raises."""

    def rate(before):
        seen.append(before[0].games)
        if fails:
            raise RuntimeError(f"cannot rate match {result.match_id}")
        return rate_finished_match(result, before)

    return rate


async def test_endings_of_one_player_in_one_batch_are_rated_one_after_the_other(store):
    """The rating is read in the batch's transaction, after the batch's earlier writes: the
    second ending starts from the first's result, with no lock and no second commit."""
    endings = []
    for loser in (2, 3):
        match_id = await active_match(store, player0=1, player1=loser)
        endings.append(result_of(match_id, players=(1, loser), finished_at=500.0 + loser))
    seen: list[int] = []
    batches_before = store.batches

    await asyncio.gather(
        *(store.finish_match(r, None, noting_games(r, seen), version=0) for r in endings)
    )

    assert store.batches - batches_before == 1  # one commit for both
    assert seen == [0, 1]
    standing = await store.standing(5, 1)
    assert standing is not None and (standing.games, standing.wins) == (2, 2)
    assert [len(await store.rating_changes(r.match_id)) for r in endings] == [2, 2]


async def test_a_rater_that_raises_fails_its_own_ending_alone(store):
    endings = []
    for loser in (2, 3, 4):
        match_id = await active_match(store, player0=1, player1=loser)
        endings.append(result_of(match_id, players=(1, loser), finished_at=500.0 + loser))
    seen: list[int] = []
    batches_before = store.batches

    outcomes = await asyncio.gather(
        *(
            store.finish_match(r, None, noting_games(r, seen, fails=n == 1), version=0)
            for n, r in enumerate(endings)
        ),
        return_exceptions=True,
    )

    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], RuntimeError)
    assert str(outcomes[1]) == f"cannot rate match {endings[1].match_id}"
    assert store.batches - batches_before == 1  # the others' batch was not spoilt
    assert seen == [0, 1, 1]
    failed = await store.get_match(endings[1].match_id)
    assert failed is not None and failed.status is MatchStatus.ACTIVE  # nothing of it written
    assert await store.rating_changes(endings[1].match_id) == []
    assert await store.standing(5, 3) is None
    standing = await store.standing(5, 1)
    assert standing is not None and (standing.games, standing.wins) == (2, 2)


async def test_a_prepare_step_runs_again_when_its_batch_is_retried_one_by_one(store):
    """A bad write fails the batch; each write is then retried alone, prepare step too."""
    ending_id = await active_match(store, player0=1, player1=2)
    ending = result_of(ending_id, players=(1, 2))
    other = await active_match(store)
    seen: list[int] = []

    outcomes = await asyncio.gather(
        store.finish_match(ending, None, noting_games(ending, seen), version=0),
        store.append_decision(other, decision_row(5)),  # out of order: a conflict
        return_exceptions=True,
    )

    assert outcomes[0] is None
    assert isinstance(outcomes[1], MatchConflict)
    assert seen == [0, 0]  # in the failed batch, then alone
    standing = await store.standing(5, 1)
    assert standing is not None and standing.games == 1


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
