"""The alarm part of the MatchStore contract, on SQLite and PostgreSQL alike: every feature's
due things in one table, each claimed by one process and kept until its work is done, and
the season and tournament writes that commit their announcements and alarms with them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

from engine.model import TournamentEntry, TournamentGame, TournamentStatus
from engine.seasons import Season, SeasonLength
from engine.store.alarm import Alarm
from engine.store.errors import DuplicateKey
from engine.store.match_store import MatchStore
from engine.store.migration_files import load_migrations
from engine.store.postgres import PostgresMatchStore
from engine.store.postgres.connection import MIGRATIONS as POSTGRES_MIGRATIONS
from engine.store.sqlite import SqliteMatchStore
from tests.engine.store.conftest import notice
from tests.engine.store.test_contract import processes
from tests.engine.store.test_tournament_contract import ROUND_1, event, running

GUILD = 5
EVERYTHING = 10_000.0
"""A time by which every alarm of these tests is due."""


@pytest.fixture
def store(each_store: MatchStore) -> MatchStore:
    return each_store


def season(number: int = 1, *, ends_at: float | None = 1000.0) -> Season:
    return Season(GUILD, number, 100.0, ends_at, SeasonLength.MONTHLY)


async def all_due(store: MatchStore) -> list[Alarm]:
    """Every alarm set (all due by then), claimed for a moment to read them."""
    return await store.claim_due_alarms(EVERYTHING, EVERYTHING, limit=100)


# -- setting, claiming, releasing ------------------------------------------------------


async def test_an_alarm_is_claimed_once_it_is_due_earliest_first(store: MatchStore):
    assert await store.next_alarm_due() is None
    await store.set_alarms([Alarm("season-end", GUILD, 300.0), Alarm("tournament-start", 9, 200.0)])
    await store.set_alarms([Alarm("tournament-start", 8, 250.0, attempt=2)])
    assert await store.next_alarm_due() == 200.0
    assert await store.claim_due_alarms(199.0, 260.0, limit=10) == []
    assert await store.claim_due_alarms(260.0, 320.0, limit=10) == [
        Alarm("tournament-start", 9, 200.0),
        Alarm("tournament-start", 8, 250.0, attempt=2),
    ]
    # Those two are held until 320: the next due one comes, alone (the limit).
    await store.set_alarms([Alarm("season-end", 6, 305.0)])
    assert await store.claim_due_alarms(310.0, 370.0, limit=1) == [
        Alarm("season-end", GUILD, 300.0)
    ]


async def test_a_claimed_alarm_is_held_until_its_claim_runs_out(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0)])
    assert await store.claim_due_alarms(100.0, 160.0, limit=10) == [
        Alarm("season-end", GUILD, 100.0)
    ]
    assert await store.claim_due_alarms(159.0, 219.0, limit=10) == []  # held
    # Nothing to do until the claim runs out: a process whose work failed without a word
    # (or that waits on another's) does not poll in a loop.
    assert await store.next_alarm_due() == 160.0
    # The claim ran out (its process died): another takes it over.
    assert await store.claim_due_alarms(160.0, 220.0, limit=10) == [
        Alarm("season-end", GUILD, 100.0)
    ]


async def test_of_claims_made_at_once_exactly_one_gets_the_alarm(store: MatchStore):
    await store.set_alarms([Alarm("season-end", g, 100.0 + g) for g in range(10)])
    got = await asyncio.gather(*(store.claim_due_alarms(500.0, 560.0, 10) for _ in range(4)))
    claimed = [alarm.subject for alarms in got for alarm in alarms]
    assert sorted(claimed) == list(range(10))


async def test_a_released_alarm_is_gone(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0), Alarm("season-end", 6, 900.0)])
    [claimed] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    await store.release_alarm(claimed, 160.0)
    assert await store.next_alarm_due() == 900.0
    assert await all_due(store) == [Alarm("season-end", 6, 900.0)]


async def test_release_keeps_an_alarm_set_again_by_its_work(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0)])
    [claimed] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    # The work (ending the season) sets the next season's end, then releases its claim.
    await store.set_alarms([Alarm("season-end", GUILD, 2000.0)])
    await store.release_alarm(claimed, 160.0)
    assert await store.next_alarm_due() == 2000.0
    assert await all_due(store) == [Alarm("season-end", GUILD, 2000.0)]


async def test_release_keeps_an_alarm_another_process_took_over(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0)])
    [late] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    [taken] = await store.claim_due_alarms(170.0, 230.0, limit=10)  # the first claim ran out
    await store.release_alarm(late, 160.0)  # too late: not its claim any more
    assert await store.next_alarm_due() == 230.0
    await store.release_alarm(taken, 230.0)
    assert await store.next_alarm_due() is None


async def test_a_retried_alarm_comes_back_later_with_its_attempt_counted(store: MatchStore):
    await store.set_alarms([Alarm("tournament-advance", 9, 100.0)])
    [claimed] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    await store.retry_alarm(claimed, 160.0, 105.0)
    # Its claim is dropped: due at the retry's time, not when the claim would run out.
    assert await store.next_alarm_due() == 105.0
    assert await store.claim_due_alarms(104.0, 164.0, limit=10) == []
    [again] = await store.claim_due_alarms(105.0, 165.0, limit=10)
    assert again == Alarm("tournament-advance", 9, 105.0, attempt=1)
    await store.retry_alarm(again, 165.0, 115.0)
    assert await all_due(store) == [Alarm("tournament-advance", 9, 115.0, attempt=2)]


async def test_a_retry_of_a_claim_that_ran_out_leaves_the_new_holder_s_alarm(
    store: MatchStore,
):
    await store.set_alarms([Alarm("tournament-advance", 9, 100.0)])
    [late] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    [taken] = await store.claim_due_alarms(170.0, 230.0, limit=10)  # the first claim ran out
    await store.retry_alarm(late, 160.0, 175.0)  # too late: not its claim any more
    assert await store.next_alarm_due() == 230.0  # still the new holder's, not moved
    await store.retry_alarm(taken, 230.0, 240.0)
    assert await all_due(store) == [Alarm("tournament-advance", 9, 240.0, attempt=1)]


async def test_a_retry_leaves_an_alarm_set_again_meanwhile(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0)])
    [claimed] = await store.claim_due_alarms(100.0, 160.0, limit=10)
    await store.set_alarms([Alarm("season-end", GUILD, 2000.0)])
    await store.retry_alarm(claimed, 160.0, 110.0)
    assert await all_due(store) == [Alarm("season-end", GUILD, 2000.0)]


async def test_setting_a_claimed_alarm_again_drops_its_claim(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0)])
    await store.claim_due_alarms(100.0, 500.0, limit=10)
    await store.set_alarms([Alarm("season-end", GUILD, 120.0, attempt=3)])
    assert await store.next_alarm_due() == 120.0
    assert await store.claim_due_alarms(120.0, 180.0, limit=10) == [
        Alarm("season-end", GUILD, 120.0, attempt=3)
    ]


async def test_cleared_alarms_are_gone_and_others_stay(store: MatchStore):
    await store.set_alarms([Alarm("season-end", GUILD, 100.0), Alarm("season-end", 6, 200.0)])
    await store.clear_alarms([("season-end", GUILD), ("season-end", 99), ("other", GUILD)])
    await store.clear_alarms([])
    await store.set_alarms([])
    assert await all_due(store) == [Alarm("season-end", 6, 200.0)]


async def test_postgres_claims_by_two_processes_take_each_alarm_once(postgres_url: str):
    async with processes(postgres_url, "a", "b") as (a, b):
        await a.set_alarms([Alarm("tournament-start", t, 100.0 + t) for t in range(40)])
        got = await asyncio.gather(
            *(s.claim_due_alarms(500.0, 560.0, limit=15) for s in (a, b, a, b, a, b))
        )
        claimed = [alarm.subject for alarms in got for alarm in alarms]
        assert sorted(claimed) == list(range(40))
        assert await b.next_alarm_due() == 560.0


# -- the writes that commit announcements and alarms with them ------------------------


async def test_a_season_write_commits_its_announcements_and_alarms(store: MatchStore):
    await store.set_alarms([Alarm("season-podium", GUILD, 50.0)])
    await store.start_season(
        season(),
        announcements=[notice("season@5:1:started")],
        alarms=[Alarm("season-end", GUILD, 1000.0)],
        cleared_alarms=[("season-podium", GUILD)],
    )
    assert await store.undelivered() == [notice("season@5:1:started")]
    assert await store.next_alarm_due() == 1000.0

    await store.set_season_end(
        replace(season(), ends_at=1500.0), alarms=[Alarm("season-end", GUILD, 1500.0)]
    )
    assert await store.next_alarm_due() == 1500.0

    ended = replace(season(), ended_at=1500.0)
    await store.end_season(
        ended,
        [],
        season(2, ends_at=3000.0),
        announcements=[notice("season@5:1")],
        alarms=[Alarm("season-end", GUILD, 3000.0)],
    )
    assert await store.undelivered() == [notice("season@5:1:started"), notice("season@5:1")]
    assert await all_due(store) == [Alarm("season-end", GUILD, 3000.0)]


async def test_a_season_write_that_is_refused_or_too_late_commits_none_of_its_extras(
    store: MatchStore,
):
    await store.start_season(season())
    extras = {
        "announcements": [notice("season@5:2")],
        "alarms": [Alarm("season-end", GUILD, 5000.0)],
    }
    with pytest.raises(DuplicateKey):
        await store.start_season(season(2), **extras)  # one runs already
    ended = replace(season(), ended_at=900.0)
    await store.end_season(ended, [], None)
    # Too late: the season ended meanwhile (another process, or this one before a restart).
    await store.set_season_end(replace(season(), ends_at=5000.0), **extras)
    await store.end_season(replace(season(), ended_at=950.0), [], season(2), **extras)
    assert await store.season(GUILD, 1) == ended
    assert await store.running_season(GUILD) is None
    assert await store.undelivered() == []
    assert await store.next_alarm_due() is None


async def test_a_new_tournaments_start_alarm_gets_its_id(store: MatchStore):
    await store.create_tournament(event())
    created = await store.create_tournament(
        event(),
        announcements=[notice("tournament:created")],
        alarms=[Alarm("tournament-start", 0, 4000.0), Alarm("season-end", GUILD, 9000.0)],
    )
    assert await all_due(store) == [
        Alarm("tournament-start", created.tournament_id, 4000.0),
        Alarm("season-end", GUILD, 9000.0),
    ]
    assert await store.undelivered() == [notice("tournament:created")]


async def test_tournament_writes_commit_their_announcements_and_alarms(store: MatchStore):
    tid = (await store.create_tournament(event())).tournament_id
    await store.add_entry(tid, 11, 200.0)
    await store.add_entry(tid, 12, 201.0)
    await store.start_tournament(
        tid,
        [TournamentEntry(11, 200.0, 1, 1500.0), TournamentEntry(12, 201.0, 2, 1500.0)],
        300.0,
        announcements=[notice(f"tournament@{tid}:started")],
        cleared_alarms=[("tournament-start", tid)],
        alarms=[Alarm("tournament-advance", tid, 300.0)],
    )
    await store.pair_round(
        tid,
        1,
        (TournamentGame(1, 1, 11, 12),),
        400.0,
        announcements=[notice(f"tournament@{tid}:round@1")],
        cleared_alarms=[("tournament-advance", tid)],
    )
    await store.withdraw_entry(
        tid, 12, 450.0, announcements=[notice(f"tournament@{tid}:withdrawn@12")]
    )
    assert await store.end_tournament(
        tid,
        TournamentStatus.FINISHED,
        500.0,
        announcements=[notice(f"tournament@{tid}:end")],
        alarms=[Alarm("tournament-advance", tid, 600.0)],
    )
    assert [a.key for a in await store.undelivered()] == [
        f"tournament@{tid}:started",
        f"tournament@{tid}:round@1",
        f"tournament@{tid}:withdrawn@12",
        f"tournament@{tid}:end",
    ]
    assert await all_due(store) == [Alarm("tournament-advance", tid, 600.0)]


async def test_tournament_writes_that_change_nothing_commit_none_of_their_extras(
    store: MatchStore,
):
    tid = await running(store)
    await store.pair_round(tid, 1, ROUND_1, 400.0)
    await store.withdraw_entry(tid, 12, 450.0)
    assert await store.end_tournament(tid, TournamentStatus.FINISHED, 500.0)
    extras = {
        "announcements": [notice(f"tournament@{tid}:again")],
        "alarms": [Alarm("tournament-advance", tid, 600.0)],
    }
    with pytest.raises(DuplicateKey):
        await store.pair_round(tid, 1, (TournamentGame(1, 1, 11, 12),), 401.0, **extras)
    with pytest.raises(DuplicateKey):
        await store.start_tournament(tid, [], 402.0, **extras)
    await store.withdraw_entry(tid, 12, 460.0, **extras)  # withdrawn already
    assert not await store.end_tournament(tid, TournamentStatus.CANCELLED, 700.0, **extras)
    assert await store.undelivered() == []
    assert await store.next_alarm_due() is None
    assert await store.tournament_games(tid) == list(ROUND_1)


async def test_of_two_processes_starting_an_event_at_once_one_starts_it(store: MatchStore):
    tid = (await store.create_tournament(event())).tournament_id
    await store.add_entry(tid, 11, 200.0)
    # A second store on the same database: another process (SQLite: the same one, as
    # SQLite allows only one).
    other = store
    if isinstance(store, PostgresMatchStore):
        other = PostgresMatchStore(store.url, origin=store.origin)
        await other.open()
    try:
        outcomes = await asyncio.gather(
            *(
                starter.start_tournament(
                    tid,
                    [TournamentEntry(11, 200.0, 1, 1500.0)],
                    300.0 + n,
                    announcements=[notice(f"tournament@{tid}:started", body=str(n))],
                    alarms=[Alarm("tournament-advance", tid, 300.0 + n)],
                )
                for n, starter in enumerate((store, other, store, other))
            ),
            return_exceptions=True,
        )
    finally:
        if other is not store:
            await other.close()
    [won] = [n for n, outcome in enumerate(outcomes) if outcome is None]
    assert all(isinstance(o, DuplicateKey) for o in outcomes if o is not None)
    started = await store.get_tournament(tid)
    assert started is not None and started.started_at == 300.0 + won
    assert await store.undelivered() == [notice(f"tournament@{tid}:started", body=str(won))]
    assert await all_due(store) == [Alarm("tournament-advance", tid, 300.0 + won)]


# -- a database from before the alarm table ---------------------------------------------

# Pending work of each kind, in the tables of the version before (SQLite 15, PostgreSQL 10).
_OLD_ROWS = [
    # Server 5: season 1 ended, its podium never shown; season 2 running, ending at 3000.
    "INSERT INTO seasons (guild_id, number, length, started_at, ends_at, ended_at, podium_shown)"
    " VALUES (5, 1, 'monthly', 100, 1000, 1000, FALSE), (5, 2, 'monthly', 1000, 3000, NULL, FALSE)",
    # Server 6: its season ended and was shown; nothing pending.
    "INSERT INTO seasons (guild_id, number, length, started_at, ends_at, ended_at, podium_shown)"
    " VALUES (6, 1, 'monthly', 100, 1000, 1000, TRUE)",
    # Event 1 finished, its end never shown; 2 running with round 1 never posted; 3 shown
    # and over; 4 registering, starting at 4000.
    "INSERT INTO tournaments (id, guild_id, channel_id, organiser_id, name, format, status,"
    " created_at, starts_at, end_shown_at) VALUES"
    " (1, 5, 6, 1, 'a', 'swiss', 'finished', 100, NULL, NULL),"
    " (2, 5, 6, 1, 'b', 'swiss', 'running', 100, NULL, NULL),"
    " (3, 5, 6, 1, 'c', 'swiss', 'cancelled', 100, NULL, 200),"
    " (4, 5, 6, 1, 'd', 'swiss', 'registering', 100, 4000, NULL)",
    "INSERT INTO tournament_rounds (tournament_id, round, paired_at, shown_at)"
    " VALUES (2, 1, 300, NULL), (3, 1, 150, 160)",
]

_PENDING = [
    Alarm("season-podium", 5, 0.0),
    Alarm("tournament-unshown", 1, 0.0),
    Alarm("tournament-unshown", 2, 0.0),
    Alarm("season-end", 5, 3000.0),
    Alarm("tournament-start", 4, 4000.0),
]


async def _old_sqlite_database(path: Path) -> None:
    old = [m for m in load_migrations() if m.version <= 15]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(m.sql for m in old) + "\nPRAGMA user_version = 15;")
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, turn_seconds,"
            " expiry_policy, created_at) VALUES (7, 'pending', 'standard', 1, 2, 60, 'ai', 100)"
        )
        conn.execute(
            "INSERT INTO announcements (id, match_id, key, body, created_at)"
            " VALUES (3, 7, 'challenge', '{}', 100)"
        )
        for statement in _OLD_ROWS:
            conn.execute(statement)
    conn.close()


async def _old_postgres_database(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for migration in load_migrations(POSTGRES_MIGRATIONS)[:10]:
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
        await conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, turn_seconds,"
            " expiry_policy, created_at) VALUES (7, 'pending', 'standard', 1, 2, 60, 'ai', 100)"
        )
        await conn.execute(
            "INSERT INTO announcements (match_id, key, body, created_at, origin)"
            " VALUES (7, 'challenge', '{}', 100, 'main')"
        )
        for statement in _OLD_ROWS:
            await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def upgraded(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MatchStore]:
    """A store opened on a database of the version before the alarm table, with pending
    work of each kind in it (:data:`_OLD_ROWS`)."""
    if request.param == "sqlite":
        await _old_sqlite_database(tmp_path / "old.sqlite3")
        opened: MatchStore = SqliteMatchStore(tmp_path / "old.sqlite3")
    else:
        url = request.getfixturevalue("postgres_url")
        await _old_postgres_database(url)
        opened = PostgresMatchStore(url)
    await opened.open()
    yield opened
    await opened.close()


async def test_an_upgraded_database_keeps_its_pending_work_as_alarms(upgraded: MatchStore):
    assert await upgraded.next_alarm_due() == 0.0
    assert await all_due(upgraded) == _PENDING
    # The outbox kept what it held, and takes announcements of no match from now on.
    await upgraded.add_announcements([notice("season@5:1")])
    assert [(a.match_id, a.key) for a in await upgraded.undelivered()] == [
        (7, "challenge"),
        (None, "season@5:1"),
    ]
