"""The board page carries its picture's alt text and the turn's deadline, and a Moves
button anyone may press, also once the match is over."""

from __future__ import annotations

import random

from bot.discord_plumbing.pages import message_kwargs
from bot.play.board import board_page
from bot.play.moves_button import MovesButton
from engine.rules import new_game, public_view


async def test_the_board_picture_has_alt_text_and_the_text_a_live_deadline():
    table = public_view(new_game(seed=2))
    page = await board_page("en", 7, table, ("ana", "ben"), ai_seat=None, deadline=1.9e9)
    assert "<t:1900000000:R>" in page.text
    assert page.image_description.startswith("Hanamikoji board, round 1")
    file = message_kwargs(page)["file"]
    assert file.description == page.image_description
    assert any(isinstance(item, MovesButton) for row in page.rows for item in row)
    assert MovesButton(7).custom_id == "hk:7:0:moves"


async def test_a_finished_board_keeps_only_the_moves_button_and_no_deadline():
    game = new_game(seed=2)
    rng = random.Random(1)
    while game.outcome is None:
        game.apply(rng.choice(game.legal_decisions()))
    page = await board_page("en", 7, public_view(game), ("ana", "ben"), ai_seat=None, deadline=5.0)
    assert "<t:" not in page.text
    assert [type(item) for row in page.rows for item in row] == [MovesButton]
