"""`/hanamikoji stats` says how often the member sees their matches through, or how far
they are from having a reliability at all."""

from __future__ import annotations

import pytest

from bot.stats.words import reliability_text, stats_text
from engine.ratings import Glicko2Rating, PlayerStats, Reliability, Standing


def test_a_rated_reliability_reads_its_percent_and_counts():
    assert reliability_text("en", Reliability(finished=24, abandoned=1)) == (
        "Reliability: **96%** (24 finished, 1 abandoned)"
    )
    assert reliability_text("es", Reliability(finished=24, abandoned=1)) == (
        "Fiabilidad: **96%** (24 terminadas, 1 abandonadas)"
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Reliability: not yet rated: 3 of 5 matches"),
        ("es", "Fiabilidad: aún sin calcular: 3 de 5 partidas"),
    ],
)
def test_below_five_matches_it_is_not_yet_rated(lang, expected):
    assert reliability_text(lang, Reliability(finished=2, abandoned=1)) == expected


def test_the_stats_carry_the_line_before_the_provisional_legend():
    standing = Standing(1, 101, Glicko2Rating(1544.4, 80), games=25, wins=14, losses=11)
    stats = PlayerStats(standing, {}, {}, reliability=Reliability(24, 1))
    assert stats_text("en", stats, "ana").splitlines()[-1] == (
        "Reliability: **96%** (24 finished, 1 abandoned)"
    )
