"""The service's one alarm clock, on a manual clock: memory alarms ring once, in order, at
their latest time, from one sleeping task; stored alarms run their handler once when due
(in one process of several), are tried again later after a failure, and ring at start-up
when they fell due while nothing ran."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from engine.service import ManualClock, ServiceConfig
from engine.service.context import ServiceContext
from engine.service.scheduling.alarm_clock import POLL_SECONDS, RETRY_SECONDS, MemoryAlarms
from engine.store.alarm import Alarm
from engine.store.match_store import MatchStore
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore

from .conftest import START

KIND = "test-ring"
"""A kind of stored alarm no feature handles: the tests' own."""

Clocks = Callable[..., Awaitable[ServiceContext]]


class Rings:
    """A stored alarm's handler that keeps what it was handed and when; it fails while
    ``failures`` lasts, and can set its alarm again (``again_after``) the first time."""

    def __init__(self, clock: ManualClock, context: ServiceContext, failures: int = 0) -> None:
        self.clock = clock
        self.context = context
        self.failures = failures
        self.again_after: float | None = None
        self.heard: list[tuple[float, Alarm]] = []

    async def __call__(self, alarm: Alarm) -> None:
        self.heard.append((self.clock.now(), alarm))
        if self.again_after is not None:
            later, self.again_after = self.clock.now() + self.again_after, None
            await self.context.alarms.set([Alarm(alarm.kind, alarm.subject, later)])
        if self.failures:
            self.failures -= 1
            raise RuntimeError("the handler's work failed")

    @property
    def times(self) -> list[float]:
        return [at - START for at, _ in self.heard]

    @property
    def attempts(self) -> list[int]:
        return [alarm.attempt for _, alarm in self.heard]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture(params=["sqlite", "postgres"])
