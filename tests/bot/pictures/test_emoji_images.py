"""The card and marker emojis are what Discord takes (square PNGs with transparency, far
under 256 KiB) and can be told apart: every one is different, and at the size Discord
shows them the letter or the count is still there to read."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures.emoji_images import SIZE, emoji_images
from bot.words.card_faces import action_key, card_key
from engine.rules import Action

DISCORD_EMOJI_BYTES = 256 * 1024


def test_there_is_one_emoji_per_card_and_per_action_marker():
    keys = set(emoji_images())
    assert keys == {card_key(c) for c in range(7)} | {action_key(a) for a in Action}


def test_each_emoji_is_a_square_transparent_png_discord_accepts():
    for key, data in emoji_images().items():
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and image.size == (SIZE, SIZE), key
        assert len(data) < DISCORD_EMOJI_BYTES, key
        assert image.convert("RGBA").getpixel((0, 0))[3] == 0, key  # the corner shows through


def test_no_two_emojis_look_the_same_even_at_twenty_two_pixels():
    small = {
        key: Image.open(io.BytesIO(data)).convert("RGBA").resize((22, 22)).tobytes()
        for key, data in emoji_images().items()
    }
    assert len(set(small.values())) == len(small)
