"""Keeps the bot under Discord's global rate limit instead of learning it from a 429.

Discord allows a bot 50 requests per second across all its routes (interaction callbacks
and interaction webhooks exempt) and answers more with a global 429 that stops every
request of the bot. discord.py honours per-route buckets before they run dry, but learns
the global limit only from that 429, so the bot paces its own requests here.

Discord counts a request when it arrives, which the bot cannot see: only that it arrives
after the bot started it and before its answer comes back. So a request holds its place
from the moment it starts until one second after its answer (or its failure): then
whatever second Discord counts in, every request that arrived in it still held a place at
its end, and no second holds more than the pace, however the requests were delayed on
their way (a busy event loop, aiohttp sending a body a loop turn after the headers, the
network). Counting from "headers sent" instead let a global 429 through: aiohttp reports
that when it buffers the headers, and requests with a body left a turn of the loop later,
bunched with the next second's.

The pace is kept where a request really leaves, in aiohttp's trace hooks (the
``http_trace`` discord.py passes to its session): requests that waited on a route's bucket
are released together when it refills, so pacing before discord.py's own wait would let
such a burst through. Interaction callbacks and webhooks share the session but are exempt,
so a player's answers never queue behind board edits.

When more requests ask than the pace lets go, the ones a waiting player will see go first:
each request waits as an :class:`Urgency` (the task that makes it says which, with
:func:`requests_for`: a live match's board and the messages before it, a new match's
opening, a DM panel in the background) and the waiting line is ordered by when each asked
plus its urgency's slack. A board asked a second after a DM goes before it; a DM that has
waited its slack (20 s) goes before any board asked after that, so nothing starves, and
requests of one urgency keep their order. The requests made for one errand (a match's
opening: its thread, its players, its board) wait as if asked when the first was, so the
errand waits its slack once, not once per request. A match's own requests never overtake
each other: its presenter makes them one after another, each under its event's urgency. A board
edit still waiting when the match's next event comes is withdrawn (:func:`withdrawable`,
:meth:`RequestPacer.withdraw`) and the next edit shows both. The pacer tallies how long
each urgency waited (:class:`WaitTally`); the bot logs it when it stops and labels its
``discord_pacer_wait_seconds`` metric with it.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import contextlib
import contextvars
import enum
import heapq
import itertools
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

import aiohttp
import yarl

DISCORD_GLOBAL_LIMIT = 50
"""Requests per second per bot token (Discord's "Global Rate Limit")."""
DEFAULT_REQUESTS_PER_SECOND = 45
"""Our pace: a tenth under the limit, a margin for a clock of Discord's that runs a little
differently from ours."""
WINDOW_SECONDS = 1.0

T = TypeVar("T")


class PaceWindow:
    """Which requests hold a place at a given time: those on their way, and those answered
    less than a second ago. Pure bookkeeping on times the caller passes in.

    >>> window = PaceWindow(per_second=2)
    >>> window.take(0.0), window.take(0.0), window.take(0.0)
    (True, True, False)
    >>> window.finished(0.2); window.finished(0.3)
    >>> window.take(1.1), window.next_free(1.1)
    (False, 1.2)
    >>> window.take(1.2)
    True
    """

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._finished: collections.deque[float] = collections.deque()
        self._on_their_way = 0

    def held(self, now: float) -> int:
        """Places held at `now`."""
        while self._finished and self._finished[0] + WINDOW_SECONDS <= now:
            self._finished.popleft()
        return len(self._finished) + self._on_their_way

    def take(self, now: float) -> bool:
        """Take a place for a request starting at `now`, if one is free."""
        if self.held(now) >= self.per_second:
            return False
        self._on_their_way += 1
        return True

    def finished(self, now: float) -> None:
        """A request that took a place was answered, or failed, at `now`."""
        self._on_their_way -= 1
        self._finished.append(now)

    def next_free(self, now: float) -> float | None:
        """When a place frees without any request finishing, or None if every place is
        held by a request still on its way."""
        self.held(now)
        return self._finished[0] + WINDOW_SECONDS if self._finished else None


class Urgency(enum.Enum):
    """Who waits for a request: the order in which requests waiting for the pace go."""

    BOARD = "board"
    """A player looks at a live match: its board edit, and the messages posted before it."""
    UNMARKED = "unmarked"
    """A request nobody marked (a command's, start-up's): in the order it asked."""
    OPENING = "opening"
    """A new match's thread, its players and its first board."""
    BACKGROUND = "background"
    """Nobody watches for it now: a panel sent by DM to an away player, or retired."""

    @property
    def slack(self) -> float:
        """Seconds a request of this urgency lets more urgent ones asked after it go first."""
        return SLACK_SECONDS[self]


SLACK_SECONDS: Mapping[Urgency, float] = {
    Urgency.BOARD: 0.0,
    Urgency.UNMARKED: 0.0,
    # A player who pressed Accept expects a moment before the thread appears; a player who
    # confirmed a move expects the board at once. When matches start faster than the pace
    # can open them (bench/bot_load.py: 400 starting within a minute), openings wait up to
    # this long for boards; at 3 s the ramp's boards still queued behind them, at 10 s some
    # openings took over 20 s (docs/benchmarks.md).
    Urgency.OPENING: 6.0,
    Urgency.BACKGROUND: 20.0,
}


class _Errand:
    """Requests made for one purpose, one after another (a match's opening: its thread, its
    players, its board): each waits as if it had asked when the first did, so the errand
    waits its urgency's slack once, not once per request."""

    __slots__ = ("first_asked", "urgency")

    def __init__(self, urgency: Urgency) -> None:
        self.urgency = urgency
        self.first_asked: float | None = None


_ERRAND: contextvars.ContextVar[_Errand | None] = contextvars.ContextVar(
    "hanamikoji_request_errand", default=None
)


@contextlib.contextmanager
def requests_for(urgency: Urgency, *, asked_at: float | None = None) -> Iterator[_Errand]:
    """The REST requests made inside (by this task, and by tasks it starts) wait for the
    pace as `urgency`, and as one errand: each as if it had asked when the first did, or
    at `asked_at` (the loop's time) when it takes over a withdrawn request's place in
    line. The pacer reads it in aiohttp's trace hook, which runs in the task that makes
    the request."""
    errand = _Errand(urgency)
    errand.first_asked = asked_at
    token = _ERRAND.set(errand)
    try:
        yield errand
    finally:
        _ERRAND.reset(token)


_WITHDRAWABLE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "hanamikoji_request_withdrawable", default=False
)


