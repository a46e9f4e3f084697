"""What a member reads about challenges and open seats, in both languages: refusals and the
challenge message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.challenge.words import expired, invitation
from bot.words.i18n import text
from bot.words.refusals import refusal_text
from engine.model import OPEN_SEAT, MatchStatus
from engine.service import CannotJoinOwnSeat, SeatAlreadyOpen, SeatClosed, SeatTaken
from tests.builders import match_info

SEAT_REFUSALS = [
    CannotJoinOwnSeat(7, 101),
    SeatTaken(7),
    SeatClosed(7, MatchStatus.EXPIRED),
    SeatClosed(7, MatchStatus.CANCELLED),
    SeatClosed(7, MatchStatus.ABANDONED),
    SeatAlreadyOpen(101, 555, 7),
]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_seat_refusal_has_its_own_words(lang):
    said = [refusal_text(lang, error) for error in SEAT_REFUSALS]
    assert text(lang, "refusal.wrong") not in said
    # Cancelled and abandoned both read "no longer open"; every other refusal is its own.
    assert len(set(said)) == len(said) - 1
    assert "<#555>" in said[-1], "a second seat points at the channel of the first"


@pytest.mark.parametrize(
    ("lang", "rated", "unrated"), [("en", "rated", "unrated"), ("es", "puntuable", "no puntuable")]
)
def test_the_seat_message_says_who_waits_and_whether_it_is_rated(lang, rated, unrated):
    seat = match_info(7, (101, OPEN_SEAT), challenge_expires_at=1000.0)
    shown = invitation(lang, seat, ("ana", "-"))
    assert "ana" in (shown.title or "") and "<t:1000:R>" in (shown.description or "")
    assert f"· {rated}\n" in (shown.description or "")
    friendly = invitation(lang, replace(seat, rated=False), ("ana", "-"))
    assert f"· {unrated}\n" in (friendly.description or "")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_challenge_names_its_opponent_and_a_seat_its_host_alone(lang):
    challenge = match_info(7, (101, 202), challenge_expires_at=1000.0)
    named = invitation(lang, challenge, ("ana", "ben"), "<@202>")
    assert "ana" in (named.title or "") and "ben" in (named.title or "")
    assert "<@202>" in (named.description or "") and "<t:1000:R>" in (named.description or "")
    seat = replace(challenge, players=(101, OPEN_SEAT))
    anyone = ("ana", "SEAT-1")
    shown = invitation(lang, seat, anyone)
    assert "ana" in (shown.title or "") and "<t:1000:R>" in (shown.description or "")
    assert "SEAT-1" not in f"{shown.title}{shown.description}"
    # Both expire alike; a seat keeps its own title, as no match came of it.
    assert expired(lang, seat, anyone).title == shown.title
    assert "ben" in (expired(lang, challenge, ("ana", "ben")).description or "")
