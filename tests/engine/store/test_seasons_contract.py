"""The seasons part of the store contract, on SQLite and PostgreSQL alike: seasons stored
and claimed once, their final ranking kept, and the rated matches a season counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.model import GuildSettings, SeasonLength
from engine.ratings import Glicko2Rating, rate_finished_match
from engine.seasons import Season, SeasonResult, SeasonStanding
from engine.store.errors import DuplicateKey
from engine.store.match_store import MatchStore
from tests.builders import match_result
from tests.engine.store.conftest import active_match
from tests.engine.store.test_contract import store  # noqa: F401

GUILD = 5


def season(number: int = 1, *, started_at: float = 100.0, ends_at: float | None = 1000.0):
    return Season(GUILD, number, started_at, ends_at, SeasonLength.MONTHLY)


def ranked(user_id: int, rank: int, rating: float) -> SeasonStanding:
    return SeasonStanding(user_id, Glicko2Rating(rating, 200.0), 5, 4, 1, 0, rank)


async def finish(into: MatchStore, players: tuple[int, int], at: float, *, rated: bool) -> int:
    match_id = await active_match(into, player0=players[0], player1=players[1], guild_id=GUILD)
    result = match_result(match_id, players, guild_id=GUILD, started_at=110.0, finished_at=at)
    if not rated:
        result = replace(result, ai_level="easy")
    await into.finish_match(
        result,
        None,
        (lambda before: rate_finished_match(result, before)) if rated else None,
        version=0,
    )
    return match_id


async def test_a_started_season_runs_and_comes_back_as_stored(store: MatchStore):  # noqa: F811
    assert await store.running_season(GUILD) is None
    await store.start_season(season())
    assert await store.running_season(GUILD) == season()
    assert await store.season(GUILD, 1) == season()
    await store.set_season_end(replace(season(), ends_at=None, length=SeasonLength.OFF))
    assert await store.running_season(GUILD) == replace(
        season(), ends_at=None, length=SeasonLength.OFF
    )


async def test_a_server_runs_one_season_at_a_time(store: MatchStore):  # noqa: F811
    await store.start_season(season())
    with pytest.raises(DuplicateKey):
        await store.start_season(season(2))
    assert [s.number for s in await store.seasons_of(GUILD, 10)] == [1]


async def test_ending_keeps_the_ranking_and_starts_the_next_in_one_commit(
    store: MatchStore,  # noqa: F811
):
    await store.start_season(season())
    ranking = [ranked(11, 1, 1700.0), ranked(12, 2, 1600.0), ranked(13, 3, 1500.0)]
    ended = replace(season(), ended_at=1000.0)
    await store.end_season(ended, ranking, season(2, started_at=1000.0, ends_at=2000.0))

    assert await store.season(GUILD, 1) == ended
    assert await store.running_season(GUILD) == season(2, started_at=1000.0, ends_at=2000.0)
    assert [s.number for s in await store.seasons_of(GUILD, 10)] == [2, 1]
    page, total = await store.season_ranking(GUILD, 1, offset=1, limit=5)
    assert (page, total) == (ranking[1:], 3)
    best = await store.best_season(GUILD, 12)
    assert best is not None and (best.number, best.rank, best.rating) == (1, 2, 1600.0)
    assert await store.best_season(GUILD, 99) is None


async def test_the_podium_mark_is_kept(store: MatchStore):  # noqa: F811
    # Set right after an end's commit (its news is in the outbox), read by the podiums a
    # version before the outbox left unshown (the "season-podium" alarm).
    await store.start_season(season())
    ended = replace(season(), ended_at=500.0)
    await store.end_season(ended, [], None)
    unshown = await store.season(GUILD, 1)
    assert unshown is not None and not unshown.podium_shown
    await store.season_podium_shown(GUILD, 1)
    shown = await store.season(GUILD, 1)
    assert shown is not None and shown.podium_shown


async def test_a_season_counts_the_rated_matches_that_finished_within_it(
    store: MatchStore,  # noqa: F811
):
    before = await finish(store, (1, 2), 99.0, rated=True)
    first = await finish(store, (1, 2), 300.0, rated=True)
    await finish(store, (1, 2), 200.0, rated=False)  # against the AI: never rated
    second = await finish(store, (2, 3), 150.0, rated=True)
    await finish(store, (3, 1), 1000.0, rated=True)  # the end is not in the season

    found = await store.season_results(GUILD, 100.0, 1000.0)

    assert found == [
        SeasonResult(second, (2, 3), 0, 150.0),
        SeasonResult(first, (1, 2), 0, 300.0),
    ]
    assert before not in [r.match_id for r in found]
    assert await store.count_season_results(GUILD, 100.0, 1000.0) == 3  # the end included
    assert await store.count_season_results(GUILD, 100.0, 299.0) == 1


async def test_the_season_settings_of_a_server_round_trip(store: MatchStore):  # noqa: F811
    settings = GuildSettings(
        GUILD,
        season_length=SeasonLength.QUARTERLY,
        season_channel_id=2**62 + 1,
        lobby_channel_id=2**62 + 2,
    )
    await store.save_guild_settings(settings)
    assert await store.guild_settings(GUILD) == settings
