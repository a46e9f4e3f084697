"""Seasons through the match service: started and ended by hand or by their length, the
end fired once (also across a restart at the boundary), standings that start anew."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from engine.model import SeasonLength
from engine.ratings import rate_finished_match
from engine.seasons import Season, SeasonEnded
from engine.service import (
    ManualClock,
    MatchService,
    NoSeasonRunning,
    SeasonAlreadyRunning,
    SeasonNotFound,
)
from engine.store.errors import StorageFull
from tests.builders import match_info, match_result
from tests.engine.service.conftest import ServiceFactory, new_match

GUILD = 1  # new_match's server
CHANNEL = 77
SEASON = 600.0  # the test-only length of a season with a length


class Podiums:
    """A listener like the bot: keeps each end it hears of and, unless told not to
    (a process that dies before posting), marks the podium shown."""

    def __init__(self, service: MatchService, *, shows: bool = True) -> None:
        self.heard: list[SeasonEnded] = []
        self.service = service
        self.shows = shows
        service.seasons.on_season_ended(self)

    async def __call__(self, ended: SeasonEnded) -> None:
        self.heard.append(ended)
        if self.shows:
            await self.service.seasons.podium_shown(ended.season.guild_id, ended.season.number)

    @property
    def numbers(self) -> list[int]:
        return [e.season.number for e in self.heard]


async def with_length(service: MatchService, length: SeasonLength = SeasonLength.MONTHLY):
    settings = await service.settings.guild_settings(GUILD)
    await service.settings.set_guild_settings(
        replace(settings, season_length=length, season_channel_id=CHANNEL)
    )
    return await service.seasons.follow_length(GUILD)


async def win(service: MatchService, winner: int, loser: int) -> None:
    match = await new_match(service, winner, loser)
    await service.commands.resign(match.match_id, loser)
    await service.wait_idle()


async def test_a_season_started_and_ended_by_hand_is_announced_once(service: MatchService):
    podiums = Podiums(service)
    season = await service.seasons.start(GUILD)
    assert (season.number, season.ends_at) == (1, None)  # no length: it ends by hand
    with pytest.raises(SeasonAlreadyRunning, match="season 1 is already running"):
        await service.seasons.start(GUILD)

    ended = await service.seasons.end(GUILD)
    await service.wait_idle()

    assert ended.next_season is None and ended.season.ended_at is not None
    with pytest.raises(NoSeasonRunning, match="no season is running in server 1"):
        await service.seasons.end(GUILD)
    # Nowhere to announce it (no channel named): nobody hears of it, and it is done.
    assert podiums.heard == []
    assert (await service.store.season(GUILD, 1)).podium_shown  # type: ignore[union-attr]


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
    service = await make_service(season_min_games=1, season_seconds=SEASON)
    podiums = Podiums(service)
    first = await with_length(service)
    assert first is not None and first.ends_at == clock.now() + SEASON
    await win(service, 101, 202)

    await clock.advance(SEASON, settle=service.wait_idle)

    assert podiums.numbers == [1]
    [ended] = podiums.heard
    assert ended.channel_id == CHANNEL
    assert [(s.user_id, s.rank) for s in ended.podium] == [(101, 1), (202, 2)]
    assert ended.next_season is not None and ended.next_season.number == 2
    assert (await service.seasons.leaderboard(GUILD)).total == 0  # the new season is empty
    past = await service.seasons.leaderboard(GUILD, 1)
    assert [s.user_id for s in past.entries] == [101, 202] and not past.season.running
    best = (await service.seasons.member(GUILD, 101)).best
    assert best is not None and (best.number, best.rank) == (1, 1)
    await clock.advance(SEASON / 2, settle=service.wait_idle)
    assert podiums.numbers == [1]  # once


async def test_a_restart_across_the_boundary_ends_the_season_once(
    make_service: ServiceFactory, clock: ManualClock
):
    before = await make_service(season_seconds=SEASON)
    await with_length(before)
    await before.close()
    await clock.advance(SEASON * 1.5)  # the bot is down at the boundary

    after = await make_service(season_seconds=SEASON)
    podiums = Podiums(after)
    await clock.advance(1.0, settle=after.wait_idle)

    assert podiums.numbers == [1]
    ended = podiums.heard[0]
    assert ended.season.ended_at == ended.season.ends_at  # at the boundary, not at restart
    running = await after.seasons.current(GUILD)
    # The next runs from the boundary, to a boundary still ahead.
    assert running is not None and running.number == 2 and running.ends_at > clock.now()


async def test_a_podium_never_shown_is_shown_after_a_restart(
    make_service: ServiceFactory, clock: ManualClock
):
    dying = await make_service(season_seconds=SEASON)
    lost = Podiums(dying, shows=False)  # it dies before posting
    await with_length(dying)
    await clock.advance(SEASON, settle=dying.wait_idle)
    assert lost.numbers == [1]
    await dying.close()

    restarted = await make_service(season_seconds=SEASON)
    podiums = Podiums(restarted)
    await clock.advance(120.0, settle=restarted.wait_idle)  # its claim ran out

    assert podiums.numbers == [1]
    await clock.advance(SEASON / 2, settle=restarted.wait_idle)
    assert podiums.numbers == [1]


async def test_a_claim_the_database_refuses_is_asked_again_each_second_not_in_a_loop(
    make_service: ServiceFactory, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    service = await make_service(season_seconds=SEASON)
    podiums = Podiums(service)
    await with_length(service)
    claim = service.store.claim_due_seasons
    asked: list[float] = []

    async def refused(now: float, until: float, limit: int) -> list[Season]:
        asked.append(now)
        if len(asked) > 50:  # a loop: let it end, so the test fails rather than hangs
            return await claim(now, until, limit)
        raise StorageFull("matches.sqlite3")

    monkeypatch.setattr(service.store, "claim_due_seasons", refused)
    await clock.advance(SEASON + 5.0, settle=service.wait_idle)

    assert asked == [clock.now() - 5.0 + n for n in range(6)]  # at the end, then each second
    monkeypatch.setattr(service.store, "claim_due_seasons", claim)
    await clock.advance(1.0, settle=service.wait_idle)
    assert podiums.numbers == [1]


async def test_wakes_during_a_poll_wait_for_it_so_nothing_is_claimed_twice(
    make_service: ServiceFactory, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    # On SQLite a claim reads, then writes: two polls at once could both claim a podium.
    service = await make_service(season_seconds=SEASON)
    lost = Podiums(service, shows=False)
    await with_length(service)
    await clock.advance(SEASON, settle=service.wait_idle)
    assert lost.numbers == [1]  # ended, its podium unshown: due again once the claim ends
    claim = service.store.claim_due_seasons
    gate = asyncio.Event()
    running: list[float] = []
    most = 0

    async def held(now: float, until: float, limit: int) -> list[Season]:
        nonlocal most
        running.append(now)
        most = max(most, len(running))
        await gate.wait()
        try:
            return await claim(now, until, limit)
        finally:
            running.remove(now)

    monkeypatch.setattr(service.store, "claim_due_seasons", held)
    await clock.advance(60.0)  # the claim ran out: a poll starts and waits at the gate
    service.seasons.start_alarms()  # more wakes, due at once
    service.seasons.start_alarms()
    gate.set()
    await service.wait_idle()

    assert most == 1
    assert lost.numbers == [1, 1]  # announced again once, not once per wake


async def test_turning_the_length_off_leaves_the_season_to_end_by_hand(
    make_service: ServiceFactory, clock: ManualClock
):
    service = await make_service(season_seconds=SEASON)
    podiums = Podiums(service)
    await with_length(service)
    running = await with_length(service, SeasonLength.OFF)
    assert running is not None and running.ends_at is None
    await clock.advance(SEASON * 2, settle=service.wait_idle)
    assert podiums.heard == []
    ended = await service.seasons.end(GUILD)
    assert ended.next_season is None


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
