"""Ratings in words (:mod:`bot.words.ratings`): a change, and the match-end line of both
players' changes, in English and Spanish."""

from __future__ import annotations

from bot.words.ratings import rating_changes_text, signed_change
from engine.ratings import RatingChange


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