@contextlib.contextmanager
def withdrawable() -> Iterator[None]:
    """The REST requests made inside may be withdrawn while they wait for their turn
    (:meth:`RequestPacer.withdraw`): a board edit that a newer one of the same board will
    replace. Such a request raises :class:`Withdrawn` and never leaves."""
    token = _WITHDRAWABLE.set(True)
    try:
        yield
    finally:
        _WITHDRAWABLE.reset(token)


class Withdrawn(Exception):
    """A request taken out of the pacer's waiting line before it left: Discord never saw
    it, and whoever made it shows something newer instead."""


def current_urgency() -> Urgency:
    """The urgency the requests of the running task wait as."""
    errand = _ERRAND.get()
    return Urgency.UNMARKED if errand is None else errand.urgency


class WaitingLine(Generic[T]):
    """Requests waiting for a place, in the order they get one: by when each asked plus its
    urgency's slack, then by when it asked. So a more urgent request goes first, but one
    that has waited its slack goes before any asked after that: nothing waits for ever,
    and requests of one urgency keep their order. Pure bookkeeping on times the caller
    passes in.

    >>> line: WaitingLine[str] = WaitingLine()
    >>> line.join("a DM", Urgency.BACKGROUND, asked=0.0)
    >>> line.join("a board", Urgency.BOARD, asked=1.0)
    >>> line.join("a late board", Urgency.BOARD, asked=11.0)
    >>> [line.pop() for _ in range(len(line))]
    ['a board', 'a DM', 'a late board']
    """

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, T]] = []
        self._asked = itertools.count()

    def __len__(self) -> int:
        return len(self._heap)

    def join(self, item: T, urgency: Urgency, asked: float) -> None:
        heapq.heappush(self._heap, (asked + urgency.slack, next(self._asked), item))

    def first(self) -> T | None:
        """The next to go, left in line; None if nobody waits."""
        return self._heap[0][2] if self._heap else None

    def pop(self) -> T:
        """Take the next to go out of the line."""
        return heapq.heappop(self._heap)[2]


