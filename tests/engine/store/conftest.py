"""Fixtures for the SQLite store: a fresh database file per test and rows to put in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.outcome import Termination
from engine.rules.state import Variant
from engine.store import (
    DecisionRow,
    ExpiryPolicy,
    FinishedMatch,
    MatchInfo,
    MatchStatus,
)
from engine.store.sqlite import SqliteMatchStore


def pending_match(player0: int = 1, player1: int = 2, guild_id: int = 5) -> MatchInfo:
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


async def active_match(store: SqliteMatchStore, **kwargs: int) -> int:
    match = await store.create_match(pending_match(**kwargs))
    await store.start_match(
        match.match_id, seed=42, first_player=1, started_at=110.0, turn_deadline=170.0
    )
    return match.match_id


def decision_row(seq: int, seat: int = 0, text: str = "1A") -> DecisionRow:
    return DecisionRow(seq, seat, text, 100.0 + seq, next_deadline=200.0 + seq)


def result_of(match_id: int, *, players=(1, 2), guild_id=5, finished_at=500.0) -> FinishedMatch:
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
