"""The panel opened by a press in a hint match: the press is acknowledged before the hint is
asked for, a slow hint never holds the answer, and a match without hints is answered as
before, with no hint line."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.play import panel as panel_module
from bot.play.hint_line import hint_text
from bot.play.panel import Panel
from bot.words.i18n import text
from engine.review.hint import Suggestion
from engine.rules import PlayerView, new_game, view
from engine.service import ExpiryPolicy, MatchInfo, MatchStatus
from engine.store.rows import AI_USER_ID

ANA = 11
BEN = 12


@dataclass
class Calls:
    """What the panel did, in order."""

    done: list[str] = field(default_factory=list)
    shown: str = ""
    """The panel's text as last shown."""


class FakeResponse:
    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self.answered = False

    def is_done(self) -> bool:
        return self.answered

    async def defer(self, **_: Any) -> None:
        self.calls.done.append("defer")
        self.answered = True

    async def send_message(self, **kwargs: Any) -> None:
        self.calls.done.append("send")
        self.answered = True
        self.calls.shown = kwargs["embed"].description


class FakeInteraction:
    def __init__(self, user_id: int, calls: Calls) -> None:
        self.user = type("User", (), {"id": user_id})()
        self.response = FakeResponse(calls)
        self.calls = calls

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.done.append("edit")
        self.calls.shown = kwargs["embed"].description


class FakeQueries:
    def __init__(self, seen: PlayerView) -> None:
        self.seen = seen

    async def view_for(self, match_id: int, user_id: int) -> PlayerView:
        return self.seen


class FakeNames:
    async def pair(self, players: Any, ai_level: Any, lang: str, **_: Any) -> tuple[str, str]:
        return ("ana", "AI (normal)")


class FakeDirectMessages:
    def take_closed_notice(self, lang: str, user_id: int) -> str:
        return ""


class SlowHints:
    """A hint that takes ``delay`` seconds, noting when it was asked for."""

    def __init__(self, calls: Calls, seen: PlayerView, delay: float) -> None:
        self.calls, self.seen, self.delay = calls, seen, delay
        self.finished = asyncio.Event()

    async def hint(self, match_id: int, user_id: int) -> Suggestion | None:
        self.calls.done.append("hint")
        await asyncio.sleep(self.delay)
        self.finished.set()
        return Suggestion(self.seen.legal[0], 0.4)


def _setting(hints: bool) -> tuple[MatchInfo, PlayerView]:
    """A match where ANA is to decide: against the AI with ``hints``, else against BEN."""
    game = new_game(seed=5)
    mover = game.current_player
    assert mover is not None
    other = AI_USER_ID if hints else BEN
    players = (ANA, other) if mover == 0 else (other, ANA)
    info = MatchInfo(
        match_id=7,
        status=MatchStatus.ACTIVE,
        variant=game.variant,
        players=players,
        guild_id=1,
        channel_id=2,
        turn_seconds=60.0,
        expiry_policy=ExpiryPolicy.AI,
        created_at=0.0,
        ai_level="normal" if hints else None,
        hints=hints,
    )
    return info, view(game, mover)


def _panel(hints: SlowHints) -> Panel:
    return Panel(
        FakeQueries(hints.seen),  # type: ignore[arg-type]
        FakeNames(),  # type: ignore[arg-type]
        FakeDirectMessages(),  # type: ignore[arg-type]
        hints,
    )


async def test_a_hint_panel_is_acknowledged_before_the_hint_is_asked_for():
    info, seen = _setting(hints=True)
    calls = Calls()
    interaction = FakeInteraction(ANA, calls)
    await _panel(SlowHints(calls, seen, 0.01)).home(interaction, "en", info, edit=False)  # type: ignore[arg-type]
    assert calls.done == ["defer", "hint", "edit"]
    assert hint_text("en", Suggestion(seen.legal[0], 0.4)) in calls.shown


async def test_a_slow_hint_does_not_hold_the_panel(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(panel_module, "HINT_WAIT_SECONDS", 0.05)
    info, seen = _setting(hints=True)
    calls = Calls()
    started = time.monotonic()
    hints = SlowHints(calls, seen, 1.0)
    await _panel(hints).home(FakeInteraction(ANA, calls), "en", info, edit=False)  # type: ignore[arg-type]
    assert time.monotonic() - started < 0.8
    assert text("en", "ai_hints.thinking") in calls.shown
    await asyncio.wait_for(hints.finished.wait(), 5.0)  # still worked out, for the Refresh


async def test_a_match_without_hints_is_answered_as_before_with_no_hint_line():
    info, seen = _setting(hints=False)
    calls = Calls()
    panel = _panel(SlowHints(calls, seen, 0.0))
    await panel.home(FakeInteraction(ANA, calls), "en", info, edit=False)  # type: ignore[arg-type]
    assert calls.done == ["send"]  # no hint asked for, the answer not deferred
    assert "💡" not in calls.shown
