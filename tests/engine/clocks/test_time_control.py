from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.clocks.time_control
from engine.clocks import DAY_SECONDS, BadTimeControl, Pace, TimeControl


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(engine.clocks.time_control).failed == 0


@pytest.mark.parametrize(
    "control",
    [
        TimeControl.per_turn(90),
        TimeControl.clock(5, 5),
        TimeControl.clock(0.5, 0),
        TimeControl.days(3),
    ],
)
def test_a_code_reads_back_as_the_same_control(control: TimeControl):
    assert TimeControl.parse(control.code) == control


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("", "not 'turn:<seconds>'"),
        ("clock:300", "a clock is"),
        ("days:0", "more than 0 seconds"),
        ("days:8", "1 to 7 whole days"),
        ("days:1.5", "whole days"),
        ("turn:0", "more than 0 seconds"),
        ("turn:-5", "not 'turn:<seconds>'"),
    ],
)
def test_a_bad_code_is_refused_quoting_it(code: str, said: str):
    with pytest.raises(BadTimeControl) as refused:
        TimeControl.parse(code)
    assert repr(code) in str(refused.value) and said in str(refused.value)


def test_only_a_clock_has_an_increment():
    with pytest.raises(BadTimeControl, match="only a clock"):
        TimeControl(Pace.DAYS, DAY_SECONDS, 5)


@given(st.floats(0, 1e9), st.floats(0, 1e6))
def test_a_turn_based_deadline_waits_out_a_vacation(now: float, pause: float):
    control = TimeControl.days(2)
    assert control.next_deadline(now, 0, paused_until=now + pause) == now + pause + 2 * DAY_SECONDS
    assert control.next_deadline(now, 0, paused_until=now - 1) == now + 2 * DAY_SECONDS


def test_the_reminder_comes_at_most_half_a_turn_early():
    assert TimeControl.per_turn(60).reminder_lead(3600) == 30
    assert TimeControl.days(1).reminder_lead(3600) == 3600
