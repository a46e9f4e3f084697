"""Seasons through the match service: started and ended by hand or by their length, the
end fired once (also across a restart at the boundary, and by one of two processes), its
podium a :class:`SeasonEnded` on the bus kept in the outbox until shown, standings that
start anew."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from engine.model import GuildSettings, SeasonLength
from engine.ratings import rate_finished_match
from engine.seasons import Season, SeasonEnded
from engine.service import (
    ManualClock,
    MatchService,
    NoSeasonRunning,
    SeasonAlreadyRunning,
    SeasonNotFound,
    ServiceConfig,
)
from engine.service.seasons.service import SEASON_END, SEASON_PODIUM
from engine.store.alarm import Alarm
from engine.store.errors import StorageFull
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore
from tests.builders import match_info, match_result
from tests.engine.service.conftest import START, Recorder, ServiceFactory, new_match

GUILD = 1  # new_match's server
CHANNEL = 77
SEASON = 600.0  # the test-only length of a season with a length


def podiums(recorder: Recorder) -> list[int]:
    """The numbers of the seasons whose end the subscriber heard, in order."""
    return [ended.season.number for ended in recorder.of(SeasonEnded)]


async def with_length(
    service: MatchService, length: SeasonLength = SeasonLength.MONTHLY, guild: int = GUILD
) -> Season | None:
    settings = await service.settings.guild_settings(guild)
    await service.settings.set_guild_settings(
        replace(settings, season_length=length, season_channel_id=CHANNEL)
    )
    return await service.seasons.follow_length(guild)


async def win(service: MatchService, winner: int, loser: int) -> None:
    match = await new_match(service, winner, loser)
    await service.commands.resign(match.match_id, loser)
    await service.wait_idle()


async def undelivered_podiums(service: MatchService) -> list[str]:
    """The season announcements still waiting in the outbox to be shown."""
    return [row.key for row in await service.store.undelivered() if row.key.startswith("season@")]


async def test_a_season_started_and_ended_by_hand_is_announced_once(
    make_service: ServiceFactory,
):
    heard = Recorder()
    service = await make_service(recorder=heard)
    season = await service.seasons.start(GUILD)
    assert (season.number, season.ends_at) == (1, None)  # no length: it ends by hand
    with pytest.raises(SeasonAlreadyRunning, match="season 1 is already running"):
        await service.seasons.start(GUILD)

    ended = await service.seasons.end(GUILD)
    await service.wait_idle()

    assert ended.next_season is None and ended.season.ended_at is not None
    with pytest.raises(NoSeasonRunning, match="no season is running in server 1"):
        await service.seasons.end(GUILD)
    # Nowhere to announce it (no channel named): subscribers hear the fact, once, and
    # nothing is kept to be shown again.
    assert heard.of(SeasonEnded) == [ended] and ended.channel_id is None
    assert await undelivered_podiums(service) == []
    await service.close()
    again = Recorder()
    await make_service(recorder=again)
    assert again.of(SeasonEnded) == []


async def test_season_standings_start_anew_and_rank_after_the_minimum_of_games(
    make_service: ServiceFactory, clock: ManualClock
):
    service = await make_service(season_min_games=2, season_seconds=SEASON)
    await win(service, 101, 202)  # before any season: all-time only
    await clock.advance(1.0, settle=service.wait_idle)
    await with_length(service)
    await win(service, 202, 101)
    page = await service.seasons.leaderboard(GUILD)
    assert page.entries == () and page.total == 0  # one game each: not ranked yet
    line = (await service.seasons.member(GUILD, 202)).standing
    assert line is not None and (line.games, line.wins, line.rank) == (1, 1, None)
    assert round(line.rating.rating) == 1662  # anew: one win from 1500
    await win(service, 202, 101)

    page = await service.seasons.leaderboard(GUILD)

    assert [(s.user_id, s.rank, s.wins) for s in page.entries] == [(202, 1, 2), (101, 2, 0)]
    all_time = await service.queries.player_stats(GUILD, 202)
    assert all_time.standing.games == 3  # the all-time rating kept alongside


async def test_a_season_with_a_length_ends_at_its_boundary_and_the_next_starts(
    make_service: ServiceFactory, clock: ManualClock
):
    heard = Recorder()
    service = await make_service(recorder=heard, season_min_games=1, season_seconds=SEASON)
    first = await with_length(service)
    assert first is not None and first.ends_at == clock.now() + SEASON
    await win(service, 101, 202)

    await clock.advance(SEASON, settle=service.wait_idle)

    assert podiums(heard) == [1]
    [ended] = heard.of(SeasonEnded)
    assert ended.channel_id == CHANNEL
    assert [(s.user_id, s.rank) for s in ended.podium] == [(101, 1), (202, 2)]
    assert ended.next_season is not None and ended.next_season.number == 2
    assert (await service.seasons.leaderboard(GUILD)).total == 0  # the new season is empty
    past = await service.seasons.leaderboard(GUILD, 1)
    assert [s.user_id for s in past.entries] == [101, 202] and not past.season.running
    best = (await service.seasons.member(GUILD, 101)).best
    assert best is not None and (best.number, best.rank) == (1, 1)
    await clock.advance(SEASON / 2, settle=service.wait_idle)
    assert podiums(heard) == [1]  # once
    await clock.advance(SEASON / 2, settle=service.wait_idle)
    assert podiums(heard) == [1, 2]  # the next ends at its own boundary


async def test_a_restart_across_the_boundary_ends_the_season_once(
    make_service: ServiceFactory, clock: ManualClock
):
    before = await make_service(season_seconds=SEASON)
    await with_length(before)
    await before.close()
    await clock.advance(SEASON * 1.5)  # the bot is down at the boundary

    heard = Recorder()
    after = await make_service(recorder=heard, season_seconds=SEASON)
    await clock.advance(1.0, settle=after.wait_idle)

    assert podiums(heard) == [1]
    ended = heard.of(SeasonEnded)[0]
    assert ended.season.ended_at == ended.season.ends_at  # at the boundary, not at restart
    running = await after.seasons.current(GUILD)
    # The next runs from the boundary, to a boundary still ahead.
    assert running is not None and running.number == 2
    assert running.ends_at is not None and running.ends_at > clock.now()


async def test_a_podium_nobody_confirmed_is_shown_once_after_a_restart(
    make_service: ServiceFactory, clock: ManualClock
):
    lost = Recorder(confirms=False)  # the bot dies before posting
    dying = await make_service(recorder=lost, season_seconds=SEASON)
    await with_length(dying)
    await clock.advance(SEASON, settle=dying.wait_idle)
    assert podiums(lost) == [1]
    await dying.close()

    heard = Recorder()
    restarted = await make_service(recorder=heard, season_seconds=SEASON)
    await restarted.wait_idle()
    assert heard.of(SeasonEnded) == lost.of(SeasonEnded)  # at start, as it was
    await clock.advance(SEASON / 2, settle=restarted.wait_idle)
    assert podiums(heard) == [1]
    await restarted.close()

    again = Recorder()
    await make_service(recorder=again, season_seconds=SEASON)
    assert again.of(SeasonEnded) == []  # confirmed: never shown again


async def test_a_podium_left_unshown_before_the_upgrade_is_shown_once(
    make_service: ServiceFactory, db_path, clock: ManualClock
):
    # A version before the outbox ended season 1 and died before posting its podium; the
    # upgrade left a "season-podium" alarm for the server, due at once.
    store = SqliteMatchStore(str(db_path))
    await store.open()
    await store.save_guild_settings(GuildSettings(GUILD, season_channel_id=CHANNEL))
    season = Season(GUILD, 1, START - 7200, None)
    await store.start_season(season)
    await store.end_season(replace(season, ended_at=START - 3600), [], None)
    await store.set_alarms([Alarm(SEASON_PODIUM, GUILD, 0.0)])
    await store.close()

    heard = Recorder()
    service = await make_service(recorder=heard)
    await service.wait_idle()

    [ended] = heard.of(SeasonEnded)
    assert (ended.season.number, ended.season.ended_at, ended.channel_id) == (
        1,
        START - 3600,
        CHANNEL,
    )
    await service.close()
    again = Recorder()
    await make_service(recorder=again)
    assert again.of(SeasonEnded) == []


async def test_an_upgrade_s_podium_tried_again_after_a_new_end_shows_that_end_once(
    make_service: ServiceFactory, db_path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    # The upgrade left season 1's podium unshown and season 2 due to end while the bot was
    # down. At start both alarms ring; the podium's first try fails and comes again after
    # season 2 ended through the outbox, which it must not announce a second time.
    store = SqliteMatchStore(str(db_path))
    await store.open()
    await store.save_guild_settings(
        GuildSettings(GUILD, season_length=SeasonLength.MONTHLY, season_channel_id=CHANNEL)
    )
    first = Season(GUILD, 1, START - 7200, None)
    await store.start_season(first)
    await store.end_season(replace(first, ended_at=START - 3600), [], None)
    await store.start_season(Season(GUILD, 2, START - 3600, START - 60, SeasonLength.MONTHLY))
    await store.set_alarms([Alarm(SEASON_PODIUM, GUILD, 0.0), Alarm(SEASON_END, GUILD, START - 60)])
    await store.close()
    seasons_of = SqliteMatchStore.seasons_of
    asked: list[int] = []

    async def first_try_fails(self: SqliteMatchStore, guild_id: int, limit: int) -> list[Season]:
        asked.append(guild_id)
        if len(asked) == 1:
            raise StorageFull("matches.sqlite3")
        return await seasons_of(self, guild_id, limit)

    monkeypatch.setattr(SqliteMatchStore, "seasons_of", first_try_fails)
    heard = Recorder()
    service = await make_service(recorder=heard, season_seconds=SEASON)
    await service.wait_idle()
    assert podiums(heard) == [2]  # the end, at start
    await clock.advance(60.0, settle=service.wait_idle)  # the podium's alarm tried again

    assert podiums(heard) == [2, 1]
    assert len(asked) >= 2


async def test_a_claim_the_database_refuses_is_asked_again_each_second_not_in_a_loop(
    make_service: ServiceFactory, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    heard = Recorder()
    service = await make_service(recorder=heard, season_seconds=SEASON)
    await with_length(service)
    claim = service.store.claim_due_alarms
    asked: list[float] = []

    async def refused(now: float, until: float, limit: int) -> list[Alarm]:
        asked.append(now)
        if len(asked) > 50:  # a loop: let it end, so the test fails rather than hangs
            return await claim(now, until, limit)
        raise StorageFull("matches.sqlite3")

    monkeypatch.setattr(service.store, "claim_due_alarms", refused)
    await clock.advance(SEASON + 5.0, settle=service.wait_idle)

    assert asked == [clock.now() - 5.0 + n for n in range(6)]  # at the end, then each second
    assert podiums(heard) == []
    monkeypatch.setattr(service.store, "claim_due_alarms", claim)
    await clock.advance(1.0, settle=service.wait_idle)
    assert podiums(heard) == [1]


async def test_an_end_due_while_a_poll_waits_is_claimed_after_it_each_once(
    make_service: ServiceFactory, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    # On SQLite a claim reads, then writes: two polls at once could both claim an end.
    heard = Recorder()
    service = await make_service(recorder=heard, season_seconds=SEASON)
    await with_length(service, guild=GUILD)
    await clock.advance(2.0, settle=service.wait_idle)
    await with_length(service, guild=GUILD + 1)  # ends two seconds after the first
    claim = service.store.claim_due_alarms
    gate = asyncio.Event()
    running: list[float] = []
    most = 0

    async def held(now: float, until: float, limit: int) -> list[Alarm]:
        nonlocal most
        running.append(now)
        most = max(most, len(running))
        await gate.wait()
        try:
            return await claim(now, until, limit)
        finally:
            running.remove(now)

    monkeypatch.setattr(service.store, "claim_due_alarms", held)
    await clock.advance(SEASON - 2.0)  # the first end is due: a poll waits at the gate
    assert running == [clock.now()]
    await clock.advance(5.0)  # the second falls due meanwhile ...
    await with_length(service, guild=GUILD + 2)  # ... and a new end wakes the clock
    gate.set()
    await service.wait_idle()
    await clock.advance(1.0, settle=service.wait_idle)

    assert most == 1
    ends = sorted((e.season.guild_id, e.season.number) for e in heard.of(SeasonEnded))
    assert ends == [(GUILD, 1), (GUILD + 1, 1)]
    assert all(e.season.ended_at == e.season.ends_at for e in heard.of(SeasonEnded))


async def test_turning_the_length_off_leaves_the_season_to_end_by_hand(
    make_service: ServiceFactory, clock: ManualClock
):
    heard = Recorder()
    service = await make_service(recorder=heard, season_seconds=SEASON)
    await with_length(service)
    running = await with_length(service, SeasonLength.OFF)
    assert running is not None and running.ends_at is None
    await clock.advance(SEASON * 2, settle=service.wait_idle)
    assert heard.of(SeasonEnded) == []
    ended = await service.seasons.end(GUILD)
    await service.wait_idle()
    assert ended.next_season is None and heard.of(SeasonEnded) == [ended]


async def test_an_unknown_season_is_refused_clearly(service: MatchService):
    with pytest.raises(SeasonNotFound, match="server 1 has no season yet"):
        await service.seasons.leaderboard(GUILD)
    with pytest.raises(SeasonNotFound, match="server 1 has no season 4"):
        await service.seasons.leaderboard(GUILD, 4)


async def late_result(service: MatchService, players: tuple[int, int], finished_at: float) -> None:
    """A rated result written with an earlier finish than results already counted, as
    another process's write that stalled would be."""
    store = service.store
    info = await store.create_match(
        match_info(0, players, guild_id=GUILD, created_at=finished_at - 60)
    )
    await store.start_match(
        info.match_id, seed=1, first_player=0, started_at=finished_at - 60, turn_deadline=None
    )
    result = match_result(info.match_id, players, guild_id=GUILD, finished_at=finished_at)
    await store.finish_match(
        result, None, lambda before: rate_finished_match(result, before), version=0
    )


