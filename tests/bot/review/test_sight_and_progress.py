"""Who sees what of a finished match, and the progress line's pace."""

from __future__ import annotations

import pytest

from bot.review.progress_line import ProgressLine
from bot.stats.commands import _export_view
from engine.model import AI_USER_ID, MatchInfo, MatchStatus
from engine.service.sight import Sight, sight_of
from tests.bot.fakes import FakeSettings
from tests.builders import match_info

ANA, BEN, CARA = 11, 12, 13


def finished(players: tuple[int, int]) -> MatchInfo:
    return match_info(5, players, MatchStatus.FINISHED)


@pytest.mark.parametrize(
    ("players", "sharing", "viewer", "sight"),
    [
        ((ANA, BEN), set(), ANA, Sight.PLAYER),
        ((ANA, BEN), set(), BEN, Sight.PLAYER),
        ((ANA, BEN), set(), CARA, Sight.PUBLIC),
        ((ANA, BEN), {ANA}, CARA, Sight.PUBLIC),  # one player cannot open the other's hand
        ((ANA, BEN), {BEN}, CARA, Sight.PUBLIC),
        ((ANA, BEN), {ANA, BEN}, CARA, Sight.SHARED),
        ((ANA, AI_USER_ID), set(), CARA, Sight.PUBLIC),
        ((ANA, AI_USER_ID), {ANA}, CARA, Sight.SHARED),  # the AI counts as agreeing
    ],
)
async def test_a_spectator_sees_the_hidden_cards_only_when_both_players_share(
    players, sharing, viewer, sight
):
    found = await sight_of(FakeSettings(sharing), finished(players), viewer)  # type: ignore[arg-type]
    assert found is sight
    assert found.full is (sight is not Sight.PUBLIC)


async def test_the_progress_line_is_edited_at_most_once_a_second():
    now = [100.0]
    shown: list[str] = []

    async def show(line: str) -> None:
        shown.append(line)

    line = ProgressLine("en", 9, show, clock=lambda: now[0])
    assert line.first_text() == "⏳ Analysing match #9… 0%"
    for tick in range(1, 21):  # twenty steps, a quarter second apart
        now[0] += 0.25
        await line(tick / 20)
    assert line.shown == [20, 40, 60, 80, 100]
    assert shown[1] == "⏳ Analysing match #9… 40%"
    es = ProgressLine("es", 9, show, clock=lambda: now[0])
    assert es.first_text() == "⏳ Analizando la partida #9… 0%"


def test_each_history_entry_has_a_review_button_within_discords_rows():
    view = _export_view("en", list(range(101, 111)))
    assert view is not None
    items = view.children
    assert len(items) == 20
    rows: dict[int, list[str]] = {}
    for item in items:
        rows.setdefault(item.row, []).append(item.custom_id)
    assert all(len(ids) <= 5 for ids in rows.values()) and len(rows) <= 5
    assert [c for ids in rows.values() for c in ids if c.startswith("rv:")] == [
        f"rv:{m}" for m in range(101, 111)
    ]
    labels = {item.custom_id: getattr(item, "item", item).label for item in items}
    assert labels["rv:104"] == "Review #104" and labels["rec:104"] == "Record #104"
