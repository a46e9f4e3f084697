"""The panel opened by a press in a hint match: the press is acknowledged before the hint is
asked for, a slow hint never holds the answer, and a match without hints is answered as
before, with no hint line."""

from __future__ import annotations

import asyncio
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
HANG_GUARD_SECONDS = 30.0
"""Only to fail rather than hang: nothing here measures how fast anything is."""


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


class HeldHints:
    """The service's hints, answering only once the test lets them (``release``): a search
    as slow as the test wants, with no clock involved. Notes each ask in ``calls`` and the
    version it was asked for in ``versions``."""

    def __init__(self, calls: Calls, seen: PlayerView, *, released: bool = True) -> None:
        self.calls, self.seen = calls, seen
        self.versions: list[int | None] = []
        self.release = asyncio.Event()
        if released:
            self.release.set()
        self.answered: asyncio.Future[Suggestion] = asyncio.get_running_loop().create_future()

    async def hint(
        self, match_id: int, user_id: int, *, version: int | None = None
    ) -> Suggestion | None:
        self.calls.done.append("hint")
        self.versions.append(version)
        await self.release.wait()
        suggestion = Suggestion(self.seen.legal[0], 0.4)
        self.answered.set_result(suggestion)
        return suggestion


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


def _panel(hints: HeldHints) -> Panel:
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
    hints = HeldHints(calls, seen)
    await _panel(hints).home(interaction, "en", info, edit=False)  # type: ignore[arg-type]
    assert calls.done == ["defer", "hint", "edit"]
    assert hint_text("en", Suggestion(seen.legal[0], 0.4)) in calls.shown
    # The hint asked for is the one of the position this panel shows, not a later one.
    assert hints.versions == [seen.table.version]


async def test_a_slow_hint_does_not_hold_the_panel(monkeypatch: pytest.MonkeyPatch):
    # No waiting at all: the hint below answers only when released, after the panel is shown.
    monkeypatch.setattr(panel_module, "HINT_WAIT_SECONDS", 0)
    info, seen = _setting(hints=True)
    calls = Calls()
    hints = HeldHints(calls, seen, released=False)
    shown = _panel(hints).home(FakeInteraction(ANA, calls), "en", info, edit=False)  # type: ignore[arg-type]
    # A panel that waited for the held hint would never be shown: fail then, do not hang.
    await asyncio.wait_for(shown, HANG_GUARD_SECONDS)
    assert calls.done == ["defer", "hint", "edit"]  # shown while the hint is still held
    assert text("en", "ai_hints.thinking") in calls.shown
    assert not hints.answered.done()
    hints.release.set()
    # Still worked out after the panel was shown, so a Refresh finds it.
    assert await hints.answered == Suggestion(seen.legal[0], 0.4)


async def test_a_match_without_hints_is_answered_as_before_with_no_hint_line():
    info, seen = _setting(hints=False)
    calls = Calls()
    panel = _panel(HeldHints(calls, seen))
    await panel.home(FakeInteraction(ANA, calls), "en", info, edit=False)  # type: ignore[arg-type]
    assert calls.done == ["send"]  # no hint asked for, the answer not deferred
    assert "💡" not in calls.shown
