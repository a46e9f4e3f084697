"""Glicko-2 against worked examples, and how a finished match turns into standings."""

from __future__ import annotations

import pytest

from engine.model import AI_USER_ID, FinishedMatch
from engine.ratings import (
    GLOBAL_RATINGS,
    Game,
    Glicko2Rating,
    RatingError,
    Standing,
    is_rated,
    rate,
    rate_finished_match,
    rate_match,
)
from engine.rules.outcome import Termination
from engine.rules.state import Variant
from tests.builders import match_result

GUILD = 5
ANA, BEN = 101, 202


def test_the_worked_example_of_glickmans_paper():
    # "Example of the Glicko-2 system" (Glickman, 2013): 1500/200 plays three games in one
    # period: beats 1400/30, loses to 1550/100 and to 1700/300; tau = 0.5.
    player = Glicko2Rating(1500, 200, 0.06)
    games = [
        Game(Glicko2Rating(1400, 30), 1.0),
        Game(Glicko2Rating(1550, 100), 0.0),
        Game(Glicko2Rating(1700, 300), 0.0),
    ]

    after = rate(player, games, tau=0.5)

    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_first_game_between_two_new_players_by_hand():
    # By hand: phi = 350/173.7178 = 2.01476, g = 0.66906, E = 0.5, v = 8.9358;
    # phi' = 1 / sqrt(1/(phi^2 + 0.06^2) + 1/v) = 1.67121; mu' = phi'^2 * g * 0.5 = 0.93432.
    winner, loser = rate_match(Glicko2Rating(), Glicko2Rating(), 1.0)

    assert winner.rating == pytest.approx(1662.31, abs=0.01)
    assert loser.rating == pytest.approx(1337.69, abs=0.01)
    assert winner.deviation == loser.deviation == pytest.approx(290.32, abs=0.01)


def test_a_draw_between_equals_moves_no_rating_but_makes_both_surer():
    first, second = rate_match(Glicko2Rating(1600, 80), Glicko2Rating(1600, 80), 0.5)

    assert first.rating == pytest.approx(1600) and second.rating == pytest.approx(1600)
    assert first.deviation < 80


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    me = Glicko2Rating(1500, 100)
    upset = rate(me, [Game(Glicko2Rating(1800, 100), 1.0)]).rating - 1500
    expected = rate(me, [Game(Glicko2Rating(1200, 100), 1.0)]).rating - 1500

    assert upset > 3 * expected > 0


def test_an_idle_period_only_widens_the_deviation():
    after = rate(Glicko2Rating(1700, 50, 0.06), [])

    assert after.rating == 1700
    assert after.deviation == pytest.approx((50**2 + (0.06 * 173.7178) ** 2) ** 0.5)


@pytest.mark.parametrize("score", [2.0, -1.0, 0.25])
def test_a_score_other_than_win_draw_or_loss_is_refused_and_quoted(score):
    with pytest.raises(RatingError, match=repr(score)):
        Game(Glicko2Rating(), score)


def test_an_impossible_deviation_is_refused_and_quoted():
    with pytest.raises(RatingError, match="deviation=-3"):
        Glicko2Rating(1500, -3)


def _result(
    winner_seat: int | None,
    reason: Termination,
    *,
    players: tuple[int, int] = (ANA, BEN),
    guild_id: int | None = GUILD,
    ai_level: str | None = None,
    match_id: int = 9,
) -> FinishedMatch:
    return match_result(
        match_id,
        players,
        winner_seat,
        guild_id=guild_id,
        variant=Variant.THREE_ROUNDS,
        ai_level=ai_level,
        reason=reason,
        rounds=3,
        started_at=1000.0,
        finished_at=2000.0,
    )


def _fresh() -> tuple[Standing, Standing]:
    return Standing(GUILD, ANA), Standing(GUILD, BEN)


@pytest.mark.parametrize("reason", [Termination.RESIGNATION, Termination.TIMEOUT])
def test_conceding_counts_as_a_loss_like_any_other(reason):
    conceded = rate_finished_match(_result(1, reason), _fresh())
    on_the_cards = rate_finished_match(_result(1, Termination.CHARM), _fresh())

    assert conceded == on_the_cards
    ana, ben = conceded.standings
    assert (ana.losses, ana.streak, ben.wins, ben.streak) == (1, -1, 1, 1)
    assert ben.rating.rating == pytest.approx(1662.31, abs=0.01)
    assert [c.delta for c in conceded.changes] == pytest.approx([-162.31, 162.31], abs=0.01)


def test_a_draw_scores_half_for_both_and_ends_a_streak():
    ana = Standing(GUILD, ANA, wins=2, games=2, streak=2)
    rated = rate_finished_match(_result(None, Termination.DRAW), (ana, Standing(GUILD, BEN)))

    ana_after, ben_after = rated.standings
    assert [c.score for c in rated.changes] == [0.5, 0.5]
    assert (ana_after.games, ana_after.draws, ana_after.streak) == (3, 1, 0)
    assert (ben_after.games, ben_after.draws, ben_after.streak) == (1, 1, 0)


def test_a_win_after_losses_starts_a_new_streak_and_records_the_change():
    ana = Standing(GUILD, ANA, games=3, losses=3, streak=-3)
    ana_after, _ = rate_finished_match(
        _result(0, Termination.GEISHAS), (ana, Standing(GUILD, BEN))
    ).standings

    assert (ana_after.wins, ana_after.streak, ana_after.last_match_id) == (1, 1, 9)
    assert ana_after.last_change == pytest.approx(162.31, abs=0.01)


def test_matches_against_the_ai_are_not_rated():
    assert is_rated(_result(0, Termination.CHARM))
    against_ai = _result(0, Termination.CHARM, players=(ANA, AI_USER_ID), ai_level="hard")
    assert not is_rated(against_ai)
    with pytest.raises(RatingError, match="match 9 is not rated"):
        rate_finished_match(against_ai, _fresh())


def test_a_match_outside_any_server_counts_on_the_global_ratings():
    outside = _result(0, Termination.CHARM, guild_id=None)
    assert is_rated(outside)
    with pytest.raises(RatingError, match="seat 0 of match 9"):  # a server's standings
        rate_finished_match(outside, _fresh())
    fresh = (Standing(GLOBAL_RATINGS, ANA), Standing(GLOBAL_RATINGS, BEN))
    rated = rate_finished_match(outside, fresh)
    assert [s.guild_id for s in rated.standings] == [GLOBAL_RATINGS, GLOBAL_RATINGS]
    assert [c.guild_id for c in rated.changes] == [GLOBAL_RATINGS, GLOBAL_RATINGS]
    assert rated.standings[0].rating.rating > 1500 > rated.standings[1].rating.rating


def test_standings_of_other_players_are_refused():
    with pytest.raises(RatingError, match="seat 1 of match 9"):
        rate_finished_match(
            _result(0, Termination.CHARM), (Standing(GUILD, ANA), Standing(GUILD, 7))
        )
