"""A challenge or seat with a clock or days a move says so; a seat asking a reliability
says how much; the new refusals read in both languages."""

from __future__ import annotations

import pytest

from bot.challenge.words import invitation
from bot.tournaments.words import tournament_refusal
from bot.words.i18n import text
from bot.words.refusals import REFUSED, refusal_text
from engine.clocks import BadTimeControl, Pace, TimeControl
from engine.model import OPEN_SEAT
from engine.service.challenges.errors import NotReliableEnough
from engine.service.matches.errors import ClaimNotOffered
from tests.builders import match_info


def test_a_per_turn_challenge_reads_as_before():
    challenge = match_info(7, (101, 202), challenge_expires_at=1000.0, turn_seconds=86400.0)
    assert "turn timer: **1 day**" in (invitation("en", challenge, ("a", "b")).description or "")


@pytest.mark.parametrize(
    ("lang", "clock", "days"),
    [
        ("en", "time: **clock 5+5**", "time: **2 days a move**"),
        ("es", "tiempo: **reloj 5+5**", "tiempo: **2 días por jugada**"),
    ],
)
def test_a_clock_or_days_challenge_names_its_time(lang, clock, days):
    control = TimeControl.clock(5, 5)
    clocked = match_info(
        7,
        (101, 202),
        challenge_expires_at=1000.0,
        pace=control.pace,
        turn_seconds=control.seconds,
        increment_seconds=control.increment,
    )
    assert clock in (invitation(lang, clocked, ("a", "b")).description or "")
    seat = match_info(
        8,
        (101, OPEN_SEAT),
        challenge_expires_at=1000.0,
        pace=Pace.DAYS,
        turn_seconds=2 * 86400.0,
        min_reliability=80,
    )
    body = invitation(lang, seat, ("a", "-")).description or ""
    assert days in body and "80%" in body.splitlines()[-1]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_new_refusals_have_their_own_words(lang):
    errors = [
        NotReliableEnough(5, 60, 80),
        ClaimNotOffered(7, 5),
        BadTimeControl("clock:5", "a clock is 'clock:<seconds>+<increment>'"),
    ]
    said = [refusal_text(lang, error) for error in errors]
    assert all(isinstance(error, REFUSED) for error in errors)
    assert text(lang, "refusal.wrong") not in said and len(set(said)) == len(said)
    assert "80%" in said[0] and "60%" in said[0]


def test_the_reliability_refusal_reads_as_asked():
    assert refusal_text("en", NotReliableEnough(5, 60, 80)) == (
        "This seat asks for 80% reliability; yours is 60%."
    )
    assert tournament_refusal("en", NotReliableEnough(5, 60, 80)) == (
        "This tournament asks for 80% reliability; yours is 60%."
    )
    assert refusal_text("es", NotReliableEnough(5, 60, 80)) == (
        "Esta plaza pide un 80% de fiabilidad; la tuya es del 60%."
    )
