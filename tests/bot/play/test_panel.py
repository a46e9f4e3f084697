"""The private panel offers only what the rules allow, and marks the drawn card once."""

from __future__ import annotations

from dataclasses import replace

from bot.play.action_buttons import GiftButton
from bot.play.card_select import card_select
from bot.play.panel import home_page, pick_page
from bot.words.i18n import text
from engine.rules import Action, new_game, view


def test_the_card_select_marks_one_copy_of_the_drawn_card():
    mine = view(new_game(seed=5), 0)
    mine = replace(mine, hand=(0, 4, 4, 6), drawn=4)
    select = card_select("en", mine, 1, Action.GIFT)
    marked = [
        o.value for o in select.item.options if o.description == text("en", "panel.just_drawn")
    ]
    assert marked == ["2"]


def test_the_first_page_offers_a_gift_button_on_your_turn():
    game = new_game(seed=5)
    mine = view(game, game.current_player)
    page = home_page("en", mine, 1, ("ana", "ben"))
    buttons = [item for row in page.rows for item in row]
    assert any(isinstance(b, GiftButton) for b in buttons)


def test_the_pick_page_holds_the_select_and_back():
    game = new_game(seed=5)
    mine = view(game, game.current_player)
    page = pick_page("en", mine, 1, Action.SECRET)
    assert [len(row) for row in page.rows] == [1, 1]
