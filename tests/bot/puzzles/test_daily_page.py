"""The daily puzzle's public message and its buttons: the ids read as written (and a
garbled or impossible one is refused before the service), the position is the mover's own
view with one button per choice answering that day's puzzle, the solvers are named (twenty,
then "and N more"), and every line reads in English and Spanish."""

from __future__ import annotations

import re

import discord
import pytest

from bot.custom_ids import DAILY_CHOICE_TEMPLATE, UNREADABLE, daily_choice_id
from bot.puzzles import ITEMS
from bot.puzzles.daily_button import DailyChoiceButton
from bot.puzzles.daily_page import daily_page, day_text, solvers_text
from tests.bot.fakes import FakeInteraction

from .conftest import BUILTIN, FACES, FakePuzzles

DAY = 23_149
"""2033-05-19."""


def owners(custom_id: str) -> list[str]:
    found = [i.__name__ for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
    return found + (["unreadable"] if re.fullmatch(UNREADABLE, custom_id) else [])


def test_the_ids_read_as_written():
    assert daily_choice_id(DAY, "match/12/5", "3CEE") == "pzd:23149:match/12/5:3CEE"
    assert owners("pzd:23149:match/12/5:3CEE") == ["DailyChoiceButton"]
    assert owners("pzd:0:builtin/0/22:-AB") == ["DailyChoiceButton"]


@pytest.mark.parametrize(
    "custom_id", ["pzd:", "pzd:1", "pzd:x:match/1/2:1A", "pzd:1:match/1/2:1H", "pzd:1:other/1/2:1A"]
)
def test_a_garbled_id_is_the_catch_alls(custom_id):
    assert owners(custom_id) == ["unreadable"]


@pytest.mark.parametrize(
    "custom_id", ["pzd:9999999:match/12/5:1A", "pzd:1:match/0/5:1A", "pzd:1:match/12/5:1AAAA"]
)
async def test_an_id_the_bot_never_writes_is_refused_before_the_service(custom_id):
    match = re.fullmatch(DAILY_CHOICE_TEMPLATE, custom_id)
    assert match is not None
    button = discord.ui.Button[discord.ui.View](custom_id=custom_id)
    item = await DailyChoiceButton.from_custom_id(None, button, match)  # type: ignore[arg-type]
    press = FakeInteraction.by(11)
    assert not await item.interaction_check(press)  # type: ignore[arg-type]
    assert press.response.sent[0]["ephemeral"]


def test_the_solvers_are_named_up_to_the_limit_then_counted():
    assert day_text(DAY) == "2033-05-19"
    assert solvers_text("en", [], 0) == "Nobody has solved it yet."
    assert solvers_text("en", [5, 6], 2) == "✅ Solved by <@5>, <@6>."
    assert solvers_text("en", [5, 6], 25) == "✅ Solved by <@5>, <@6> and 23 more."
    assert solvers_text("es", [5], 3) == "✅ Resuelto por <@5> y 2 más."
    assert solvers_text("es", [], 0) == "Nadie lo ha resuelto todavía."


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_public_page_poses_the_movers_view_with_the_days_buttons(lang):
    key = next(iter(BUILTIN))
    posed = await FakePuzzles().posed(1, key)
    page = await daily_page(lang, DAY, posed, None, FACES, [7], 1)

    puzzle = BUILTIN[key].puzzle
    ids = [item.custom_id for row in page.rows for item in row]  # type: ignore[attr-defined]
    assert ids == [daily_choice_id(DAY, key, c.decision) for c in puzzle.choices]
    assert page.image is not None and page.image[0] == "board.png"
    title = {"en": "🧩 Daily puzzle · 2033-05-19", "es": "🧩 Problema del día · 2033-05-19"}
    assert page.title.startswith(title[lang])
    assert page.text.endswith("<@7>.")
    ask = {"en": "Everyone gets one try", "es": "Cada uno tiene un intento"}
    assert ask[lang] in page.text
    assert "{" not in page.text and "{" not in page.title  # every placeholder filled
    # The private page's own question is not on the public one (it asks its own).
    assert ("Choose below: one try." in page.text) is False
