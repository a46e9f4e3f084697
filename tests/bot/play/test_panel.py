"""The private panel offers only what the rules allow, and marks the drawn card once."""

from __future__ import annotations

from dataclasses import replace

from bot.play.action_buttons import GiftButton
from bot.play.card_select import card_select
from bot.play.panel import home_page, pick_page
from bot.words.card_faces import CardFaces, action_key, card_key
from bot.words.hand_lines import face_down_text, hand_text
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


FACES = CardFaces(
    {card_key(c): (f"hk_{card_key(c)}", 900 + c) for c in range(7)}
    | {action_key(a): (f"hk_{action_key(a)}", 950 + a.size) for a in Action}
)


def test_with_emojis_the_hand_shows_each_card_emoji_beside_its_letter():
    mine = replace(view(new_game(seed=5), 0), hand=(0, 4, 4, 6), drawn=None)
    assert hand_text("en", mine, FACES).split(" · ")[1] == "<:hk_card_e:904> **E** Shamisen ×2"
    assert hand_text("en", mine).split(" · ")[1] == "**E** Shamisen ×2"  # letters only


def test_with_emojis_the_action_buttons_and_card_options_carry_them():
    game = new_game(seed=5)
    mine = view(game, game.current_player)
    page = home_page("en", mine, 1, ("ana", "ben"), faces=FACES)
    gift = next(b for row in page.rows for b in row if isinstance(b, GiftButton))
    assert gift.item.emoji is not None and gift.item.emoji.id == 953
    select = card_select("en", mine, 1, Action.GIFT, FACES)
    assert [o.emoji.id for o in select.item.options if o.emoji] == [900 + c for c in mine.hand]


def test_with_emojis_the_face_down_cards_and_the_drawn_card_show_them():
    mine = replace(view(new_game(seed=5), 0), secret=2, trade_off=(0, 6), drawn=4)
    assert face_down_text("en", mine, FACES).startswith(
        "Secret: **<:hk_card_c:902> C** · Trade-off: **<:hk_card_a:900> A <:hk_card_g:906> G**"
    )
    assert face_down_text("en", mine).startswith("Secret: **C** · Trade-off: **A G**")
