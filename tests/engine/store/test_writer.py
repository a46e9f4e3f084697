"""The group-commit writer: concurrent writes share commits, a bad write fails alone."""

from __future__ import annotations

import asyncio
import sqlite3

from .conftest import active_match, decision_row


async def test_concurrent_appends_share_commits(store):
    match_ids = [await active_match(store) for _ in range(200)]
    batches_before = store.batches

    await asyncio.gather(*(store.append_decision(m, decision_row(1)) for m in match_ids))

    assert store.batches - batches_before < 20  # grouped, not one commit per append
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
    assert isinstance(results[20], sqlite3.IntegrityError)
    for match_id in match_ids:
        assert len(await store.decisions(match_id)) == 1
