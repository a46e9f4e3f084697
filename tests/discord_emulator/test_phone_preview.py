"""The phone preview draws what a message holds: its pictures, custom emoji, wrapped text."""

from __future__ import annotations

import io
from datetime import UTC
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from tests.discord_emulator.clock import VirtualClock
from tests.discord_emulator.limits import MESSAGE_FLAG_COMPONENTS_V2
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.phone_preview import (
    phone_png,
    preview_file,
    timestamp_text,
    world_options,
)
from tests.discord_emulator.snowflakes import SnowflakeFactory
from tests.discord_emulator.world import World

NOW = 1_790_000_000.0
GALLERY_MARK = (255, 0, 220)
"""A colour nothing else in the preview uses, so finding it proves the picture is drawn."""
EMOJI_MARK = (0, 255, 90)
EMOJI_ID = 1234567890123


def png(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    image = Image.new("RGB", size, (20, 20, 20))
    ImageDraw.Draw(image).rectangle((size[0] // 8, size[1] // 8, size[0], size[1]), fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def snapshot(
    *,
    content: str = "",
    embeds: tuple[dict[str, Any], ...] = (),
    components: tuple[dict[str, Any], ...] = (),
    attachments: tuple[tuple[str, bytes], ...] = (),
    flags: int = 0,
) -> MessageSnapshot:
    return MessageSnapshot(
        id=1,
        channel_id=2,
        author_id=3,
        content=content,
        embeds=embeds,
        components=components,
        attachments=attachments,
        flags=flags,
        edited=False,
        loading=False,
    )


def board_message(
    text: str = "Ana plays a **Secret**.", code: str = "2 2 2 3 3 4 5", *, buttons: bool = True
) -> MessageSnapshot:
    """A Components V2 board: heading, code, picture, separator, buttons, a select."""
    row = {
        "type": 1,
        "components": [
            {
                "type": 2,
                "style": 1,
                "label": "Secret",
                "custom_id": "secret",
                "emoji": {"id": str(EMOJI_ID), "name": "secret"},
            },
            {"type": 2, "style": 2, "label": "Gift", "custom_id": "gift"},
            {"type": 2, "style": 4, "label": "Resign", "custom_id": "resign"},
        ],
    }
    container = {
        "type": 17,
        "accent_color": 0xE8BA54,
        "components": [
            {"type": 10, "content": f"# Ana vs Ben\n{text}\n-# Turn ends <t:{int(NOW) + 300}:R>"},
            {"type": 10, "content": f"```\nA B C D E F G\n{code}\n```"},
            {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
            {"type": 14, "divider": True, "spacing": 1},
            *([row] if buttons else []),
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": "cards",
                        "placeholder": "Choose a card",
                        "options": [{"label": "A", "value": "a"}],
                    }
                ],
            },
        ],
    }
    return snapshot(
        components=(container,),
        attachments=(("board.png", png((300, 200), GALLERY_MARK)),),
        flags=MESSAGE_FLAG_COMPONENTS_V2,
    )


def embed_message() -> MessageSnapshot:
    embed = {
        "title": "Ana vs Ben",
        "description": "Round 2. **Ana** to play.",
        "color": 0xE8BA54,
        "image": {"url": "attachment://board.png"},
        "footer": {"text": "Hanamikoji"},
    }
    return snapshot(
        content="Your turn, <@7>",
        embeds=(embed,),
        attachments=(("board.png", png((300, 200), GALLERY_MARK)),),
    )


def pixels(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def has_colour(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    colours = image.getcolors(maxcolors=image.width * image.height) or []
    return any(found == colour for _, found in colours)


def test_a_components_v2_board_is_720_px_wide_with_its_picture() -> None:
    image = pixels(phone_png(board_message(), now=NOW))
    assert image.width == 720
    assert has_colour(image, GALLERY_MARK)


def test_scale_one_is_the_phone_width_itself() -> None:
    assert pixels(phone_png(board_message(), now=NOW, scale=1)).width == 360


def test_a_custom_emoji_is_drawn_from_its_image() -> None:
    without = pixels(phone_png(board_message(), now=NOW))
    emoji = {EMOJI_ID: png((64, 64), EMOJI_MARK)}
    with_emoji = pixels(phone_png(board_message(), now=NOW, emoji_images=emoji))
    assert not has_colour(without, EMOJI_MARK)
    assert has_colour(with_emoji, EMOJI_MARK)


def test_a_custom_emoji_in_text_is_drawn_too() -> None:
    emoji = {EMOJI_ID: png((64, 64), EMOJI_MARK)}
    # No buttons: only the text's emoji can bring the colour.
    message = board_message(f"Ana plays <:secret:{EMOJI_ID}> a Secret.", buttons=False)
    assert has_colour(pixels(phone_png(message, now=NOW, emoji_images=emoji)), EMOJI_MARK)
    assert not has_colour(pixels(phone_png(message, now=NOW)), EMOJI_MARK)


def test_long_text_wraps_and_grows_the_height() -> None:
    short = pixels(phone_png(board_message("Short."), now=NOW))
    long = pixels(phone_png(board_message("Many words that will not fit. " * 12), now=NOW))
    assert long.width == short.width
    assert long.height > short.height + 5 * 2 * 22


def test_a_code_block_is_cut_not_wrapped() -> None:
    """A phone scrolls a code block sideways: a long line makes the picture no taller."""
    short = pixels(phone_png(board_message(code="1 2"), now=NOW))
    long = pixels(phone_png(board_message(code="1 2 " * 60), now=NOW))
    assert long.size == short.size


def test_a_legacy_embed_message_draws_its_image() -> None:
    image = pixels(phone_png(embed_message(), now=NOW, names={7: "Ana"}))
    assert image.width == 720
    assert has_colour(image, GALLERY_MARK)


def test_preview_file_writes_the_png(tmp_path: Path) -> None:
    path = tmp_path / "board.png"
    preview_file(board_message(), path, now=NOW)
    assert path.read_bytes() == phone_png(board_message(), now=NOW)


async def test_the_world_gives_its_emoji_pictures_and_names() -> None:
    # Async only because the virtual clock reads the running loop.
    world = World(VirtualClock(), SnowflakeFactory())
    ana = world.add_user("ana")
    emoji = world.add_application_emoji("secret", png((64, 64), EMOJI_MARK), "image/png")
    options = world_options(world)
    assert (options.get("names") or {})[ana.id] == "ana"
    assert (options.get("emoji_images") or {})[emoji.id].startswith(b"\x89PNG")


def test_timestamps_read_as_discord_writes_them() -> None:
    assert timestamp_text(int(NOW) + 300, "R", now=NOW, tz=UTC) == "in 5 minutes"
    assert timestamp_text(int(NOW) - 7200, "R", now=NOW, tz=UTC) == "2 hours ago"
    assert timestamp_text(int(NOW), "t", now=NOW, tz=UTC) == "2:13 PM"
