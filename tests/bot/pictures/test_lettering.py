"""The text masks the drawing process keeps draw the very pixels Pillow's own
``ImageDraw.text`` draws: a board or hand from the kept masks is the same picture, byte for
byte, as one whose every text is rasterised afresh."""

import random

import pytest
from PIL import Image, ImageDraw

from bot.pictures.board_image import board_image
from bot.pictures.hand_image import hand_image
from bot.pictures.lettering import Lettering, text_mask
from bot.pictures.palette import BACKGROUND, GOLD, MUTED, TEXT
from engine.rules import new_game, public_view, view
from tests.bot.pictures.stages import LONG_NAMES, SHORT_NAMES


def _drawn_by_pillow(self, xy, text, size, fill, anchor):
    from bot.pictures.palette import font

    self.draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)


def _positions(seed: int, count: int):
    """The public board and the mover's view at ``count`` moments of a seeded game."""
    state = new_game(seed)
    rng = random.Random(seed)
    found = []
    while not state.is_over and len(found) < count:
        found.append((public_view(state), view(state, state.current_player or 0)))
        state.apply(rng.choice(state.legal_decisions()))
    return found


@pytest.mark.parametrize("lang", ["en", "es"])
def test_boards_and_hands_from_kept_masks_are_pillows_pictures(lang, monkeypatch):
    positions = _positions(seed=3, count=40)
    kept = [
        (
            board_image(lang, public, names).tobytes(),
            hand_image(lang, mine).tobytes(),
        )
        for public, mine in positions
        for names in (SHORT_NAMES, LONG_NAMES)
    ]
    # Drawn twice: the second time every mask comes from what was kept.
    assert text_mask.cache_info().hits > 0
    monkeypatch.setattr(Lettering, "_lay_down", _drawn_by_pillow)
    fresh = [
        (
            board_image(lang, public, names).tobytes(),
            hand_image(lang, mine).tobytes(),
        )
        for public, mine in positions
        for names in (SHORT_NAMES, LONG_NAMES)
    ]
    assert kept == fresh


@pytest.mark.parametrize("anchor", ["lm", "mm", "rm", "ls", "la", "mt", "rb"])
def test_one_text_at_each_anchor_and_ink_is_pillows(anchor):
    words = ["Geisha ×3", "Competición", "0", "Wilhelmina", "Ñandú 12:05", "…"]
    for size in (18, 24, 33):
        for ink in (GOLD, MUTED, TEXT):
            ours = Image.new("RGB", (400, 120), BACKGROUND)
            theirs = ours.copy()
            pen = Lettering(ImageDraw.Draw(ours))
            for word in words:
                pen.write((200, 60), word, size, ink, anchor=anchor)
                pen.write((200, 60), word, size, ink, anchor=anchor)  # the kept mask
            draw = ImageDraw.Draw(theirs)
            for word in words:
                for _ in range(2):
                    _drawn_by_pillow(pen.__class__(draw), (200, 60), word, size, ink, anchor)
            assert ours.tobytes() == theirs.tobytes(), (anchor, size, ink)
