"""The timer queue behind every match's alarm: replaced alarms ring once, at the new time."""

from __future__ import annotations

from engine.service import ManualClock
from engine.service.scheduling.timers import MatchTimers

from .conftest import START


async def test_only_the_latest_alarm_of_a_match_rings_and_at_its_own_time():
    clock = ManualClock(START)
    rang: list[tuple[float, int, str]] = []
    timers: MatchTimers[str] = MatchTimers(clock, lambda m, a: rang.append((clock.now(), m, a)))
    timers.set(1, START + 50, "first")
    timers.set(2, START + 30, "other match")
    timers.set(1, START + 80, "replaced")  # a decision re-armed match 1

    await clock.advance(100)

    assert rang == [(START + 30, 2, "other match"), (START + 80, 1, "replaced")]
    assert len(timers) == 0


async def test_an_earlier_alarm_wakes_the_queue_sooner_and_cleared_ones_stay_silent():
    clock = ManualClock(START)
    rang: list[int] = []
    timers: MatchTimers[str] = MatchTimers(clock, lambda m, a: rang.append(m))
    timers.set(1, START + 100, "late")
    await clock.advance(1)
    timers.set(2, START + 10, "early")
    timers.set(3, START + 20, "cleared")
    timers.clear(3)

    await clock.advance(9)
    assert rang == [2]
    await clock.advance(100)
    assert rang == [2, 1]


async def test_many_replacements_keep_the_queue_small():
    clock = ManualClock(START)
    rang: list[int] = []
    timers: MatchTimers[int] = MatchTimers(clock, lambda m, a: rang.append(a))
    for version in range(10_000):
        timers.set(version % 10, START + 1000 + version, version)

    assert len(timers._heap) < 200
    await clock.advance(20_000)
    assert sorted(rang) == list(range(9990, 10_000))
