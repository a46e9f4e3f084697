"""The board says the match's time control without an edit per second (Discord's
timestamps count down): the per-turn timer, both clocks, a turn-based match's days, its
overdue turn and the claim (with its three buttons only once offered), a vacation."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.play.ai_turn_button import AiTurnButton
from bot.play.board import board_page
from bot.play.claim_button import ClaimButton
from bot.play.time_words import TurnTime, bank_text, time_lines
from bot.play.wait_button import WaitButton
from bot.play.words import board_text
from engine.clocks import TimeControl
from engine.model import MatchStatus
from engine.rules import new_game, public_view
from tests.builders import match_info

ANA, BOB = 11, 12
NAMES = ("ana", "bob")
TABLE = public_view(new_game(seed=2))
CHOICES = (ClaimButton, AiTurnButton, WaitButton)


def info(control: TimeControl, **changes: object):
    base = match_info(
        7,
        (ANA, BOB),
        MatchStatus.ACTIVE,
        pace=control.pace,
        turn_seconds=control.seconds,
        increment_seconds=control.increment,
        to_move=ANA,
    )
    return replace(base, **changes)


def kinds(page) -> list[type]:
    return [type(item) for row in page.rows for item in row]


def test_a_per_turn_timer_reads_as_before():
    shown = time_lines(
        "en", TurnTime.of(info(TimeControl.per_turn(60), turn_deadline=1.9e9)), NAMES
    )
    assert shown == ["⏳ The turn ends <t:1900000000:R>."]
    plain = board_text("en", TABLE, NAMES, deadline=1.9e9)
    timed = board_text(
        "en",
        TABLE,
        NAMES,
        deadline=1.9e9,
        time=TurnTime.of(info(TimeControl.per_turn(60), turn_deadline=1.9e9)),
    )
    assert plain == timed, "per-turn boards (the golden transcripts) do not change"


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(272.9, "4:32"), (300, "5:00"), (5, "0:05"), (0, "0:00"), (-3, "0:00"), (3725, "1:02:05")],
)
def test_a_bank_reads_as_minutes_and_seconds(seconds, shown):
    assert bank_text(seconds) == shown


def test_a_clock_shows_both_banks_the_increment_and_when_the_movers_runs_out():
    control = TimeControl.clock(5, 5)
    shown = time_lines(
        "en",
        TurnTime.of(info(control, banks=(272.4, 300.0), turn_deadline=2_000_000_272.4)),
        NAMES,
    )
    assert shown == ["⏱ clock 5+5: ana 4:32 · bob 5:00 — ana's clock runs out <t:2000000272:R>"]
    es = time_lines(
        "es", TurnTime.of(info(control, banks=(272.4, 300.0), turn_deadline=2e9)), NAMES
    )
    assert es == ["⏱ reloj 5+5: ana 4:32 · bob 5:00 — el reloj de ana se agota <t:2000000000:R>"]


def test_a_clock_without_banks_yet_shows_its_full_banks():
    shown = time_lines("en", TurnTime.of(info(TimeControl.clock(3, 2), turn_deadline=2e9)), NAMES)
    assert shown[0].startswith("⏱ clock 3+2: ana 3:00 · bob 3:00 — ")


def test_turn_based_says_the_days_and_until_when():
    shown = time_lines("en", TurnTime.of(info(TimeControl.days(2), turn_deadline=2e9)), NAMES)
    assert shown == ["📅 2 days a move — ana has until <t:2000000000:f> (<t:2000000000:R>)"]
    one = time_lines("es", TurnTime.of(info(TimeControl.days(1), turn_deadline=2e9)), NAMES)
    assert one == ["📅 1 día por jugada — ana tiene hasta <t:2000000000:f> (<t:2000000000:R>)"]


def test_an_overdue_turn_in_its_grace_says_when_the_claim_comes():
    late = info(TimeControl.days(2), overdue_since=1.9e9, turn_deadline=2e9)
    assert time_lines("en", TurnTime.of(late), NAMES) == [
        "📅 ana's days ran out — bob may claim the win <t:2000000000:R>"
    ]


def test_an_offered_claim_names_the_three_choices():
    offered = info(TimeControl.days(2), overdue_since=1.9e9, turn_deadline=None)
    assert time_lines("en", TurnTime.of(offered), NAMES) == [
        "📅 ana's days ran out — bob may claim the win, let the AI play this turn, or keep waiting"
    ]
    assert TurnTime.of(offered).claim_offered


def test_a_vacation_says_until_when():
    away = info(TimeControl.days(2), paused_until=1.95e9, turn_deadline=1.95e9 + 172800)
    shown = time_lines("en", TurnTime.of(away), NAMES)
    assert shown[0] == "🏖 ana is on vacation until <t:1950000000:D>"
    assert shown[1].startswith("📅 2 days a move — ana has until <t:1950172800:f>")


async def test_the_three_buttons_are_on_the_board_only_once_the_claim_is_offered():
    control = TimeControl.days(2)
    offered = TurnTime.of(info(control, overdue_since=1.9e9, turn_deadline=None))
    page = await board_page("en", 7, TABLE, NAMES, ai_seat=None, time=offered)
    assert kinds(page)[:3] == list(CHOICES)
    first_row = page.rows[0]
    assert [item.item.label for item in first_row] == [  # type: ignore[attr-defined]
        "Claim the win",
        "Let the AI play",
        "Keep waiting",
    ]
    assert [item.custom_id for item in first_row] == [
        f"hk:7:{TABLE.version}:claim",
        f"hk:7:{TABLE.version}:letai",
        f"hk:7:{TABLE.version}:wait",
    ]
    assert "bob may claim the win, let the AI play" in page.text
    for time in (
        TurnTime.of(info(control, turn_deadline=2e9)),
        TurnTime.of(info(control, overdue_since=1.9e9, turn_deadline=2e9)),
        TurnTime.of(info(TimeControl.clock(5, 5), turn_deadline=2e9)),
        None,
    ):
        page = await board_page("en", 7, TABLE, NAMES, ai_seat=None, deadline=2e9, time=time)
        assert not set(kinds(page)) & set(CHOICES)


async def test_a_finished_match_shows_no_time_and_no_choices():
    game = new_game(seed=2)
    rng = random.Random(1)
    while game.outcome is None:
        game.apply(rng.choice(game.legal_decisions()))
    offered = TurnTime.of(info(TimeControl.days(2), overdue_since=1.9e9, turn_deadline=None))
    page = await board_page("en", 7, public_view(game), NAMES, ai_seat=None, time=offered)
    assert "days ran out" not in page.text
    assert not set(kinds(page)) & set(CHOICES)


async def test_against_the_ai_an_overdue_turn_offers_nothing_and_says_the_ai_waits():
    """The AI never claims a win nor chooses: its human's overdue turn only waits."""
    overdue = match_info(
        7,
        (ANA, 0),
        MatchStatus.ACTIVE,
        pace=TimeControl.days(1).pace,
        turn_seconds=TimeControl.days(1).seconds,
        to_move=ANA,
        overdue_since=1.9e9,
        turn_deadline=None,
        ai_level="normal",
    )
    time = TurnTime.of(overdue)
    assert not time.claim_offered
    assert time_lines("en", time, ("ana", "AI")) == [
        "📅 ana's days ran out — the AI waits for them (it never claims a win)"
    ]
    page = await board_page("en", 7, TABLE, ("ana", "AI"), ai_seat=1, time=time)
    assert not set(kinds(page)) & set(CHOICES)
