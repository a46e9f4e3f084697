"""Ratings in words, wherever they show: a rating (``1544``, or ``1662?`` while provisional)
and the legend of ``?``, a change (``+12``, ``−12``), and the match-end line of both
players' changes. Plain strings from engine values (no discord.py here).

A provisional rating (:attr:`engine.ratings.Glicko2Rating.is_provisional`) reads ``1662?``,
with a legend under whatever shows one.
"""

from __future__ import annotations

from bot.words.i18n import text
from engine.ratings import Glicko2Rating, RatingChange

MINUS = "\N{MINUS SIGN}"
PROVISIONAL_MARK = "?"


def rating_number(rating: float) -> str:
    return str(round(rating))


def rating_text(rating: Glicko2Rating) -> str:
    """``1544``, or ``1662?`` while the rating is provisional."""
    mark = PROVISIONAL_MARK if rating.is_provisional else ""
    return rating_number(rating.rating) + mark


def provisional_legend(lang: str) -> str:
    return text(lang, "stats.provisional_legend")


def signed_change(change: float) -> str:
    """``+12``, ``−12`` (a real minus sign) or ``±0``, rounded as the rating is shown."""
    points = round(change)
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "±0"


def rating_changes_text(
    lang: str,
    changes: tuple[RatingChange, RatingChange],
    names: tuple[str, str],
    provisional: tuple[bool, bool] = (False, False),
) -> str:
    """``Ratings: ana 1662? (+162) · ben 1338? (−162)``, seat 0 first; ``provisional[seat]``
    marks a rating still provisional after the match, and brings the legend on a new line."""
    entries = [
        text(
            lang,
            "stats.rating_change_entry",
            name=names[change.seat],
            rating=rating_number(change.after)
            + (PROVISIONAL_MARK if provisional[change.seat] else ""),
            change=signed_change(change.delta),
        )
        for change in sorted(changes, key=lambda c: c.seat)
    ]
    line = text(lang, "stats.rating_changes", first=entries[0], second=entries[1])
    return f"{line}\n{provisional_legend(lang)}" if any(provisional) else line
