from __future__ import annotations

import doctest

import pytest

import engine.clocks.vacation
from engine.clocks import DAY_SECONDS, BadVacation, Vacation, VacationAllowance

JAN_2026 = 1767225600.0  # 2026-01-01 00:00 UTC


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(engine.clocks.vacation).failed == 0


def test_the_allowance_is_counted_per_calendar_year():
    allowance = VacationAllowance(10)
    last_year = Vacation(JAN_2026 - 20 * DAY_SECONDS, JAN_2026 - 12 * DAY_SECONDS)
    this_year = Vacation(JAN_2026 + DAY_SECONDS, JAN_2026 + 4 * DAY_SECONDS)
    assert allowance.days_left([last_year, this_year], JAN_2026 + 30 * DAY_SECONDS) == 7


def test_a_vacation_ended_early_gives_back_the_days_not_taken():
    allowance = VacationAllowance(10)
    ended_early = Vacation(JAN_2026, JAN_2026 + 1.5 * DAY_SECONDS)
    assert allowance.days_left([ended_early], JAN_2026 + 5 * DAY_SECONDS) == 8.5


@pytest.mark.parametrize(
    ("days", "said"), [(0, "0 days: a vacation is at least 1 day"), (11, "11 days: only 10")]
)
def test_a_vacation_out_of_the_allowance_is_refused(days: int, said: str):
    with pytest.raises(BadVacation, match=said):
        VacationAllowance(10).take([], days, JAN_2026)


def test_one_vacation_at_a_time():
    first = VacationAllowance(10).take([], 2, JAN_2026)
    with pytest.raises(BadVacation, match="already under way"):
        VacationAllowance(10).take([first], 2, JAN_2026 + 3600)
