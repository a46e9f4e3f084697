"""A match's events are shown in order and confirmed once shown; one that Discord could not
take yet is tried again, and confirmed only when it is shown."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.play import match_queues
from bot.play.match_queues import MatchQueues
from engine.service.events import MatchResumed, Reminder
from engine.store.errors import DatabaseUnavailable


def server_error() -> discord.HTTPException:
    response = SimpleNamespace(status=503, reason="Service Unavailable")
    return discord.DiscordServerError(response, "down")  # type: ignore[arg-type]


def refused() -> discord.HTTPException:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]


HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang when an event is never shown again."""


async def ready() -> None:
    pass


class Shows:
    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.shown: list[object] = []
        self.confirmed: list[object] = []
        self.showing = asyncio.Event()
        """Set at each event shown."""

    async def show(self, event: object) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.shown.append(event)
        self.showing.set()

    async def next_shown(self, queues: MatchQueues) -> None:
        """Until an event is shown (again), and the queue has confirmed it."""
        self.showing.clear()
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await self.showing.wait()
        await queues.wait_idle()

    async def refresh(self, match_id: int) -> None:
        pass

    def queues(self) -> MatchQueues:
        return MatchQueues(self.show, self.refresh, self.confirmed.append, ready)


REMINDER = Reminder(match_id=7, player=0, user_id=11, deadline=0.0, version=3)


async def test_an_event_shown_is_confirmed_once(monkeypatch):
    shows = Shows()
    queues = shows.queues()
    queues.put(REMINDER)
    queues.put(MatchResumed(7, 3))
    await queues.wait_idle()
    assert shows.shown == [REMINDER, MatchResumed(7, 3)]
    assert shows.confirmed == [REMINDER, MatchResumed(7, 3)]


@pytest.mark.parametrize("failure", [server_error(), aiohttp.ClientConnectionError("reset")])
async def test_one_discord_could_not_take_is_tried_again_and_then_confirmed(monkeypatch, failure):
    monkeypatch.setattr(match_queues, "SHOW_AGAIN_SECONDS", 0.01)
    shows = Shows(failure)
    queues = shows.queues()
    queues.put(REMINDER)
    await queues.wait_idle()
    assert shows.confirmed == [], "not shown: not confirmed (a restart shows it too)"
    await shows.next_shown(queues)
    assert shows.shown == [REMINDER] and shows.confirmed == [REMINDER]


async def test_one_discord_refuses_for_good_is_confirmed_and_not_tried_again(monkeypatch):
    monkeypatch.setattr(match_queues, "SHOW_AGAIN_SECONDS", 0.01)
    shows = Shows(refused())
    queues = shows.queues()
    queues.put(REMINDER)
    await queues.wait_idle()
    # A later event, put after the moment a retry would have been: the loop runs its
    # timers in order, so a retry would be queued (and shown) before it.
    later = MatchResumed(7, 3)
    asyncio.get_running_loop().call_later(2 * match_queues.SHOW_AGAIN_SECONDS, queues.put, later)
    await shows.next_shown(queues)
    assert shows.shown == [later] and shows.confirmed == [REMINDER, later]


async def test_an_event_the_database_could_not_serve_is_shown_later_without_a_log_line(
    monkeypatch, caplog
):
    monkeypatch.setattr(match_queues, "DATABASE_AGAIN_SECONDS", 0.01)
    shows = Shows(DatabaseUnavailable("db", "no answer in time"))
    queues = shows.queues()
    queues.put(REMINDER)
    await queues.wait_idle()
    assert shows.confirmed == []
    await shows.next_shown(queues)
    assert shows.shown == [REMINDER] and shows.confirmed == [REMINDER]
    # The store says once that the database is not answering; the queue adds nothing.
    assert not [r for r in caplog.records if r.name.startswith("bot")], caplog.text
