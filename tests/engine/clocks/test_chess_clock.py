"""The clock's promises, for any sequence of decisions: a bank never goes below zero, never
gains time except by the increment, and the time used adds up to the time that passed."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.clocks.chess_clock
from engine.clocks import ChessClock

decisions = st.lists(st.tuples(st.integers(0, 1), st.floats(0, 3600)), max_size=60)


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(engine.clocks.chess_clock).failed == 0


@given(st.floats(1, 3600), st.floats(0, 60), decisions)
def test_banks_never_go_below_zero_nor_gain_more_than_the_increment(
    bank: float, increment: float, steps: list[tuple[int, float]]
):
    clock = ChessClock.start(bank, started_at=0.0)
    for seat, wait in steps:
        after = clock.charge(seat, clock.turn_started_at + wait, increment)
        assert min(after.banks) >= 0
        assert after.banks[seat] <= clock.banks[seat] + increment + 1e-9
        assert after.banks[seat] == pytest.approx(
            max(0.0, clock.banks[seat] - wait) + increment, abs=1e-6
        )
        assert after.banks[1 - seat] == clock.banks[1 - seat]
        clock = after


@given(st.floats(1, 3600), st.floats(0, 60), decisions)
def test_the_time_used_is_the_time_between_decisions(
    bank: float, increment: float, steps: list[tuple[int, float]]
):
    clock = ChessClock.start(bank, started_at=1000.0)
    for seat, wait in steps:
        clock = clock.charge(seat, clock.turn_started_at + wait, increment)
    assert abs(sum(clock.used) - (clock.turn_started_at - 1000.0)) <= 1e-6 * max(
        1.0, clock.turn_started_at
    )


@given(st.floats(1, 3600), decisions)
def test_replay_is_the_same_as_charging_one_by_one(bank: float, steps: list[tuple[int, float]]):
    at, stamped, clock = 0.0, [], ChessClock.start(bank, 0.0)
    for seat, wait in steps:
        at += wait
        stamped.append((seat, at))
        clock = clock.charge(seat, at, 5.0)
    assert ChessClock.replay(bank, 5.0, 0.0, stamped) == clock


def test_the_running_seat_loses_time_while_the_other_does_not():
    clock = ChessClock.start(60.0, started_at=0.0)
    assert clock.left(0, now=45.0) == 15.0
    assert clock.left(0, now=90.0) == 0.0
    assert clock.left(1, now=90.0, running=False) == 60.0
