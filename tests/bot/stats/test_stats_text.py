"""The words of stats, leaderboard and history (:mod:`bot.stats.words`), in English and
Spanish."""

from __future__ import annotations

from bot.stats.words import leaderboard_text, stats_text
from engine.ratings import Glicko2Rating, LeaderboardPage, PlayerStats, Standing, ranked_page
from engine.rules.outcome import Termination


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


def ranked(entries: tuple[Standing, ...], offset: int, total: int):
    """The page as the engine ranks it, with the default minimum of 3 rated matches."""
    return ranked_page(LeaderboardPage(entries, offset, total), min_games=3)


def test_a_leaderboard_page_shows_the_engines_ranks_and_minimum():
    page = ranked((Standing(1, 5, Glicko2Rating(1600, 80), games=3, wins=3),), 10, 11)
    shown = leaderboard_text("en", page, page_size=10)
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
    page = ranked(
        (
            Standing(1, 5, Glicko2Rating(1720, 70), games=20, wins=15),
            Standing(1, 6, Glicko2Rating(1650, 180), games=3, wins=3),
        ),
        0,
        2,
    )
    shown = leaderboard_text("en", page, page_size=10)
    assert "**1.** <@5> — **1720** ·" in shown and "**2.** <@6> — **1650?** ·" in shown
    assert shown.count("provisional") == 1 and shown.endswith("rated matches.")
    settled_only = ranked((page.entries[0].standing,), 0, 1)
    assert "provisional" not in leaderboard_text("en", settled_only, page_size=10)


def test_an_empty_leaderboard_says_the_engines_minimum():
    empty = ranked_page(LeaderboardPage((), 0, 0), min_games=5)
    assert "5" in leaderboard_text("en", empty, page_size=10)
