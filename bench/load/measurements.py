"""What is measured during a run: the players' figures, this process's stalls, and CPU."""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import time
from collections import defaultdict
from collections.abc import Callable

GC_FREEZE_EVERY = 5.0  # seconds
# Every click a player makes, in the order the report lists them.
STEPS = ("challenge", "accept", "hand", "action", "select", "confirm", "take")


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class Stats:
    def __init__(self) -> None:
        self.first_response: dict[str, list[float]] = defaultdict(list)
        self.board: list[float] = []
        self.board_at: list[tuple[float, float]] = []
        """(seconds since play began at the click, board latency): the board over time."""
        self.openings: list[tuple[float, float]] = []
        """(seconds since play began at the Accept click, until the board was posted in the
        match's thread): what a player waits before the match can begin."""
        self.interactions = 0
        self.decisions = 0
        self.completed = 0
        self.per_match: list[int] = []  # decisions of each finished match
        self.stopped = 0  # matches still running when --duration ran out
        self.errors: list[str] = []


class GcPauses:
    """The garbage collector's pauses in this process, which stall the emulator.

    Discord does not stall because of our players, but this process holds the emulator's
    whole world and every player, and a full collection over that heap stops it for up to
    a second: requests that arrived meanwhile are then handled together, as if the bot had
    sent them in a burst. So the long-lived objects are frozen out of the collector every
    few seconds (``gc.freeze``), and the pauses that remain are reported.
    """

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started: float | None = None
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            self.pauses.append(time.perf_counter() - self._started)
            self._started = None

    def stop(self) -> None:
        gc.callbacks.remove(self._observe)


class LoopLag:
    """How late this process's event loop wakes: the emulator's own queueing delay."""

    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.lags: list[float] = []
        self.gc = GcPauses()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        frozen_at = loop.time()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append(loop.time() - before - self.interval)
            if before - frozen_at >= GC_FREEZE_EVERY:
                gc.freeze()  # see GcPauses
                frozen_at = before

    def stop(self) -> None:
        self.gc.stop()
        if self._task is not None:
            self._task.cancel()


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its live descendants (the bot's drawing
    and thinking workers), from /proc (Linux)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            parents[int(entry)] = int(fields[1])
    family, grew = {pid}, True
    while grew:
        children = {child for child, parent in parents.items() if parent in family}
        grew = not children <= family
        family |= children
    total = 0.0
    for member in family:
        fields = _stat_fields(member)
        if fields is not None:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def machine_busy() -> float:
    """CPU seconds all cores spent busy since boot (/proc/stat), to see who else ran."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class RequestRate:
    """Each second of play: how many requests under Discord's global limit arrived at the
    emulator (the load the bot's pace had to carry), and how much of a core the bot's own
    process used (near 100%, its event loop is saturated and everything waits for it)."""

    def __init__(self, count: Callable[[], int], bot_pid: int) -> None:
        self._count = count
        self._bot_pid = bot_pid
        self.per_second: list[tuple[float, int]] = []  # (seconds since the start, arrivals)
        self.bot_busy: list[tuple[float, float]] = []  # (seconds since the start, CPU share)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        started, last, cpu = loop.time(), self._count(), own_process_cpu(self._bot_pid)
        before = started
        while True:
            await asyncio.sleep(1.0)  # a sampling interval, not a wait for anything
            now, count, used = loop.time(), self._count(), own_process_cpu(self._bot_pid)
            self.per_second.append((now - started, count - last))
            self.bot_busy.append((now - started, (used - cpu) / max(1e-9, now - before)))
            last, cpu, before = count, used, now

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def own_process_cpu(pid: int) -> float:
    """User + system CPU seconds of one process, without its children (0 once it is gone)."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def by_window(samples: list[tuple[float, float]], width: float) -> list[tuple[float, list[float]]]:
    """`samples` of (seconds since the start, value) grouped into windows of `width` s:
    (window start, values), the windows in order, empty ones left out."""
    windows: dict[int, list[float]] = defaultdict(list)
    for at, value in samples:
        windows[int(at // width)].append(value)
    return [(index * width, windows[index]) for index in sorted(windows)]
