"""`/hanamikoji puzzle` fits the group within Discord's limits in every language, and the
puzzle buttons' ids read back only as the bot writes them (a garbled one is refused before
the service is asked)."""

from __future__ import annotations

import re

import discord
import pytest

from bot.custom_ids import PUZZLE_CHOICE_TEMPLATE, UNREADABLE, puzzle_choice_id, puzzle_next_id
from bot.puzzles import ITEMS
from bot.puzzles.choice_button import PuzzleChoiceButton
from tests.bot.fakes import FakeInteraction
from tests.bot.whole_group import whole_group_payload
from tests.discord_emulator.application_commands import MAX_COMMAND_SIZE, command_size


async def test_the_whole_group_with_the_puzzle_command_fits_discords_limits():
    payload = await whole_group_payload()
    assert len(payload["options"]) <= 25
    assert command_size(payload) <= MAX_COMMAND_SIZE
    puzzle = next(o for o in payload["options"] if o["name"] == "puzzle")
    assert puzzle["name_localizations"]["es-ES"] == "problema"


def owners(custom_id: str) -> list[str]:
    found = [i.__name__ for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
    return found + (["unreadable"] if re.fullmatch(UNREADABLE, custom_id) else [])


def test_the_ids_read_as_written():
    assert puzzle_choice_id("match/12/5", "3CEE") == "pz:match/12/5:3CEE"
    assert puzzle_choice_id("builtin/0/22", "-A") == "pz:builtin/0/22:-A"
    assert owners("pz:match/12/5:3CEE") == ["PuzzleChoiceButton"]
    assert owners("pz:builtin/0/22:-AB") == ["PuzzleChoiceButton"]
    assert owners(puzzle_next_id()) == ["NextPuzzleButton"]


@pytest.mark.parametrize(
    "custom_id", ["pz:", "pz:nope", "pz:match/12:3CEE", "pz:other/1/2:1A", "pz:match/1/2:1H"]
)
def test_a_garbled_id_is_the_catch_alls(custom_id):
    assert owners(custom_id) == ["unreadable"]


@pytest.mark.parametrize(
    "custom_id", ["pz:match/0/5:1A", "pz:match/12/0:1A", "pz:match/12/5:1AAAA", "pz:match/12/5:-"]
)
async def test_an_id_the_bot_never_writes_is_refused_before_the_service(custom_id):
    match = re.fullmatch(PUZZLE_CHOICE_TEMPLATE, custom_id)
    assert match is not None
    button = discord.ui.Button[discord.ui.View](custom_id=custom_id)
    item = await PuzzleChoiceButton.from_custom_id(None, button, match)  # type: ignore[arg-type]
    press = FakeInteraction.by(11)
    assert not await item.interaction_check(press)  # type: ignore[arg-type]
    assert press.response.sent[0]["ephemeral"]
