"""The pictures: the right size, different where the board differs, blind to hidden cards."""

import dataclasses
import io
import random

from PIL import Image, ImageChops

from bot.pictures import hand_image, render_board, render_hand
from bot.pictures.board_layout import COLUMN, HEIGHT, WIDTH, column_x
from engine.rules import new_game, public_view, view
from engine.rules.state import GameState
from tests.engine.rules.test_properties import reshuffle_hidden

NAMES = ("ana", "ben")


def midgame(seed: int = 4, decisions: int = 14) -> GameState:
    """A game some decisions in, stopped at a turn (not at an open offer)."""
    state = new_game(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        state.apply(rng.choice(state.legal_decisions()))
    while state.pending is not None:
        state.apply(rng.choice(state.legal_decisions()))
    assert not state.is_over
    return state


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(pixels(a), pixels(b)).getbbox()


def test_the_board_is_a_png_of_the_documented_size():
    png = render_board("en", public_view(midgame()), NAMES)
    assert png.startswith(b"\x89PNG")
    assert pixels(png).size == (WIDTH, HEIGHT)
    assert len(png) < 200_000


def test_a_favor_marker_moving_changes_only_that_geishas_column():
    public = public_view(midgame())
    g = (
        next(i for i, side in enumerate(public.favor) if side is None)
        if None in public.favor
        else 0
    )
    favor = list(public.favor)
    for side in (0, 1):
        favor[g] = side
        moved = dataclasses.replace(public, favor=tuple(favor))
        box = changed_box(render_board("en", public, NAMES), render_board("en", moved, NAMES))
        assert box is not None, "the marker move is visible"
        left, _, right, _ = box
        assert column_x(g) <= left and right <= column_x(g) + COLUMN


def test_one_more_item_shows_as_one_more_chip_in_that_column():
    public = public_view(midgame())
    items = [list(public.items[0]), list(public.items[1])]
    g = min(range(7), key=lambda i: items[1][i])
    items[1][g] += 1
    more = dataclasses.replace(public, items=(tuple(items[0]), tuple(items[1])))
    box = changed_box(render_board("en", public, NAMES), render_board("en", more, NAMES))
    assert box is not None
    assert column_x(g) <= box[0] and box[2] <= column_x(g) + COLUMN


def test_the_public_board_is_identical_whatever_the_hidden_cards():
    rng = random.Random(9)
    for seed in range(6):
        state = midgame(seed, decisions=5 + seed)
        twin = reshuffle_hidden(state, None, rng)
        assert twin.hands != state.hands or twin.removed != state.removed or twin.pile != state.pile
        assert render_board("en", public_view(state), NAMES) == render_board(
            "en", public_view(twin), NAMES
        )


def test_the_hand_marks_the_new_card_and_sets_face_down_cards_apart():
    state = midgame(decisions=6)
    mine = view(state, state.current_player)
    assert mine.drawn is not None
    with_new = render_hand("en", mine)
    without = render_hand("en", dataclasses.replace(mine, drawn=None))
    assert changed_box(with_new, without) is not None
    image = pixels(with_new)
    fewer = pixels(render_hand("en", dataclasses.replace(mine, hand=mine.hand[:-1], drawn=None)))
    assert image.size == fewer.size == (hand_image.WIDTH, hand_image.HEIGHT), "one width for phones"
    no_secret = render_hand("en", dataclasses.replace(mine, secret=None))
    secret_shown = render_hand("en", dataclasses.replace(mine, secret=mine.hand[0]))
    box = changed_box(no_secret, secret_shown)
    assert box is not None and box[1] >= hand_image.FACE_DOWN[0], "the Secret is set apart"


def test_the_hand_image_shows_only_its_owners_cards():
    state = midgame(decisions=6)
    rng = random.Random(1)
    player = state.current_player
    twin = reshuffle_hidden(state, player, rng)
    assert render_hand("en", view(state, player)) == render_hand("en", view(twin, player))
