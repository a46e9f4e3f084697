"""Serialised and idempotent: one decision per version, and matches never wait for each other."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from engine.ai import RandomAgent
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView
from engine.service import DecisionApplied, Event, MatchEnded, StaleVersion

from .conftest import Recorder, new_match, play_one


async def test_of_100_identical_concurrent_submissions_exactly_one_is_applied(make_service):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    decision = (await service.queries.view_for(match.match_id, mover)).legal[0]

    results = await asyncio.gather(
        *(service.commands.submit(match.match_id, mover, decision, 0) for _ in range(100)),
        return_exceptions=True,
    )

    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and applied[0].version == 1
    assert len(refused) == 99 and all(isinstance(r, StaleVersion) for r in refused)
    assert len(await service.store.decisions(match.match_id)) == 1
    after = await service.queries.public_view(match.match_id)
    assert after.version == 1 and applied[0].next_player == after.current_player
    await service.wait_idle()
    assert len(recorder.of(DecisionApplied)) == 1


async def test_a_stale_version_is_refused_and_quoted(service):
    match = await new_match(service)
    rng = random.Random(3)
    await play_one(service, match.match_id, rng)
    table = await service.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    decision = (await service.queries.view_for(match.match_id, mover)).legal[0]

    with pytest.raises(StaleVersion, match="you saw version 0, it is now at 1"):
        await service.commands.submit(match.match_id, mover, decision, 0)
    assert (await service.queries.public_view(match.match_id)).version == 1


class _BlockedAgent:
    """Thinks until the test lets it go (in the service's worker thread)."""

    name = "blocked"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.thinking = threading.Event()

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        self.thinking.set()
        self.release.wait(timeout=10)
        return rng.choice(view.legal)


async def test_a_blocked_match_does_not_delay_another(make_service):
    blocked = _BlockedAgent()
    stalled_subscriber = asyncio.Event()
    delivered: list[Event] = []

    async def slow_subscriber(event: Event) -> None:
        await stalled_subscriber.wait()  # a subscriber stuck on its first event
        delivered.append(event)

    service = await make_service(
        agent_factory=lambda level: blocked if level == "hard" else RandomAgent()
    )
    service.subscribe(slow_subscriber)
    slow = await service.commands.start_ai_match(101, "hard", guild_id=1, channel_id=2)
    if (await service.queries.public_view(slow.match_id)).current_player == 0:
        await play_one(service, slow.match_id, random.Random(0))
    assert await asyncio.to_thread(blocked.thinking.wait, 5)

    fast = await new_match(service, 303, 404)
    rng = random.Random(8)
    loop = asyncio.get_running_loop()
    started = loop.time()
    while (await service.queries.public_view(fast.match_id)).outcome is None:
        await play_one(service, fast.match_id, rng)
    assert loop.time() - started < 5
    assert delivered == []  # the stuck subscriber held up nobody

    # The blocked match is still waiting for its AI, and its player may still resign.
    assert (await service.queries.public_view(slow.match_id)).current_player == 1
    await service.commands.resign(slow.match_id, 101)
    blocked.release.set()
    stalled_subscriber.set()
    await service.wait_idle()
    assert sum(isinstance(e, MatchEnded) for e in delivered) == 2
