"""The panel opened by a press in a hint match: the press is acknowledged before the hint is
asked for, a slow hint never holds the answer, and a match without hints is answered as
before, with no hint line."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_plumbing.first_response import FirstResponse, hold_back
from bot.play import panel as panel_module
from bot.play.hint_line import hint_text
from bot.play.panel import Panel
from bot.words.i18n import text
from engine.model import AI_USER_ID
from engine.review.hint import Suggestion
from engine.rules import PlayerView
from engine.service import MatchInfo, MatchStatus
from tests.bot.fakes import FakeDirectMessages, FakeHints, FakeInteraction, FakeNames, FakeQueries
from tests.builders import first_deal_views, match_info

ANA = 11
BEN = 12
HANG_GUARD_SECONDS = 30.0
"""Only to fail rather than hang: nothing here measures how fast anything is."""


def _setting(hints: bool) -> tuple[MatchInfo, PlayerView]:
    """A match where ANA is to decide: against the AI with ``hints``, else against BEN."""
    mine, _ = first_deal_views()
    other = AI_USER_ID if hints else BEN
    players = (ANA, other) if mine.player == 0 else (other, ANA)
    return match_info(7, players, MatchStatus.ACTIVE, hints=hints), mine


def _panel(hints: FakeHints, seen: PlayerView) -> Panel:
    return Panel(
        FakeQueries(seen=seen),  # type: ignore[arg-type]
        FakeNames(("ana", "AI (normal)")),  # type: ignore[arg-type]
        FakeDirectMessages(),  # type: ignore[arg-type]
        hints,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("held_back", [False, True], ids=["acknowledged", "held back"])
async def test_a_hint_panel_is_acknowledged_before_the_hint_is_asked_for(held_back: bool):
    info, seen = _setting(hints=True)
    interaction = FakeInteraction.by(ANA)
    if held_back:  # as a press on the board's Hand is: its answer would be the first response
        hold_back(interaction, FirstResponse.THINK)  # type: ignore[arg-type]
    hints = FakeHints({ANA: seen}, chance=0.4, log=interaction.log)
    await _panel(hints, seen).home(interaction, "en", info, edit=False)  # type: ignore[arg-type]
    assert interaction.log == ["defer", "hint", "edit"]
    assert hint_text("en", Suggestion(seen.legal[0], 0.4)) in interaction.shown
    # The hint asked for is the one of the position this panel shows, not a later one.
    assert hints.asked == [(7, ANA, seen.table.version)]


async def test_a_slow_hint_does_not_hold_the_panel(monkeypatch: pytest.MonkeyPatch):
    # No waiting at all: the hint below answers only when released, after the panel is shown.
    monkeypatch.setattr(panel_module, "HINT_WAIT_SECONDS", 0)
    info, seen = _setting(hints=True)
    interaction = FakeInteraction.by(ANA)
    hints = FakeHints({ANA: seen}, chance=0.4, released=False, log=interaction.log)
    shown = _panel(hints, seen).home(interaction, "en", info, edit=False)  # type: ignore[arg-type]
    # A panel that waited for the held hint would never be shown: fail then, do not hang.
    await asyncio.wait_for(shown, HANG_GUARD_SECONDS)
    assert interaction.log == ["defer", "hint", "edit"]  # shown while the hint is still held
    assert text("en", "ai_hints.thinking") in interaction.shown
    assert not hints.answered.done()
    hints.release.set()
    # Still worked out after the panel was shown, so a Refresh finds it.
    assert await hints.answered == Suggestion(seen.legal[0], 0.4)


async def test_a_match_without_hints_is_answered_as_before_with_no_hint_line():
    info, seen = _setting(hints=False)
    interaction = FakeInteraction.by(ANA)
    hints = FakeHints({ANA: seen}, log=interaction.log)
    await _panel(hints, seen).home(interaction, "en", info, edit=False)  # type: ignore[arg-type]
    assert interaction.log == ["send"]  # no hint asked for, the answer not deferred
    assert "💡" not in interaction.shown
