"""The rules of a season: when it ends by itself, how its standings start anew and who is
ranked, and where its podium is announced."""

from __future__ import annotations

import doctest
import random
from datetime import UTC, datetime

import pytest

import engine.seasons.calendar
import engine.seasons.standings
from engine.model import GuildSettings, SeasonLength
from engine.ratings import Glicko2Rating, RatingError, rate_match
from engine.seasons import SeasonResult, SeasonTable, announcement_channel, season_end


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("length", "started", "ends"),
    [
        (SeasonLength.MONTHLY, at(2026, 11, 25, 21, 0), at(2026, 12, 1)),
        (SeasonLength.MONTHLY, at(2026, 12, 31, 23, 59), at(2027, 1, 1)),
        (SeasonLength.MONTHLY, at(2026, 2, 1), at(2026, 3, 1)),  # started on a boundary
        (SeasonLength.QUARTERLY, at(2026, 2, 14), at(2026, 4, 1)),
        (SeasonLength.QUARTERLY, at(2026, 10, 1), at(2027, 1, 1)),
        (SeasonLength.QUARTERLY, at(2026, 12, 31), at(2027, 1, 1)),
    ],
)
def test_a_season_ends_at_the_start_of_the_next_calendar_month_or_quarter_utc(
    length, started, ends
):
    assert season_end(length, started) == ends


def test_a_season_without_a_length_ends_only_by_hand():
    assert season_end(SeasonLength.OFF, at(2026, 5, 5)) is None


def test_the_examples_in_the_docstrings_hold():
    for module in (engine.seasons.calendar, engine.seasons.standings):
        assert doctest.testmod(module).failed == 0


def result(match_id: int, players: tuple[int, int], winner: int | None, when: float):
    return SeasonResult(match_id, players, winner, when)


def test_every_member_starts_the_season_at_the_starting_rating():
    table = SeasonTable(min_games=1)
    table.add(result(1, (1, 2), 0, 10.0))
    expected = rate_match(Glicko2Rating(), Glicko2Rating(), 1.0)
    assert table.standing_of(1).rating == expected[0]  # type: ignore[union-attr]
    assert table.standing_of(2).rating == expected[1]  # type: ignore[union-attr]


def test_the_season_rating_is_glicko2_over_the_seasons_matches_in_order():
    rng = random.Random(27)
    table = SeasonTable(min_games=1)
    ratings = {user: Glicko2Rating() for user in range(6)}
    for match_id in range(1, 200):
        a, b = rng.sample(range(6), 2)
        winner = rng.choice([0, 1, None])
        table.add(result(match_id, (a, b), winner, float(match_id)))
        score = 0.5 if winner is None else float(winner == 0)
        ratings[a], ratings[b] = rate_match(ratings[a], ratings[b], score)
    for user, rating in ratings.items():
        assert table.standing_of(user).rating == rating  # type: ignore[union-attr]
    assert [s.rank for s in table.ranking()] == list(range(1, 7))
    best_first = sorted(ratings, key=lambda u: -ratings[u].rating)
    assert [s.user_id for s in table.ranking()] == best_first


def test_a_member_is_ranked_only_after_the_minimum_of_games():
    table = SeasonTable(min_games=3)
    for match_id in (1, 2):
        table.add(result(match_id, (1, 2), 0, float(match_id)))
    assert table.ranking() == ()
    unranked = table.standing_of(1)
    assert unranked is not None and unranked.rank is None and unranked.games == 2
    table.add(result(3, (1, 3), 1, 3.0))
    assert [(s.user_id, s.rank) for s in table.ranking()] == [(1, 1)]
    assert table.standing_of(2).rank is None  # type: ignore[union-attr]
    assert table.standing_of(4) is None  # never played this season


def test_games_wins_losses_and_draws_are_counted_per_member():
    table = SeasonTable(min_games=1)
    table.add(result(1, (1, 2), 0, 1.0))
    table.add(result(2, (2, 1), None, 2.0))
    table.add(result(3, (2, 1), 0, 3.0))
    one = table.standing_of(1)
    assert one is not None
    assert (one.games, one.wins, one.losses, one.draws) == (3, 1, 1, 1)


def test_equal_ratings_rank_more_games_first_then_the_lower_id():
    table = SeasonTable(min_games=1)
    table.add(result(1, (5, 6), None, 1.0))  # both stay at 1500
    table.add(result(2, (3, 4), None, 2.0))
    assert [s.user_id for s in table.ranking()] == [3, 4, 5, 6]


def test_matches_must_come_in_the_order_they_finished():
    table = SeasonTable(min_games=1)
    table.add(result(5, (1, 2), 0, 10.0))
    with pytest.raises(RatingError, match="match 4"):
        table.add(result(4, (1, 2), 0, 10.0))
    with pytest.raises(RatingError, match="at least 1 game, not 0"):
        SeasonTable(min_games=0)


def test_the_podium_goes_to_the_season_channel_else_the_lobby_else_nowhere():
    assert announcement_channel(GuildSettings(1, season_channel_id=7, lobby_channel_id=8)) == 7
    assert announcement_channel(GuildSettings(1, lobby_channel_id=8)) == 8
    assert announcement_channel(GuildSettings(1)) is None
