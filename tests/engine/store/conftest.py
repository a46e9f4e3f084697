"""Fixtures for the SQLite store: a fresh database file per test and rows to put in it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.model import DecisionRow, FinishedMatch, MatchInfo
from engine.store.announcement import Announcement
from engine.store.match_store import MatchStore
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore
from tests.builders import match_info, match_result


def pending_match(player0: int = 1, player1: int = 2, guild_id: int = 5) -> MatchInfo:
    return match_info(
        0,
        (player0, player1),
        guild_id=guild_id,
        channel_id=6,
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
    return match_result(
        match_id, players, guild_id=guild_id, started_at=110.0, finished_at=finished_at
    )


def notice(key: str, body: str = '{"kind":"test"}', at: float = 150.0) -> Announcement:
    """An announcement of no match (a server-level feature's: a podium, a round's pairings)."""
    return Announcement(None, key, body, created_at=at)


@pytest.fixture
async def store(tmp_path: Path):
    store = SqliteMatchStore(tmp_path / "store.sqlite3")
    await store.open()
    yield store
    await store.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def each_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MatchStore]:
    """Each store in turn, open on a fresh database: for the tests of the MatchStore contract."""
    if request.param == "sqlite":
        opened: MatchStore = SqliteMatchStore(tmp_path / "store.sqlite3")
    else:
        opened = PostgresMatchStore(request.getfixturevalue("postgres_url"))
    await opened.open()
    yield opened
    await opened.close()
