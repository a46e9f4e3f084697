"""The progress line's pace, and the Review buttons of the history (who sees what of a
finished match is the engine's: tests/engine/service/test_sight.py)."""

from __future__ import annotations

from bot.review.progress_line import ProgressLine
from bot.stats.commands import _export_view


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