async def test_a_result_committed_late_is_still_counted_in_the_running_season(
    make_service: ServiceFactory, clock: ManualClock
):
    service = await make_service(season_min_games=1)
    season = await service.seasons.start(GUILD)
    await clock.advance(10.0, settle=service.wait_idle)
    await win(service, 101, 202)
    assert (await service.seasons.leaderboard(GUILD)).total == 2

    await late_result(service, (303, 404), season.started_at + 5)

    page = await service.seasons.leaderboard(GUILD)
    assert page.total == 4 and {s.user_id for s in page.entries} == {101, 202, 303, 404}


async def test_readers_at_once_count_each_match_once(
    make_service: ServiceFactory, clock: ManualClock
):
    service = await make_service(season_min_games=1)
    await service.seasons.start(GUILD)
    await clock.advance(1.0, settle=service.wait_idle)
    await win(service, 101, 202)

    pages = await asyncio.gather(*(service.seasons.leaderboard(GUILD) for _ in range(5)))

    assert {(p.total, p.entries[0].games) for p in pages} == {(2, 1)}


@pytest.fixture
async def two_processes(
    postgres_url: str, clock: ManualClock
) -> AsyncIterator[list[tuple[MatchService, Recorder]]]:
    """Two services on one PostgreSQL database, as two bot processes, on one clock."""
    processes = []
    for name in ("one", "two"):
        service = MatchService(
            PostgresMatchStore(postgres_url, origin=name),
            ServiceConfig(ai_move_delay_seconds=0.0, season_seconds=SEASON),
            clock=clock,
            rng=random.Random(name),
        )
        heard = Recorder()
        heard.service = service
        service.subscribe(heard)
        await service.start()
        processes.append((service, heard))
    yield processes
    for service, _ in processes:
        await service.close()


async def test_of_two_processes_one_ends_a_due_season_and_announces_it_once(
    two_processes: list[tuple[MatchService, Recorder]], clock: ManualClock
):
    (one, heard_by_one), (two, heard_by_two) = two_processes

    async def settle() -> None:
        for _ in range(2):
            await one.wait_idle()
            await two.wait_idle()

    await with_length(one)
    await settle()
    await clock.advance(SEASON + 3.0, settle=settle)  # both poll each second meanwhile
    await clock.advance(120.0, settle=settle)  # past any claim's end

    ends = heard_by_one.of(SeasonEnded) + heard_by_two.of(SeasonEnded)
    assert [(e.season.number, e.season.ended_at) for e in ends] == [(1, START + SEASON)]
    running = await two.seasons.current(GUILD)
    assert running is not None and running.number == 2
    assert [s.number for s in await one.seasons.past(GUILD)] == [1]
    assert await one.store.next_alarm_due() == START + 2 * SEASON  # the next end only