async def processes(
    request: pytest.FixtureRequest, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[Clocks]:
    """Start the alarm clocks of "processes" sharing one database (SQLite file or
    PostgreSQL), on one manual clock; each is stopped at the end."""
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        make_store: Callable[[str], MatchStore] = lambda origin: PostgresMatchStore(  # noqa: E731
            url, origin=origin
        )
    else:
        path = str(tmp_path / "alarms.sqlite3")
        make_store = lambda origin: SqliteMatchStore(path)  # noqa: E731
    running: list[ServiceContext] = []

    async def start(name: str = "one", *, before: list[Alarm] | None = None) -> ServiceContext:
        store = make_store(name)
        await store.open()
        if before:
            await store.set_alarms(before)  # set while no alarm clock ran
        context = ServiceContext(store, ServiceConfig(), clock, random.Random(0))
        context.started = True
        running.append(context)
        return context

    yield start
    for context in running:
        context.closed = True
        await context.alarms.close()
        await context.finish_work(5.0)
        await context.store.close()


async def idle(*contexts: ServiceContext) -> None:
    """Let every process finish what its alarms started (one's work may wake another's)."""
    for _ in range(2):
        for context in contexts:
            for _ in range(3):
                await asyncio.sleep(0)
            while busy := context.busy_tasks():
                await asyncio.wait(busy)


async def advance(clock: ManualClock, seconds: float, *contexts: ServiceContext) -> None:
    """Move the clock on once the processes are idle (a poll still asking the database
    would miss the steps), stepping through every wake."""
    await idle(*contexts)
    await clock.advance(seconds, settle=lambda: idle(*contexts))


# -- memory alarms --------------------------------------------------------------------------


@pytest.fixture
async def memory_clock(clock: ManualClock, tmp_path: Path) -> AsyncIterator[ServiceContext]:
    """A started alarm clock with no stored alarm: only memory alarms ring."""
    store = SqliteMatchStore(str(tmp_path / "memory.sqlite3"))
    await store.open()
    context = ServiceContext(store, ServiceConfig(), clock, random.Random(0))
    context.started = True
    await context.alarms.start()
    yield context
    context.closed = True
    await context.alarms.close()
    await store.close()


async def test_only_the_latest_alarm_of_a_key_rings_and_at_its_own_time(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    rang: list[tuple[float, int, str]] = []
    alarms: MemoryAlarms[str] = memory_clock.alarms.memory(
        lambda key, note: rang.append((clock.now(), key, note))
    )
    alarms.set(1, START + 50, "first")
    alarms.set(2, START + 30, "other match")
    alarms.set(1, START + 80, "replaced")  # a decision re-armed match 1

    await clock.advance(100)

    assert rang == [(START + 30, 2, "other match"), (START + 80, 1, "replaced")]
    assert len(alarms) == 0


async def test_an_earlier_alarm_wakes_the_clock_sooner_and_cleared_ones_stay_silent(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    rang: list[int] = []
    alarms: MemoryAlarms[str] = memory_clock.alarms.memory(lambda key, note: rang.append(key))
    alarms.set(1, START + 100, "late")
    await clock.advance(1)
    alarms.set(2, START + 10, "early")
    alarms.set(3, START + 20, "cleared")
    alarms.clear(3)

    await clock.advance(9)
    assert rang == [2]
    await clock.advance(100)
    assert rang == [2, 1]


async def test_an_alarm_set_for_a_time_already_past_rings_at_once(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    rang: list[float] = []
    alarms: MemoryAlarms[str] = memory_clock.alarms.memory(
        lambda key, note: rang.append(clock.now())
    )
    alarms.set(1, START - 5, "late already")
    assert rang == [START]  # rung in the call, not one clock step later


async def test_a_ring_may_set_the_next_alarm_of_its_key(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    # As a reminder sets its match's deadline: the next ring of the same key, from a ring.
    rang: list[tuple[float, str]] = []

    def ring(key: int, note: str) -> None:
        rang.append((clock.now() - START, note))
        if note == "remind":
            alarms.set(key, START + 60, "expire")

    alarms: MemoryAlarms[str] = memory_clock.alarms.memory(ring)
    alarms.set(1, START + 30, "remind")
    await clock.advance(120)
    assert rang == [(30.0, "remind"), (60.0, "expire")]


async def test_many_replacements_keep_the_queue_small(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    rang: list[int] = []
    alarms: MemoryAlarms[int] = memory_clock.alarms.memory(lambda key, note: rang.append(note))
    for version in range(10_000):
        alarms.set(version % 10, START + 1000 + version, version)

    assert len(memory_clock.alarms._heap) < 200
    await clock.advance(20_000)
    assert sorted(rang) == list(range(9990, 10_000))


async def test_every_alarm_shares_one_sleeping_task(
    memory_clock: ServiceContext, clock: ManualClock
) -> None:
    for _ in range(3):
        await asyncio.sleep(0)
    before = {task for task in asyncio.all_tasks() if not task.done()}
    matches: MemoryAlarms[str] = memory_clock.alarms.memory(lambda key, note: None)
    pauses: MemoryAlarms[str] = memory_clock.alarms.memory(lambda key, note: None)
    rng = random.Random(4)
    times = [START + rng.uniform(1, 1000) for _ in range(1000)]
    for key in range(500):
        # Earlier and later ones, each moving the wake: never a task per alarm.
        matches.set(key, times[2 * key], "deadline")
        pauses.set(key, times[2 * key + 1], "pause")
    for _ in range(3):
        await asyncio.sleep(0)  # the sleepers replaced have ended

    waiting = {task for task in asyncio.all_tasks() if not task.done()} - before
    assert len(waiting) == 1
    assert clock.next_deadline() == min(times)  # it sleeps until the earliest


# -- stored alarms --------------------------------------------------------------------------


async def test_a_stored_alarm_runs_its_handler_once_when_due(
    processes: Clocks, clock: ManualClock
) -> None:
    one = await processes()
    rings = Rings(clock, one)
    one.alarms.handle(KIND, rings)
    await one.alarms.start()
    await one.alarms.set([Alarm(KIND, 7, START + 100)])

    await advance(clock, 99, one)
    assert rings.heard == []
    await advance(clock, 1, one)
    assert rings.heard == [(START + 100, Alarm(KIND, 7, START + 100))]
    await advance(clock, 1000, one)
    assert len(rings.heard) == 1
    assert await one.store.next_alarm_due() is None  # done: released


async def test_a_failing_handler_is_tried_again_later_each_pause_twice_the_last(
    processes: Clocks, clock: ManualClock
) -> None:
    one = await processes()
    rings = Rings(clock, one, failures=3)
    one.alarms.handle(KIND, rings)
    await one.alarms.start()
    await one.alarms.set([Alarm(KIND, 7, START + 100)])

    await advance(clock, 1000, one)

    first = RETRY_SECONDS
    assert rings.times == [100, 100 + first, 100 + 3 * first, 100 + 7 * first]
    assert rings.attempts == [0, 1, 2, 3]  # each failure counted
    assert await one.store.next_alarm_due() is None  # the fourth try worked: released


async def test_an_alarm_its_handler_set_again_is_kept_and_rings_again(
    processes: Clocks, clock: ManualClock
) -> None:
    # As a season's end moved later: the work that ran sets the alarm again.
    one = await processes()
    rings = Rings(clock, one)
    rings.again_after = 50.0
    one.alarms.handle(KIND, rings)
    await one.alarms.start()
    await one.alarms.set([Alarm(KIND, 7, START + 100)])

    await advance(clock, 100, one)
    assert await one.store.next_alarm_due() == START + 150  # the release left it
    await advance(clock, 1000, one)

    assert rings.times == [100, 150]
    assert await one.store.next_alarm_due() is None


async def test_an_alarm_that_fell_due_while_nothing_ran_rings_at_start(
    processes: Clocks, clock: ManualClock
) -> None:
    one = await processes(before=[Alarm(KIND, 7, START - 3600)])
    rings = Rings(clock, one)
    one.alarms.handle(KIND, rings)

    await one.alarms.start()
    await idle(one)

    assert rings.heard == [(START, Alarm(KIND, 7, START - 3600))]


async def test_of_two_processes_on_one_database_one_runs_a_due_alarm(
    processes: Clocks, clock: ManualClock
) -> None:
    due = [Alarm(KIND, subject, START + 100) for subject in range(1, 6)]
    one = await processes("one", before=due)
    two = await processes("two")
    heard = {name: Rings(clock, context) for name, context in (("one", one), ("two", two))}
    for name, context in (("one", one), ("two", two)):
        context.alarms.handle(KIND, heard[name])
        await context.alarms.start()

    await advance(clock, 100 + 2 * POLL_SECONDS, one, two)
    await advance(clock, 600, one, two)

    subjects = [alarm.subject for rings in heard.values() for _, alarm in rings.heard]
    assert sorted(subjects) == [1, 2, 3, 4, 5]
    assert await two.store.next_alarm_due() is None


async def test_an_alarm_committed_while_a_poll_reads_the_next_one_rings_at_its_time(
    tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The poll reads the next alarm before another alarm commits and wakes the clock: the
    # poll's answer, read too early, must not put the newer alarm off.
    store = SqliteMatchStore(str(tmp_path / "race.sqlite3"))
    await store.open()
    one = ServiceContext(store, ServiceConfig(), clock, random.Random(0))
    one.started = True
    rings = Rings(clock, one)
    one.alarms.handle(KIND, rings)
    await one.alarms.start()
    await one.alarms.set([Alarm(KIND, 1, START + 10)])

    reading, go_on = asyncio.Event(), asyncio.Event()
    real = store.next_alarm_due

    async def read_then_wait() -> float | None:
        found = await real()
        reading.set()
        await go_on.wait()
        return found

    monkeypatch.setattr(store, "next_alarm_due", read_then_wait)
    await clock.advance(10)  # the first alarm's poll starts, and reads the next alarm
    await reading.wait()
    await store.set_alarms([Alarm(KIND, 2, START + 20)])  # as a feature's commit
    one.alarms.wake(START + 20)
    monkeypatch.setattr(store, "next_alarm_due", real)
    go_on.set()
    await advance(clock, 100, one)

    assert [(at - START, alarm.subject) for at, alarm in rings.heard] == [(10, 1), (20, 2)]
    one.closed = True
    await one.alarms.close()
    await one.finish_work(5.0)
    await store.close()
