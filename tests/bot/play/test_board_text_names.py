"""The text board's code block holds whatever the players are called: a name that is
markdown gives way to the arrows the legend explains, and the legend shows it as written."""

from __future__ import annotations

from bot.play.words import LEFT_MARK, RIGHT_MARK, board_text, geisha_grid
from bot.words.player_names import markdown_safe
from engine.rules import new_game, public_view


def code_block(text: str) -> str:
    assert text.count("```") == 2, text
    return text.split("```")[1]


def test_short_plain_names_head_the_columns():
    table = public_view(new_game(seed=2))
    head = code_block(geisha_grid("en", table, ("ana", "ben"))).strip().splitlines()[0]
    assert "ana" in head and "ben" in head


def test_a_name_with_a_backtick_cannot_close_the_code_block():
    table = public_view(new_game(seed=2))
    names = (markdown_safe("```"), markdown_safe("@here"))
    block = code_block(geisha_grid("en", table, names))
    assert LEFT_MARK in block and RIGHT_MARK in block
    assert "`" not in block and "\\" not in block
    whole = board_text("en", table, names)
    assert whole.count("```") == 2 and "@here" not in whole
