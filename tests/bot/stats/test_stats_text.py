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
    page = LeaderboardPage((Standing(1, 5, Glicko2Rating(1600), games=3, wins=3),), 10, 11)
    shown = leaderboard_text("en", page, min_games=3, page_size=10)
    assert shown.startswith("**11.** <@5> — **1600** · 3 matches, 100% won")
    assert shown.endswith("Page 2 of 2 · players with at least 3 rated matches")
