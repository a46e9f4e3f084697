"""The words of a season's leaderboard and of the season lines under `/hanamikoji stats`,
in English and Spanish."""

from __future__ import annotations

from bot.seasons.words import ended_text
from bot.stats.words import member_seasons_text, season_leaderboard_text
from engine.model import SeasonLength
from engine.ratings import Glicko2Rating
from engine.seasons import BestSeason, MemberSeasons, Season, SeasonEnded, SeasonPage
from engine.seasons import SeasonStanding as Line

RUNNING = Season(1, 4, 1_000.0, 2_000.0, SeasonLength.MONTHLY)
SETTLED = Glicko2Rating(1612.4, 80.0)


def test_a_member_below_the_minimum_is_told_how_many_matches_they_have():
    seasons = MemberSeasons(RUNNING, Line(7, SETTLED, 2, 1, 1, 0, None), 5, None)
    assert member_seasons_text("en", seasons) == [
        "Season 4: 2 of the 5 rated matches needed to be ranked · 1 won"
    ]


def test_a_ranked_member_sees_their_rank_and_best_season():
    seasons = MemberSeasons(
        RUNNING, Line(7, SETTLED, 6, 5, 1, 0, 2), 5, BestSeason(number=3, rank=1, rating=1701.6)
    )
    assert member_seasons_text("en", seasons) == [
        "Season 4: **1612** · rank 2 · 6 rated matches, 5 won",
        "Best season: rank 1 in season 3 (1702)",
    ]
    assert member_seasons_text("es", seasons)[1] == (
        "Mejor temporada: puesto 1 en la temporada 3 (1702)"
    )


def test_a_server_without_seasons_adds_nothing_to_stats():
    assert member_seasons_text("en", MemberSeasons(None, None, 5, None)) == []


def test_a_season_leaderboard_says_its_state_and_who_is_ranked():
    page = SeasonPage(RUNNING, (Line(7, SETTLED, 6, 3, 3, 0, 1),), 0, 1, 5)
    shown = season_leaderboard_text("en", page, 10)
    assert shown.startswith("Running · it ends <t:2000:f>.")
    assert "**1.** <@7> — **1612** · 6 matches, 50% won" in shown
    assert "Page 1 of 1 · ranked after 5 rated matches in the season" in shown
    ended = SeasonPage(Season(1, 3, 0.0, None, ended_at=900.0), (), 0, 0, 5)
    assert season_leaderboard_text("es", ended, 10) == (
        "Terminó <t:900:f>.\n\nNadie ha jugado aún 5 partidas puntuadas en esta temporada."
    )


def test_ending_by_hand_says_where_the_podium_goes_and_what_follows():
    following = Season(1, 5, 1_500.0, 2_000.0, SeasonLength.MONTHLY)
    ended = SeasonEnded(Season(1, 4, 1_000.0, None, ended_at=1_500.0), (), 55, following)
    assert ended_text("en", ended) == (
        "Season 4 has ended; its podium is announced in <#55>. "
        "Season 5 has started; it ends <t:2000:f>."
    )
    nowhere = SeasonEnded(ended.season, (), None, None)
    assert ended_text("en", nowhere).startswith("Season 4 has ended. No channel is chosen")
    assert ended_text("en", nowhere).endswith(
        "No new season starts by itself (season length: off)."
    )
