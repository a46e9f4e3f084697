"""A process killed (SIGKILL) between a commit and the post of what it announces loses
nothing and posts once, on SQLite and on PostgreSQL: a season's end and its podium, a
tournament round's pairing and its post. The child (:mod:`.kill_child`) is killed once the
store returned from the commit, before anything was published or confirmed; a service
started on the same database publishes the news at start, once, and after it is confirmed a
further restart publishes nothing."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from engine.seasons import Season, SeasonEnded
from engine.service import ManualClock, MatchService, MatchStatus
from engine.service.announcing.event_bus import EventBus
from engine.service.announcing.outbox import Outbox
from engine.service.events import RoundPaired, TournamentEnded, TournamentStarted

from .conftest import Recorder
from .kill_child import CHANNEL, CONFIG, GUILD, START, store_for

REPO = Path(__file__).resolve().parents[3]
Restart = Callable[[], Awaitable[tuple[MatchService, Recorder]]]
HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang if the child never gets there: nothing is timed."""


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database the child and the restarted service share: a SQLite file's path or a
    PostgreSQL URL."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "killed.sqlite3")


async def kill_once_committed(what: str, database: str) -> None:
    """Run the child until its write committed, then SIGKILL it."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.engine.service.kill_child",
        what,
        database,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    try:
        ready = await asyncio.wait_for(child.stdout.readline(), HANG_GUARD_SECONDS)
        assert ready == b"ready\n", ready
        committed = await asyncio.wait_for(child.stdout.readline(), HANG_GUARD_SECONDS)
        assert committed == b"committed\n", committed
    finally:
        child.kill()
        await child.wait()
    assert child.returncode == -9


@pytest.fixture
async def restart(database: str) -> AsyncIterator[Restart]:
    """Start a service on the child's database (as the same process, on PostgreSQL), with a
    subscriber that confirms what it is shown; each is closed at the end if still open."""
    clock = ManualClock(START + 3600)
    started: list[MatchService] = []

    async def start() -> tuple[MatchService, Recorder]:
        service = MatchService(store_for(database), CONFIG, clock=clock, rng=random.Random(5))
        heard = Recorder()
        heard.service = service
        service.subscribe(heard)
        await service.start()
        await service.wait_idle()
        started.append(service)
        return service, heard

    yield start
    for service in started:
        await service.close()


async def test_a_podium_committed_by_a_killed_process_is_shown_once(
    database: str, restart: Restart
) -> None:
    await kill_once_committed("season", database)

    service, heard = await restart()

    [ended] = heard.of(SeasonEnded)
    assert (ended.season.number, ended.channel_id, ended.next_season) == (1, CHANNEL, None)
    assert [(line.user_id, line.rank) for line in ended.podium] == [(101, 1), (202, 2)]
    assert await service.seasons.current(GUILD) is None  # the end itself was kept
    page = await service.seasons.leaderboard(GUILD, 1)
    assert [line.user_id for line in page.entries] == [101, 202]
    await service.close()  # the confirmation is written

    _, again = await restart()
    assert again.of(SeasonEnded) == []


async def test_a_round_committed_by_a_killed_process_is_shown_once_and_played(
    database: str, restart: Restart
) -> None:
    await kill_once_committed("tournament", database)

    service, heard = await restart()

    # Nothing the child committed was shown: its start and both rounds, once each.
    assert len(heard.of(TournamentStarted)) == 1
    assert [event.round for event in heard.of(RoundPaired)] == [1, 2]
    final = heard.of(RoundPaired)[1]
    assert [(g.first, g.second) for g in final.games] == [(101, 102)]
    [tournament] = await service.store.open_tournaments()
    [game] = [g for g in await service.tournaments.games(tournament.tournament_id) if g.round == 2]
    assert game.match_id is not None  # the final's match, lost with the child, is started
    info = await service.queries.match_info(game.match_id)
    assert info.status is MatchStatus.ACTIVE and info.players == (101, 102)
    await service.commands.resign(game.match_id, 102)
    await service.wait_idle()
    [ended] = heard.of(TournamentEnded)
    assert [line.player for line in ended.standings[:2]] == [101, 102]
    await service.close()

    _, again = await restart()
    assert again.events == []


async def test_a_confirmation_under_way_when_the_service_closes_is_still_written() -> None:
    """The database is slow to take a confirmation and the bot shuts down meanwhile: the
    write is stopped, and made again before the store closes, so the podium is not shown
    again at the next start."""

    class SlowStore:
        def __init__(self) -> None:
            self.written: list[tuple[int | None, str]] = []
            self.first_write = asyncio.Event()

        async def announced(self, delivered: list[tuple[int | None, str]]) -> None:
            if not self.first_write.is_set():
                self.first_write.set()
                await asyncio.Event().wait()  # still writing when close() comes
            self.written += delivered

    store = SlowStore()
    outbox = Outbox(store, EventBus())  # type: ignore[arg-type]
    podium = SeasonEnded(Season(GUILD, 1, START, None, ended_at=START + 60), (), CHANNEL, None)
    outbox.announced(podium)
    async with asyncio.timeout(HANG_GUARD_SECONDS):
        await store.first_write.wait()

    await outbox.close()

    assert store.written == [(None, f"season@{GUILD}:1")]
