"""The tournament part of the MatchStore contract, on SQLite and PostgreSQL alike: an
event's players, rounds and games kept, each round paired once, each table one match."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.rules.state import Variant
from engine.store.errors import DuplicateKey
from engine.store.match_store import MatchStore
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore
from engine.tournaments import Format, Result
from tests.engine.store.conftest import active_match

GUILD = 5


@pytest.fixture
def store(each_store: MatchStore) -> MatchStore:
    return each_store


def event(**changes: object) -> Tournament:
    base = Tournament(
        tournament_id=0,
        guild_id=GUILD,
        channel_id=6,
        organiser_id=1,
        name="Spring Swiss",
        format=Format.SWISS,
        status=TournamentStatus.REGISTERING,
        created_at=100.0,
        rounds=3,
        variant=Variant.THREE_ROUNDS,
        turn_seconds=120.0,
        max_players=16,
        starts_at=4000.0,
        rated=False,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


ROUND_1 = (
    TournamentGame(1, 1, 11, 13),
    TournamentGame(1, 2, 14, 12),
    TournamentGame(1, 3, 15, None),
)


async def running(store: MatchStore) -> int:
    """An event of five players (11–15), started, seeded in player order."""
    created = await store.create_tournament(event())
    tid = created.tournament_id
    for player in range(11, 16):
        await store.add_entry(tid, player, 200.0 + player)
    seeded = [TournamentEntry(p, 200.0 + p, seed=p - 10, rating=1600.0 - p) for p in range(11, 16)]
    await store.start_tournament(tid, seeded, 300.0)
    return tid


async def test_a_created_tournament_comes_back_with_a_new_id_and_its_settings(
    store: MatchStore,
) -> None:
    first = await store.create_tournament(event())
    second = await store.create_tournament(event(name="Knockout night", format=Format.KNOCKOUT))
    assert first.tournament_id != second.tournament_id
    assert first == replace(event(), tournament_id=first.tournament_id)
    assert await store.get_tournament(first.tournament_id) == first
    assert await store.get_tournament(second.tournament_id + 1000) is None
    await store.set_tournament_location(first.tournament_id, 77, 78)
    found = await store.get_tournament(first.tournament_id)
    assert found is not None and (found.thread_id, found.message_id) == (77, 78)
    assert await store.latest_tournament_in(GUILD) == second
    assert await store.latest_tournament_in(GUILD + 1) is None


async def test_a_player_joins_once_and_can_leave_before_the_start(
    store: MatchStore,
) -> None:
    tid = (await store.create_tournament(event())).tournament_id
    await store.add_entry(tid, 11, 201.0)
    await store.add_entry(tid, 12, 202.0)
    with pytest.raises(DuplicateKey, match="player 11 in tournament"):
        await store.add_entry(tid, 11, 203.0)
    assert [e.user_id for e in await store.tournament_entries(tid)] == [11, 12]
    await store.remove_entry(tid, 11)
    assert await store.tournament_entries(tid) == [TournamentEntry(12, 202.0)]


async def test_the_start_seeds_the_players_and_happens_once(
    store: MatchStore,
) -> None:
    tid = await running(store)
    found = await store.get_tournament(tid)
    assert found is not None
    assert (found.status, found.started_at) == (TournamentStatus.RUNNING, 300.0)
    entries = await store.tournament_entries(tid)
    assert [(e.user_id, e.seed, e.rating) for e in entries][:2] == [
        (11, 1, 1589.0),
        (12, 2, 1588.0),
    ]
    with pytest.raises(DuplicateKey):
        await store.start_tournament(tid, entries, 301.0)
    assert await store.open_tournaments() == [found]


async def test_a_start_leaves_out_who_it_does_not_list(store: MatchStore) -> None:
    tid = (await store.create_tournament(event())).tournament_id
    for player in (11, 12, 13):
        await store.add_entry(tid, player, 200.0)
    await store.start_tournament(tid, [TournamentEntry(12, 200.0, 1, 1500.0)], 300.0)
    assert [e.user_id for e in await store.tournament_entries(tid)] == [12]


async def test_a_round_is_paired_once_with_all_its_games(store: MatchStore) -> None:
    tid = await running(store)
    await store.pair_round(tid, 1, ROUND_1, 400.0)
    assert await store.tournament_games(tid) == list(ROUND_1)
    other = (TournamentGame(1, 1, 11, 12), TournamentGame(1, 2, 13, 14))
    with pytest.raises(DuplicateKey, match="round 1 of tournament"):
        await store.pair_round(tid, 1, other, 401.0)
    assert await store.tournament_games(tid) == list(ROUND_1)  # nothing of the second


async def test_two_processes_pairing_the_same_round_pair_it_once(
    store: MatchStore,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    tid = await running(store)
    # A second store on the same database: another process (SQLite: the same one, as
    # SQLite allows only one).
    if isinstance(store, PostgresMatchStore):
        other: MatchStore = PostgresMatchStore(store.url, origin="other")
        await other.open()
    else:
        assert isinstance(store, SqliteMatchStore)
        other = store
    try:
        mine = (TournamentGame(1, 1, 11, 12),)
        theirs = (TournamentGame(1, 1, 13, 14),)
        outcomes = await asyncio.gather(
            store.pair_round(tid, 1, mine, 400.0),
            other.pair_round(tid, 1, theirs, 400.0),
            return_exceptions=True,
        )
    finally:
        if other is not store:
            await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["DuplicateKey", "NoneType"]
    games = await store.tournament_games(tid)
    assert games in ([mine[0]], [theirs[0]])


async def test_a_table_keeps_its_first_match_and_result(store: MatchStore) -> None:
    tid = await running(store)
    await store.pair_round(tid, 1, ROUND_1, 400.0)
    match_id = await active_match(store, player0=11, player1=13)  # type: ignore[arg-type]
    later = await active_match(store, player0=11, player1=13)  # type: ignore[arg-type]
    await store.attach_match(tid, 1, 1, match_id)
    await store.attach_match(tid, 1, 1, later)  # the table has its match: nothing changes
    with pytest.raises(DuplicateKey):
        await store.attach_match(tid, 1, 2, match_id)  # one match, one table
    assert await store.tournament_game_of_match(match_id) == (
        tid,
        TournamentGame(1, 1, 11, 13, match_id=match_id),
    )
    assert await store.tournament_game_of_match(later) is None
    await store.record_game_result(tid, 1, 1, Result.SECOND_WON)
    await store.record_game_result(tid, 1, 1, Result.FIRST_WON)  # the first result stands
    [game, *_] = await store.tournament_games(tid)
    assert game == TournamentGame(1, 1, 11, 13, match_id=match_id, result=Result.SECOND_WON)


async def test_withdrawals_and_the_end_are_kept(store: MatchStore) -> None:
    tid = await running(store)
    await store.withdraw_entry(tid, 12, 500.0)
    await store.withdraw_entry(tid, 12, 600.0)  # the first counts
    withdrawn = {e.user_id: e.withdrawn_at for e in await store.tournament_entries(tid)}
    assert withdrawn[12] == 500.0 and withdrawn[11] is None
    assert await store.end_tournament(tid, TournamentStatus.FINISHED, 700.0)
    # Over is over: the second call changes nothing and says so.
    assert not await store.end_tournament(tid, TournamentStatus.CANCELLED, 800.0)
    found = await store.get_tournament(tid)
    assert found is not None
    assert (found.status, found.ended_at) == (TournamentStatus.FINISHED, 700.0)
    assert await store.open_tournaments() == []


async def test_news_written_with_the_outbox_is_never_left_for_the_legacy_read(
    store: MatchStore,
) -> None:
    # A round or an end committed now carries its news in the outbox: the marks a version
    # before the outbox read (unshown_rounds, ended_unshown) must not announce it again.
    tid = await running(store)
    await store.pair_round(tid, 1, ROUND_1, 400.0)
    await store.pair_round(tid, 2, (TournamentGame(2, 1, 11, 12),), 500.0)
    assert await store.unshown_rounds(tid) == []
    await store.end_tournament(tid, TournamentStatus.FINISHED, 700.0)
    assert await store.ended_unshown() == []


async def test_a_table_whose_match_never_started_is_freed_for_a_new_one(store: MatchStore) -> None:
    tid = await running(store)
    await store.pair_round(tid, 1, ROUND_1, 400.0)
    lost = await active_match(store, player0=11, player1=13)  # type: ignore[arg-type]
    other = await active_match(store, player0=11, player1=13)  # type: ignore[arg-type]
    await store.attach_match(tid, 1, 1, lost)
    await store.detach_match(tid, 1, 1, other)  # not the table's match: nothing changes
    assert await store.tournament_game_of_match(lost) is not None
    await store.detach_match(tid, 1, 1, lost)
    assert await store.tournament_game_of_match(lost) is None
    await store.attach_match(tid, 1, 1, other)
    assert await store.tournament_game_of_match(other) == (
        tid,
        TournamentGame(1, 1, 11, 13, match_id=other),
    )
