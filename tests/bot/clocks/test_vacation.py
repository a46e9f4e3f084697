"""`/hanamikoji vacation`: see the days left, start a vacation, end it early; each answer
private and in the member's words, refusals too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from bot.clocks.deps import ClocksDeps
from bot.clocks.words import vacation_refusal, vacation_text
from bot.words.refusals import REFUSED, refusal_text
from engine.clocks import BadVacation, Vacation, VacationAllowance
from engine.service.matches.vacations import NoVacation, VacationStatus
from tests.bot.clocks.test_games import ME, answer, asked_by, command
from tests.bot.fakes import FakeNames

DAY = 86400.0
NOW = 1_700_000_000.0
"""14 November 2023: a past vacation that month counts in the same year."""
PAST = NOW - 30 * DAY


@dataclass
class FakeVacations:
    """A member's vacations as the engine keeps them, at ``NOW``, with ``per_year`` days."""

    per_year: int = 14
    taken: list[Vacation] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)

    async def status(self, guild_id: int, user_id: int) -> VacationStatus:
        allowance = VacationAllowance(self.per_year)
        current = next((v for v in self.taken if v.is_on(NOW)), None)
        return VacationStatus(current, allowance.days_left(self.taken, NOW), self.per_year)

    async def take(self, guild_id: int, user_id: int, days: int) -> VacationStatus:
        self.calls.append(f"take {days}")
        vacation = VacationAllowance(self.per_year).take(self.taken, days, NOW)
        self.taken.append(vacation)
        status = await self.status(guild_id, user_id)
        return VacationStatus(vacation, status.days_left, self.per_year, paused=2)

    async def end(self, guild_id: int, user_id: int) -> VacationStatus:
        self.calls.append("end")
        status = await self.status(guild_id, user_id)
        if status.current is None:
            raise NoVacation(user_id)
        self.taken = [Vacation(v.starts_at, NOW) if v.is_on(NOW) else v for v in self.taken]
        left = (await self.status(guild_id, user_id)).days_left
        return VacationStatus(None, left, self.per_year, paused=1)


def deps(vacations: FakeVacations) -> ClocksDeps:
    return ClocksDeps(cast(Any, None), cast(Any, vacations), cast(Any, FakeNames()))


async def ask(vacations: FakeVacations, locale: str = "en-US", **options: Any) -> str:
    asking = asked_by(ME, locale=locale)
    await command(deps(vacations), "vacation").callback(asking, **options)
    return str(answer(asking)["content"])


async def test_with_no_option_it_shows_the_days_left():
    said = await ask(FakeVacations(taken=[Vacation(PAST, PAST + 3 * DAY)]))
    assert said.startswith("You are not on vacation. 11 of your 14 vacation days are left")


async def test_a_vacation_starts_and_says_until_when_and_what_is_left():
    vacations = FakeVacations()
    said = await ask(vacations, days=3)
    until = int(NOW + 3 * DAY)
    assert said.startswith(
        f"Your vacation has begun: your turn-based matches wait for you "
        f"until <t:{until}:f> (turns paused: 2)"
    )
    assert said.endswith("11 of your 14 vacation days are left this year.")
    assert vacations.calls == ["take 3"]
    shown = await ask(vacations)
    assert f"You are on vacation until <t:{until}:f> (<t:{until}:R>)" in shown


async def test_ending_early_gives_the_days_back():
    vacations = FakeVacations(taken=[Vacation(NOW - DAY, NOW + 4 * DAY)])
    said = await ask(vacations, end=True)
    assert said.startswith("Welcome back: your vacation is over")
    assert "(turns resumed: 1). 13 of your 14" in said


async def test_ending_when_not_on_vacation_is_the_groups_refusal():
    with pytest.raises(NoVacation) as refused:
        await ask(FakeVacations(), end=True)
    assert isinstance(refused.value, REFUSED)
    assert refusal_text("en", refused.value) == (
        "You are not on vacation, so there is nothing to end."
    )
    assert refusal_text("es", refused.value).startswith("No estás de vacaciones")


@pytest.mark.parametrize(
    ("vacations", "days", "expected"),
    [
        (
            FakeVacations(taken=[Vacation(PAST, PAST + 12 * DAY)]),
            5,
            "You asked for 5 days, but only 2 of your 14 vacation days are left this year.",
        ),
        (
            FakeVacations(taken=[Vacation(NOW - DAY, NOW + DAY)]),
            2,
            f"You are already on vacation until <t:{int(NOW + DAY)}:f>. End it with "
            "`/hanamikoji vacation end:True` before starting another.",
        ),
        (FakeVacations(per_year=0), 1, "This server allows no vacation days."),
    ],
)
async def test_a_vacation_refused_says_why_in_words(vacations, days, expected):
    assert await ask(vacations, days=days) == expected


def test_refusals_read_in_spanish_too():
    status = VacationStatus(None, 2.0, 14)
    assert vacation_refusal("es", status, 5) == (
        "Pediste 5 días, pero solo te quedan 2 de tus 14 días de vacaciones este año."
    )
    assert vacation_text("es", status).startswith("No estás de vacaciones. Te quedan 2 de")
    bad = BadVacation("5 days: only 2 of 14 are left this year")
    assert isinstance(bad, REFUSED) and "only 2 of 14" in refusal_text("en", bad)


def test_days_left_read_whole_or_to_a_tenth():
    assert "2.5 of your 14" in vacation_text("en", VacationStatus(None, 2.5, 14))
    # A vacation ended early gives back a sum of floats: read as the whole days it is.
    assert "14 of your 14" in vacation_text("en", VacationStatus(None, 13.999999999, 14))
