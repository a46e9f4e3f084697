"""Ratings, stats, leaderboards and record export through the match service."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys

import pytest

from engine.ratings import GLOBAL_RATINGS, rate_match
from engine.ratings.glicko2 import Glicko2Rating
from engine.rules.outcome import Termination
from engine.service import (
    ExpiryPolicy,
    GuildSettings,
    InvalidRequest,
    MatchNotFinished,
    MatchNotFound,
    MatchService,
)

from .conftest import new_match, play_one, play_to_end

GUILD = 1  # new_match plays in guild 1
ANA, BEN, CARA = 101, 202, 303


async def _resigned(service: MatchService, winner: int, loser: int) -> int:
    """A match between two people that ``loser`` resigns; returns its id."""
    match = await new_match(service, winner, loser)
    await service.commands.resign(match.match_id, loser)
    return match.match_id


async def test_a_resigned_match_is_rated_like_a_win_and_a_loss(service):
    match_id = await _resigned(service, ANA, BEN)

    ana_change, ben_change = await service.queries.rating_changes(match_id)
    assert (ana_change.user_id, ana_change.score, ben_change.score) == (ANA, 1.0, 0.0)
    assert ana_change.after == pytest.approx(1662.31, abs=0.01)
    assert ben_change.after == pytest.approx(1337.69, abs=0.01)
    ana = await service.queries.player_stats(GUILD, ANA)
    ben = await service.queries.player_stats(GUILD, BEN)
    assert (ana.standing.games, ana.standing.wins, ana.standing.streak) == (1, 1, 1)
    assert ana.wins_by == {Termination.RESIGNATION: 1}
    assert ben.losses_by == {Termination.RESIGNATION: 1}
    assert ben.standing.last_change == pytest.approx(-162.31, abs=0.01)


async def test_a_timeout_forfeit_is_rated(make_service, clock):
    service = await make_service()
    await service.settings.set_guild_settings(
        GuildSettings(GUILD, expiry_policy=ExpiryPolicy.FORFEIT)
    )
    match = await new_match(service, ANA, BEN)

    await clock.advance(600.0, settle=service.wait_idle)

    changes = await service.queries.rating_changes(match.match_id)
    assert changes is not None
    late = match.players[match.first_player]
    assert {c.user_id: c.score for c in changes}[late] == 0.0
    stats = await service.queries.player_stats(GUILD, late)
    assert stats.losses_by == {Termination.TIMEOUT: 1}


async def test_a_match_played_to_the_end_counts_how_it_was_won(service):
    match = await new_match(service, ANA, BEN)
    await play_to_end(service, match.match_id, random.Random(3))

    [result] = await service.queries.finished_matches()
    winner = await service.queries.player_stats(GUILD, result.winner_id)
    assert winner.wins_by == {result.reason: 1}
    assert result.reason in (Termination.CHARM, Termination.GEISHAS)


async def test_a_match_against_the_ai_is_never_rated_but_shows_in_stats(service):
    match = await service.commands.start_ai_match(ANA, "easy", GUILD, 2)
    await service.commands.resign(match.match_id, ANA)

    assert await service.queries.rating_changes(match.match_id) is None
    stats = await service.queries.player_stats(GUILD, ANA)
    assert (stats.standing.games, stats.standing.rating.rating) == (0, 1500.0)
    assert (stats.ai_games, stats.ai_wins) == (1, 0)


async def test_ratings_are_per_server(service):
    await _resigned(service, ANA, BEN)

    elsewhere = await service.queries.player_stats(GUILD + 1, ANA)
    assert (elsewhere.standing.games, elsewhere.standing.rating.rating) == (0, 1500.0)


async def test_the_second_match_starts_from_the_rating_the_first_left(service):
    await _resigned(service, ANA, BEN)
    await _resigned(service, ANA, CARA)

    after_first, _ = rate_match(Glicko2Rating(), Glicko2Rating(), 1.0)
    expected, _ = rate_match(after_first, Glicko2Rating(), 1.0)
    ana = (await service.queries.player_stats(GUILD, ANA)).standing
    assert ana.rating == pytest.approx(expected)
    assert (ana.games, ana.wins, ana.streak) == (2, 2, 2)


async def test_two_matches_of_one_player_ending_at_once_both_count(service):
    first = await new_match(service, ANA, BEN)
    second = await new_match(service, ANA, CARA)

    await asyncio.gather(
        service.commands.resign(first.match_id, BEN), service.commands.resign(second.match_id, CARA)
    )

    ana = (await service.queries.player_stats(GUILD, ANA)).standing
    assert (ana.games, ana.wins) == (2, 2)
    changes = [await service.queries.rating_changes(m.match_id) for m in (first, second)]
    befores = sorted(c[0].before for c in changes if c is not None)
    assert befores[0] == 1500.0 and befores[1] > 1600  # the later one saw the first's result


async def test_a_failed_rating_write_leaves_the_match_unfinished(service, db_path):
    match = await new_match(service, ANA, BEN)
    with sqlite3.connect(db_path) as conn:  # sabotage the ratings table from outside
        conn.execute(
            "CREATE TRIGGER no_ratings BEFORE INSERT ON ratings BEGIN SELECT RAISE(ABORT, 'x'); END"
        )
    conn.close()

    with pytest.raises(sqlite3.IntegrityError):
        await service.commands.resign(match.match_id, BEN)

    assert await service.queries.finished_matches() == []
    assert (await service.queries.player_stats(GUILD, ANA)).standing.games == 0
    assert (await service.queries.match_info(match.match_id)).status == "active"


async def test_the_leaderboard_ranks_by_rating_and_pages_without_gaps(make_service):
    service = await make_service(leaderboard_min_games=1)
    # Player k beats every player after them once: the ranking must be 1, 2, 3, ...
    players = [1000 + k for k in range(7)]
    for i, winner in enumerate(players):
        for loser in players[i + 1 :]:
            await _resigned(service, winner, loser)

    whole = await service.queries.leaderboard(GUILD, offset=0, limit=100)
    assert [(e.rank, e.standing.user_id) for e in whole.entries] == list(
        enumerate(players, start=1)
    )
    ratings = [e.standing.rating.rating for e in whole.entries]
    assert ratings == sorted(ratings, reverse=True)

    pages = [await service.queries.leaderboard(GUILD, offset=o, limit=3) for o in (0, 3, 6)]
    assert [len(p.entries) for p in pages] == [3, 3, 1]
    # The ranks run on across pages: page 3 starts at rank 7, not 1.
    assert [e for p in pages for e in p.entries] == list(whole.entries)
    assert {p.total for p in pages} == {7}


async def test_the_leaderboard_ranks_only_players_with_the_minimum_of_games(make_service):
    service = await make_service(leaderboard_min_games=2)
    await _resigned(service, ANA, BEN)
    await _resigned(service, ANA, CARA)

    board = await service.queries.leaderboard(GUILD, offset=0, limit=10)

    assert [(e.rank, e.standing.user_id) for e in board.entries] == [(1, ANA)]
    assert (board.total, board.min_games) == (1, 2)
    other = await service.queries.leaderboard(GUILD + 1, offset=0, limit=10)
    assert (other.entries, other.total, other.min_games) == ((), 0, 2)


async def test_the_leaderboard_needs_three_rated_games_by_default(service):
    # One lucky first win is not a ranking.
    for _ in range(2):
        await _resigned(service, ANA, BEN)
    assert (await service.queries.leaderboard(GUILD)).entries == ()
    await _resigned(service, BEN, ANA)

    board = await service.queries.leaderboard(GUILD)

    assert sorted(e.standing.user_id for e in board.entries) == [ANA, BEN]
    assert ([e.rank for e in board.entries], board.min_games) == ([1, 2], 3)


@pytest.mark.parametrize("bad", [{"offset": -1}, {"limit": 0}, {"limit": 101}])
async def test_a_leaderboard_request_out_of_range_is_refused_and_quoted(service, bad):
    args = {"offset": 0, "limit": 10, **bad}
    name, value = next(iter(bad.items()))
    with pytest.raises(InvalidRequest, match=f"{name}={value}"):
        await service.queries.leaderboard(GUILD, **args)


async def test_an_exported_record_replays_to_the_same_result(service, tmp_path):
    match = await new_match(service, ANA, BEN)
    rng = random.Random(5)
    for _ in range(10):
        await play_one(service, match.match_id, rng)
    await service.commands.resign(match.match_id, ANA)
    [result] = await service.queries.finished_matches()

    record = await service.queries.match_record(match.match_id, GUILD, ANA)
    path = tmp_path / f"hanamikoji-match-{match.match_id}.json"
    path.write_text(record + "\n")
    replay = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "engine", "replay", str(path), stdout=asyncio.subprocess.PIPE
    )
    stdout, _ = await replay.communicate()

    assert replay.returncode == 0
    assert "\n" not in record
    output = json.loads(stdout)
    assert (output["winner"], output["reason"]) == (result.winner_seat, "resignation")


async def test_a_match_still_in_progress_cannot_be_exported(service):
    challenge = await service.challenges.challenge(ANA, BEN, guild_id=GUILD, channel_id=2)
    with pytest.raises(MatchNotFinished, match=f"match {challenge.match_id} is pending"):
        await service.queries.match_record(challenge.match_id, GUILD, ANA)

    await service.challenges.accept(challenge.match_id, BEN)
    with pytest.raises(MatchNotFinished, match="is active; its record is available once it ends"):
        await service.queries.match_record(challenge.match_id, GUILD, ANA)


async def test_a_record_of_another_server_is_not_found(service):
    match_id = await _resigned(service, ANA, BEN)

    with pytest.raises(MatchNotFound):
        await service.queries.match_record(match_id, GUILD + 1, ANA)
    with pytest.raises(MatchNotFound):
        await service.queries.match_record(999, GUILD, ANA)


async def test_a_match_outside_any_server_counts_on_the_global_ratings_only(service):
    """Played in a DM (the user-installed app): no server, so the global ratings (key 0)."""
    challenge = await service.challenges.challenge(ANA, BEN, guild_id=None, channel_id=77)
    match = await service.challenges.accept(challenge.match_id, BEN)
    await service.commands.resign(match.match_id, BEN)

    ana_change, _ = await service.queries.rating_changes(match.match_id)
    assert ana_change.guild_id == GLOBAL_RATINGS
    assert ana_change.after == pytest.approx(1662.31, abs=0.01)
    everywhere = await service.queries.player_stats(GLOBAL_RATINGS, ANA)
    assert (everywhere.standing.games, everywhere.standing.wins) == (1, 1)
    in_a_server = await service.queries.player_stats(GUILD, ANA)
    assert in_a_server.standing.games == 0, "a server's ratings are its own"
