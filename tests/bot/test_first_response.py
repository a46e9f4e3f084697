"""A held-back press (bot.discord_plumbing.first_response): its answer and the timer's
deferral take turns, so the press gets exactly one first response whichever comes first,
and a press nothing answered is acknowledged as soon as its handling ends."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import discord
import pytest

from bot.discord_plumbing import first_response
from bot.discord_plumbing.first_response import (
    FirstResponse,
    acknowledge,
    hold_back,
    settle,
    update_in_place,
)
from tests.bot.fakes import FakeInteraction

HANG_GUARD_SECONDS = 60.0
"""Only a hung test waits this long: the steps below wait on events."""


def deferrals_seen(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Set when a held-back press's timer starts its deferral (due at once below)."""
    started = asyncio.Event()
    defer_held = first_response._defer_held

    async def seen(interaction: Any, held: Any) -> None:
        started.set()
        await defer_held(interaction, held)

    monkeypatch.setattr(first_response, "_defer_held", seen)
    monkeypatch.setattr(first_response, "PRIVATE_ANSWER_WAIT_SECONDS", 0.0)
    return started


class SlowUpdate(FakeInteraction):
    """A press whose UPDATE_MESSAGE callback is in flight until the test lets it land."""

    def __init__(self) -> None:
        super().__init__()
        self.landed = asyncio.Event()
        self.in_flight = asyncio.Event()
        update = self.response.edit_message

        async def slow_update(**kwargs: Any) -> None:
            self.in_flight.set()
            await self.landed.wait()
            await update(**kwargs)

        self.response.edit_message = slow_update  # type: ignore[method-assign]


async def test_the_timer_waits_for_an_answer_in_flight_and_then_sends_nothing(
    monkeypatch: pytest.MonkeyPatch,
):
    deferring = deferrals_seen(monkeypatch)
    press = SlowUpdate()
    hold_back(press, FirstResponse.UPDATE)  # type: ignore[arg-type]
    answer = asyncio.ensure_future(update_in_place(press, content="panel"))  # type: ignore[arg-type]
    await asyncio.wait_for(press.in_flight.wait(), HANG_GUARD_SECONDS)
    await asyncio.wait_for(deferring.wait(), HANG_GUARD_SECONDS)  # waits for the answer
    press.landed.set()
    await asyncio.wait_for(answer, HANG_GUARD_SECONDS)
    held = press.extras[first_response._HELD_BACK]
    await asyncio.wait_for(held.deferral, HANG_GUARD_SECONDS)
    assert press.log == ["update"]  # one first response: the answer; no deferral after it


async def test_an_answer_after_the_deferral_fills_it_in(monkeypatch: pytest.MonkeyPatch):
    deferring = deferrals_seen(monkeypatch)
    press = FakeInteraction()
    hold_back(press, FirstResponse.THINK)  # type: ignore[arg-type]
    await asyncio.wait_for(deferring.wait(), HANG_GUARD_SECONDS)
    held = press.extras[first_response._HELD_BACK]
    await asyncio.wait_for(held.deferral, HANG_GUARD_SECONDS)
    await update_in_place(press, content="panel")  # type: ignore[arg-type]
    assert press.log == ["defer", "edit"]
    assert press.response.deferred == [{"ephemeral": True, "thinking": True}]


async def test_a_held_back_press_is_not_deferred_by_acknowledge_and_is_settled_at_once():
    press = FakeInteraction()
    hold_back(press, FirstResponse.UPDATE)  # type: ignore[arg-type]
    await acknowledge(press, FirstResponse.UPDATE)  # type: ignore[arg-type]
    assert press.log == []  # left to the answer, or the timer
    await settle(press)  # type: ignore[arg-type]
    assert press.log == ["defer"]  # nothing answered it: acknowledged now, not in 1.5 s
    await settle(press)  # type: ignore[arg-type]
    assert press.log == ["defer"]


async def test_the_wait_counts_from_when_discord_created_the_press():
    loop = asyncio.get_running_loop()
    fresh = FakeInteraction()
    before = loop.time()
    hold_back(fresh, FirstResponse.UPDATE)  # type: ignore[arg-type]
    assert fresh.extras[first_response._HELD_BACK].timer.when() >= before + 1.4
    # A press the loop got to 2 s after Discord made it has no time left to wait.
    late = FakeInteraction(created_at=discord.utils.utcnow() - datetime.timedelta(seconds=2))
    hold_back(late, FirstResponse.UPDATE)  # type: ignore[arg-type]
    assert late.extras[first_response._HELD_BACK].timer.when() <= loop.time()
    for press in (fresh, late):
        await settle(press)  # type: ignore[arg-type]
        assert press.log == ["defer"]
