"""Fixtures for the match service: a real SQLite file per test and a manual clock."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

import engine.service.puzzles.service
from engine.service import (
    Event,
    ManualClock,
    MatchInfo,
    MatchService,
    ServiceConfig,
    SubmitResult,
)
from engine.service.events import MatchResumed
from engine.store.sqlite import SqliteMatchStore

START = 1_700_000_000.0

ServiceFactory = Callable[..., Awaitable[MatchService]]


class Recorder:
    """A subscriber that keeps every event it hears and, as the Discord layer does,
    confirms each announcement once it has it (unless ``confirms`` is False, a bot that
    died before showing anything). ``MatchResumed`` goes to ``resumed``."""

    def __init__(self, confirms: bool = True) -> None:
        self.events: list[Event] = []
        self.resumed: list[MatchResumed] = []
        self.confirms = confirms
        self.service: MatchService | None = None

    async def __call__(self, event: Event) -> None:
        if isinstance(event, MatchResumed):
            self.resumed.append(event)
        else:
            self.events.append(event)
        if self.confirms and self.service is not None:
            self.service.announced(event)

    def of(self, kind: type) -> list:
        return [e for e in self.events if isinstance(e, kind)]


class InlineExecutor(Executor):
    """The AI's worker, in the test's own thread: each job runs at once when submitted,
    counted by its function's name (``judge_step``, ``suggest``, ``decide``). With
    ``failing`` set every job raises it instead, as a dead worker process would."""

    def __init__(self) -> None:
        self.jobs: Counter[str] = Counter()
        self.failing: BaseException | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs[getattr(getattr(fn, "func", fn), "__name__", repr(fn))] += 1
        future: Future[Any] = Future()
        if self.failing is not None:
            future.set_exception(self.failing)
            return future
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


@pytest.fixture(autouse=True)
def short_puzzle_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored review's mistakes are searched for puzzles afterwards, in the AI's worker,
    which these tests run inline: at the real 4,000 play-outs each search would hold the
    event loop for seconds (a store call meanwhile times out on a busy machine). Tests of
    the puzzles set their own depth over this one."""
    short = functools.partial(engine.service.puzzles.service.puzzle_at, iterations=50)
    monkeypatch.setattr(engine.service.puzzles.service, "puzzle_at", short)


@pytest.fixture
def worker() -> InlineExecutor:
    """The AI's worker run inline (tests of hints and reviews pass it to `make_service`)."""
    return InlineExecutor()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "matches.sqlite3"


@pytest.fixture
async def make_service(db_path: Path, clock: ManualClock) -> AsyncIterator[ServiceFactory]:
    """Start services on the test's database file; each is closed at the end if still open."""
    started: list[MatchService] = []

    async def make(**overrides: object) -> MatchService:
        agent_factory = overrides.pop("agent_factory", None)
        agent_executor = overrides.pop("agent_executor", None)
        # As in production, something always shows (and confirms) the announcements.
        recorder = overrides.pop("recorder", None) or Recorder()
        seed = overrides.pop("seed", 7)
        config = ServiceConfig(
            **{"ai_move_delay_seconds": 0.0, "turn_timer_seconds": 600.0, **overrides},  # type: ignore[arg-type]
        )
        kwargs = {} if agent_factory is None else {"agent_factory": agent_factory}
        service = MatchService(
            SqliteMatchStore(str(db_path)),
            config,
            clock=clock,
            rng=random.Random(seed),
            agent_executor=agent_executor,  # type: ignore[arg-type]
            **kwargs,  # type: ignore[arg-type]
        )
        recorder.service = service  # type: ignore[attr-defined]
        service.subscribe(recorder)  # type: ignore[arg-type]
        await service.start()
        started.append(service)
        return service

    yield make
    for service in started:
        await service.close()


@pytest.fixture
async def service(make_service: ServiceFactory) -> MatchService:
    return await make_service()


async def new_match(service: MatchService, challenger: int = 101, opponent: int = 202) -> MatchInfo:
    """A started match between two humans."""
    challenge = await service.challenges.challenge(challenger, opponent, guild_id=1, channel_id=2)
    return await service.challenges.accept(challenge.match_id, opponent)


async def play_one(service: MatchService, match_id: int, rng: random.Random) -> SubmitResult:
    """The player to move makes a random legal decision on what they see."""
    info = await service.queries.match_info(match_id)
    table = await service.queries.public_view(match_id)
    assert table.current_player is not None
    user = info.players[table.current_player]
    seen = await service.queries.view_for(match_id, user)
    return await service.commands.submit(match_id, user, rng.choice(seen.legal), seen.table.version)


async def play_to_end(service: MatchService, match_id: int, rng: random.Random) -> int:
    """Play random decisions (both humans) until the match ends; returns how many."""
    count = 0
    while True:
        await service.wait_idle()
        table = await service.queries.public_view(match_id)
        if table.outcome is not None:
            return count
        info = await service.queries.match_info(match_id)
        assert table.current_player is not None
        if info.is_ai_seat(table.current_player):
            continue
        await play_one(service, match_id, rng)
        count += 1
