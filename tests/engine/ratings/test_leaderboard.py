"""The all-time leaderboard's rule, pure: who is ranked and how the ranks are numbered."""

from __future__ import annotations

import doctest

import pytest

import engine.ratings.leaderboard
from engine.ratings import (
    LEADERBOARD_MIN_GAMES,
    Glicko2Rating,
    LeaderboardPage,
    RatingError,
    Standing,
    ranked_page,
)


def standing(user_id: int, games: int, rating: float = 1500.0) -> Standing:
    return Standing(1, user_id, Glicko2Rating(rating), games=games, wins=games)


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(engine.ratings.leaderboard).failed == 0


def test_the_first_page_ranks_from_one():
    rows = LeaderboardPage((standing(5, 9, 1700), standing(6, 3, 1600)), 0, 2)
    page = ranked_page(rows, min_games=3)
    assert [(e.rank, e.standing.user_id) for e in page.entries] == [(1, 5), (2, 6)]
    assert (page.offset, page.total, page.min_games) == (0, 2, 3)


def test_ranks_run_on_across_pages():
    rows = LeaderboardPage((standing(7, 4), standing(8, 4)), 20, 22)
    assert [e.rank for e in ranked_page(rows, min_games=3).entries] == [21, 22]


def test_a_tie_in_rating_still_gives_one_rank_per_player():
    # The store orders a tie by more games, then the lower id; each keeps a rank of its own.
    rows = LeaderboardPage((standing(3, 5), standing(4, 5)), 0, 2)
    assert [e.rank for e in ranked_page(rows, min_games=3).entries] == [1, 2]


def test_an_empty_page_says_the_minimum():
    page = ranked_page(LeaderboardPage((), 0, 0), min_games=LEADERBOARD_MIN_GAMES)
    assert (page.entries, page.total, page.min_games) == ((), 0, 3)


def test_one_lucky_first_win_is_not_a_ranking():
    assert LEADERBOARD_MIN_GAMES == 3


@pytest.mark.parametrize("min_games", [0, -1])
def test_a_minimum_below_one_game_is_refused(min_games):
    with pytest.raises(RatingError, match=repr(min_games)):
        ranked_page(LeaderboardPage((), 0, 0), min_games=min_games)


def test_a_page_holding_a_player_below_the_minimum_is_refused():
    with pytest.raises(RatingError, match="fewer than 3"):
        ranked_page(LeaderboardPage((standing(9, 2),), 0, 1), min_games=3)