WAIT_BOUNDS: tuple[float, ...] = (0.0, *(0.001 * 1.25**i for i in range(52)))
"""Upper bounds of the wait tally's buckets: no wait, then 1 ms to about 88 s, each a
quarter longer than the last (a percentile read from them is within a quarter)."""


class WaitTally:
    """How long the requests of one urgency waited for their turn, in buckets of
    :data:`WAIT_BOUNDS` (a bounded memory however long the bot runs; a percentile is a
    bucket's bound, up to a quarter over the wait).

    >>> tally = WaitTally()
    >>> for wait in (0.0, 0.0, 0.02, 1.5):
    ...     tally.record(wait)
    >>> tally.requests, tally.waited, tally.longest
    (4, 2, 1.5)
    >>> tally.percentile(0.5), round(tally.percentile(0.99), 2)
    (0.0, 1.5)
    """

    def __init__(self) -> None:
        self.requests = 0
        self.waited = 0
        self.total = 0.0
        self.longest = 0.0
        self._counts = [0] * (len(WAIT_BOUNDS) + 1)

    def record(self, seconds: float) -> None:
        self.requests += 1
        if seconds > 0:
            self.waited += 1
            self.total += seconds
            self.longest = max(self.longest, seconds)
        self._counts[bisect.bisect_left(WAIT_BOUNDS, seconds)] += 1

    def percentile(self, q: float) -> float:
        """The bucket bound under which a fraction `q` of the waits fall (no more than the
        longest wait); 0 without requests."""
        reached = 0
        for index, count in enumerate(self._counts):
            reached += count
            if self.requests and reached >= q * self.requests and index < len(WAIT_BOUNDS):
                return min(WAIT_BOUNDS[index], self.longest)
        return self.longest

    def summary(self) -> str:
        """One line for a log: how many requests, how many waited, how long."""
        mean = self.total / self.waited if self.waited else 0.0
        return (
            f"{self.requests} requests, {self.waited} waited (mean {mean * 1000:.0f} ms), "
            f"wait p50 {self.percentile(0.5) * 1000:.0f} ms, "
            f"p99 {self.percentile(0.99) * 1000:.0f} ms, longest {self.longest * 1000:.0f} ms"
        )


