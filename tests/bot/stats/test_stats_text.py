"""The words of stats, leaderboard, history and the rating line, in English and Spanish."""

from __future__ import annotations

from bot.stats.stats_text import (
    leaderboard_text,
    rating_changes_text,
    signed_change,
    stats_text,
)
from engine.ratings import Glicko2Rating, LeaderboardPage, PlayerStats, RatingChange, Standing
from engine.rules.outcome import Termination


def test_changes_are_signed_with_a_real_minus_and_rounded_like_the_rating():
    assert [signed_change(x) for x in (12.4, -12.6, 0.3)] == ["+12", "\N{MINUS SIGN}13", "±0"]


def test_the_rating_line_names_both_players_seat_zero_first():
    changes = (
        RatingChange(7, 1, 202, 1, 0.0, 1500.0, 1337.69),
        RatingChange(7, 1, 101, 0, 1.0, 1500.0, 1662.31),
    )
    line = rating_changes_text("en", (changes[0], changes[1]), ("ana", "ben"))
    assert line == "Ratings: ana 1662 (+162) · ben 1338 (\N{MINUS SIGN}162)"
    assert rating_changes_text("es", changes, ("ana", "ben")).startswith("Valoraciones: ana 1662")


def test_the_rating_line_marks_a_provisional_rating_and_explains_the_mark():
    changes = (
        RatingChange(7, 1, 101, 0, 1.0, 1500.0, 1662.31),
        RatingChange(7, 1, 202, 1, 0.0, 1700.0, 1690.0),
    )
    line = rating_changes_text("en", changes, ("ana", "ben"), provisional=(True, False))
    first, legend = line.split("\n")
    assert first == "Ratings: ana 1662? (+162) · ben 1690 (\N{MINUS SIGN}10)"
    assert legend.startswith("? after a rating: provisional")
    spanish = rating_changes_text("es", changes, ("ana", "ben"), provisional=(True, False))
    assert "ana 1662? (+162)" in spanish and "\n? tras una valoración: provisional" in spanish


def test_stats_list_charm_and_geishas_always_and_other_ways_once_seen():
    standing = Standing(1, 101, Glicko2Rating(1544.4), games=4, wins=3, losses=1, streak=2)
    stats = PlayerStats(
        standing, {Termination.CHARM: 2, Termination.TIMEOUT: 1}, {Termination.GEISHAS: 1}
    )
    shown = stats_text("en", stats, "ana")
    assert "Ways of winning — charm: 2 · geishas: 0 · timeout: 1" in shown
    assert "win rate 75%" in shown and "Current streak: 2 wins in a row" in shown
    assert (
        "Formas de ganar — carisma: 2 · favor de las geishas: 0 · tiempo agotado: 1"
        in stats_text("es", stats, "ana")
    )


def test_a_leaderboard_page_numbers_ranks_from_its_offset():
    page = LeaderboardPage((Standing(1, 5, Glicko2Rating(1600, 80), games=3, wins=3),), 10, 11)
    shown = leaderboard_text("en", page, min_games=3, page_size=10)
    assert shown.startswith("**11.** <@5> — **1600** · 3 matches, 100% won")
    assert shown.endswith("Page 2 of 2 · players with at least 3 rated matches")


def test_a_newcomers_stats_show_a_provisional_rating_with_its_legend():
    newcomer = Standing(
        1, 101, Glicko2Rating(1662.31, 290.3), games=1, wins=1, streak=1, last_change=162.31
    )
    shown = stats_text("en", PlayerStats(newcomer, {Termination.RESIGNATION: 1}, {}), "ana")
    assert shown.startswith("Rating: **1662?** (+162 in the last rated match)")
    assert shown.endswith("for about the first dozen rated matches.")
    assert "Valoración: **1662?**" in stats_text("es", PlayerStats(newcomer, {}, {}), "ana")


def test_a_settled_rating_has_no_mark_and_no_legend():
    settled = Standing(1, 101, Glicko2Rating(1544.4, 80), games=14, wins=8, losses=6)
    shown = stats_text("en", PlayerStats(settled, {}, {}), "ana")
    assert "Rating: **1544** (" in shown and "provisional" not in shown


def test_the_leaderboard_marks_provisional_ratings_and_explains_them_once():
    page = LeaderboardPage(
        (
            Standing(1, 5, Glicko2Rating(1720, 70), games=20, wins=15),
            Standing(1, 6, Glicko2Rating(1650, 180), games=3, wins=3),
        ),
        0,
        2,
    )
    shown = leaderboard_text("en", page, min_games=3, page_size=10)
    assert "**1.** <@5> — **1720** ·" in shown and "**2.** <@6> — **1650?** ·" in shown
    assert shown.count("provisional") == 1 and shown.endswith("rated matches.")
    settled_only = LeaderboardPage(page.entries[:1], 0, 1)
    assert "provisional" not in leaderboard_text("en", settled_only, min_games=3, page_size=10)
