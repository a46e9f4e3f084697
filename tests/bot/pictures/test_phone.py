"""Phone first: shrunk to the 360 px Discord gives an attachment on a phone, every word and
digit on the pictures keeps a cap height of at least 8 px, at every stage of a match."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.pictures.board_image import board_image
from bot.pictures.hand_image import hand_image
from bot.pictures.lettering import MIN_PHONE_CAP, PHONE_WIDTH, Written, cap_height
from bot.pictures.palette import font
from engine.rules import Phase, view
from engine.rules.state import Variant
from engine.rules.views import PublicView
from tests.bot.pictures.stages import LONG_NAMES, SHORT_NAMES, play_until, stages

DEADLINE = datetime(2026, 11, 23, 14, 5, tzinfo=UTC)
PICTURES = Path(__file__).parents[3] / "bot" / "pictures"


@cache
def boards(variant: Variant) -> dict[str, PublicView]:
    return stages(variant)


def at_phone_width(image: Image.Image, record: list[Written]) -> float:
    """The smallest cap height, in px, once the picture is shown 360 px wide."""
    assert record, "the picture has text"
    return min(w.cap for w in record) * PHONE_WIDTH / image.width


def assert_all_on_picture(image: Image.Image, record: list[Written]) -> None:
    for written in record:
        left, top, right, bottom = written.box
        assert left >= 0 and right <= image.width, f"{written.text!r} runs off the picture"
        assert top >= 0 and bottom <= image.height, f"{written.text!r} runs off the picture"


STAGES = [
    "start",
    "mid-round",
    "hidden-last-move",
    "pending-gift",
    "pending-competition",
    "round-end",
    "match-end",
    "resigned",
]


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("names", [SHORT_NAMES, LONG_NAMES], ids=["short", "long"])
def test_every_board_text_is_8px_high_at_360px_wide(variant, stage, lang, names):
    public = boards(variant)[stage]
    record: list[Written] = []
    image = board_image(lang, public, names, deadline=DEADLINE, record=record)
    assert at_phone_width(image, record) >= MIN_PHONE_CAP
    assert_all_on_picture(image, record)
    drawn = {w.text for w in record}
    for seat in (0, 1):  # every count labelled, as text on the picture
        assert str(public.hand_sizes[seat]) in drawn
    assert any(str(public.pile_size) in t for t in drawn)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(
    "moment",
    ["first turn", "secret and trade-off", "empty hand", "offer to answer"],
)
def test_every_hand_text_is_8px_high_at_360px_wide(lang, moment):
    stop = {
        "first turn": lambda s: not s.log[-1] and s.round_number == 1,
        "secret and trade-off": lambda s: (
            s.secret[s.to_move] is not None
            and s.tradeoff[s.to_move] is not None
            and s.phase is Phase.ACTION
        ),
        "empty hand": lambda s: s.phase is not Phase.ACTION and not s.is_over,
        "offer to answer": lambda s: s.phase is Phase.GIFT_CHOICE,
    }[moment]
    state = play_until(stop)
    mine = view(state, state.current_player)
    if moment == "empty hand":
        mine = dataclasses.replace(mine, hand=(), drawn=None)
    record: list[Written] = []
    image = hand_image(lang, mine, record=record)
    assert at_phone_width(image, record) >= MIN_PHONE_CAP
    assert_all_on_picture(image, record)


def test_cap_height_is_the_fonts_own_measure():
    """The recorded cap height is the ink of a capital H, read back from a drawing."""
    for size in (24, 28, 44):
        sample = Image.new("L", (200, 200))
        ImageDraw.Draw(sample).text((20, 150), "H", font=font(size), fill=255, anchor="ls")
        box = sample.point(lambda v: 255 if v > 127 else 0).getbbox()
        assert box is not None
        assert abs((box[3] - box[1]) - cap_height(size)) <= 1


def test_no_text_is_drawn_around_the_recorder():
    """Every word reaches the picture through Lettering.write, so the size check sees it."""
    for path in PICTURES.glob("*.py"):
        if path.name in ("lettering.py", "png.py"):  # png.py draws only its palette sample
            continue
        assert not re.search(r"\.text\(", path.read_text()), f"{path.name} draws text directly"
