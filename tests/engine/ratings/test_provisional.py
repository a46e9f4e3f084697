"""A rating is provisional until its deviation is low, as lichess marks it with a "?"."""

from __future__ import annotations

from engine.ratings import PROVISIONAL_DEVIATION, Glicko2Rating, Standing, rate_match


def test_the_threshold_is_lichess_110():
    assert PROVISIONAL_DEVIATION == 110


def test_a_new_player_is_provisional_and_a_settled_one_is_not():
    assert Standing(1, 101).is_provisional
    assert Glicko2Rating(1500, 110).is_provisional
    assert not Glicko2Rating(1500, 109.9).is_provisional
    assert not Standing(1, 101, Glicko2Rating(1720, 60)).is_provisional


def test_one_match_leaves_both_newcomers_provisional_after_their_162_point_swing():
    winner, loser = rate_match(Glicko2Rating(), Glicko2Rating(), 1.0)

    assert round(winner.rating - 1500) == 162
    assert winner.is_provisional and loser.is_provisional


def test_two_newcomers_who_keep_meeting_settle_after_about_a_dozen_matches():
    first, second = Glicko2Rating(), Glicko2Rating()
    provisional_after = []
    for match in range(1, 21):
        first, second = rate_match(first, second, 1.0 if match % 2 else 0.0)
        provisional_after.append(first.is_provisional)

    settled_at = provisional_after.index(False) + 1
    assert 10 <= settled_at <= 16
    assert not any(provisional_after[settled_at:])  # and stays settled while results hold