class RequestPacer:
    """At most `per_second` requests in any window of one second, however long they take
    to arrive. A request that finds no free place waits in a :class:`WaitingLine`: a board
    a player waits for goes before a DM nobody waits for, within the DM's slack."""

    def __init__(
        self,
        per_second: int = DEFAULT_REQUESTS_PER_SECOND,
        *,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """`clock` gives seconds (the event loop's time unless a test fixes it; a fixed
        clock's test releases the line itself, by :meth:`release_due`)."""
        if not 1 <= per_second <= DISCORD_GLOBAL_LIMIT:
            raise ValueError(f"requests per second must be 1–{DISCORD_GLOBAL_LIMIT}: {per_second}")
        self.per_second = per_second
        self._clock = clock
        self._window = PaceWindow(per_second)
        self._line: WaitingLine[asyncio.Future[None]] = WaitingLine()
        self._wake: asyncio.TimerHandle | None = None
        self.waited = 0
        """How many requests had to wait for the window (a figure for logs and benchmarks)."""
        self.tallies = {urgency: WaitTally() for urgency in Urgency}
        """How long requests waited for their turn, by urgency."""
        self.withdrawn = 0
        """How many waiting requests were withdrawn (:meth:`withdraw`), never sent."""
        self._withdrawable: dict[asyncio.Task[Any], asyncio.Future[None]] = {}
        """The task of each waiting request made under :func:`withdrawable`: its turn."""

    async def wait_turn(self, urgency: Urgency | None = None) -> None:
        """Until one more request may start (as `urgency`, by default the running task's,
        :func:`requests_for`); call `finished` once it is answered or failed."""
        errand = _ERRAND.get()
        urgency = urgency or current_urgency()
        asked = since = self._now()
        if errand is not None:
            if errand.first_asked is None:
                errand.first_asked = asked
            since = errand.first_asked
        if not self._line and self._window.take(asked):
            self.tallies[urgency].record(0.0)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = asyncio.current_task() if _WITHDRAWABLE.get() else None
        if task is not None:
            self._withdrawable[task] = turn
        self._line.join(turn, urgency, since)
        self.release_due()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                # Given a place it will not use: held a second more, as if it had gone.
                self.finished()
            raise
        finally:
            if task is not None and self._withdrawable.get(task) is turn:
                del self._withdrawable[task]
        self.waited += 1
        self.tallies[urgency].record(self._now() - asked)

    def withdraw(self, task: asyncio.Task[Any]) -> bool:
        """Take the request `task` is waiting with out of the line, if it was made under
        :func:`withdrawable` and still waits: it raises :class:`Withdrawn` and is never
        sent. Whether one was withdrawn."""
        turn = self._withdrawable.pop(task, None)
        if turn is None or turn.done():
            return False
        turn.set_exception(Withdrawn(f"a request of task {task.get_name()!r}, still waiting"))
        self.withdrawn += 1
        return True

    def release_due(self) -> None:
        """Give the places free now to the first in line, and wake again when the next
        place frees (without any request finishing) while someone still waits."""
        now = self._now()
        while (turn := self._line.first()) is not None:
            if turn.done():  # cancelled while it waited
                self._line.pop()
            elif self._window.take(now):
                self._line.pop()
                turn.set_result(None)
            else:
                break
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        free_at = self._window.next_free(now) if self._line else None
        # None: every place is on its way, and the first answer (`finished`) releases.
        if free_at is not None:
            self._wake = asyncio.get_running_loop().call_later(
                max(0.0, free_at - now), self.release_due
            )

    def waiting(self) -> int:
        """Requests waiting for their turn now (cancelled ones may count until their turn)."""
        return len(self._line)

    def held(self) -> int:
        """Places held now: requests on their way, and those answered within a second."""
        return self._window.held(self._now())

    def finished(self) -> None:
        """A request that waited its turn was answered, or failed (it may have arrived)."""
        self._window.finished(self._now())
        if self._line:
            self.release_due()

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()


_EXEMPT = ("/interactions/", "/webhooks/")
"""Interaction endpoints, which Discord does not count against the global limit."""


def counts_against_global_limit(url: yarl.URL) -> bool:
    """A REST call under the global limit: not an interaction callback or webhook, not
    the Gateway."""
    path = url.path
    return "/api/" in path and not any(part in path for part in _EXEMPT)


def pacing_trace(pacer: RequestPacer) -> aiohttp.TraceConfig:
    """An aiohttp trace that makes each counted REST request wait its turn on `pacer`
    just before it is sent (pass it to ``discord.Client(http_trace=...)``)."""

    async def on_request_start(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.paced = False
        if counts_against_global_limit(params.url):
            await pacer.wait_turn()
            context.paced = True  # only once it holds a place, which `finished` gives back

    def settle(context: types.SimpleNamespace) -> None:
        if getattr(context, "paced", False):
            context.paced = False
            pacer.finished()

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        settle(context)

    async def on_exception(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        settle(context)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_exception)
    return trace
