"""The podium of a season that ended: its number, and its best three members on steps of
three heights, each step carrying its place as a big digit (the first signal; its colour
is the second), the member's name, season rating and record above it (an empty place,
when fewer were ranked, is an outline).

Drawn from engine values only (:class:`~engine.seasons.SeasonStanding`), on the board's
background, with the board's font and palette; every text reads on a phone (360 px wide), as
:mod:`~bot.pictures.lettering` promises.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.discord_plumbing.worker_processes import DRAWING
from bot.pictures.alt_text import DESCRIPTION_LIMIT
from bot.pictures.lettering import Lettering, Written, min_size
from bot.pictures.palette import (
    BACKGROUND,
    DIM,
    FRAME,
    GEISHA_COLOURS,
    GOLD,
    MUTED,
    TEXT,
    darker,
)
from bot.pictures.png import to_png
from bot.words.i18n import shortened, text
from engine.seasons import SeasonStanding

PODIUM_FILE = "podium.png"
WIDTH, HEIGHT = 720, 440
SMALLEST = min_size(WIDTH)
"""The smallest size any text here is drawn at (readable at 360 px)."""
_COLUMN = 220
_FLOOR = HEIGHT - 24
_STEPS = {1: (WIDTH // 2, 150), 2: (WIDTH // 2 - 232, 105), 3: (WIDTH // 2 + 232, 70)}
"""Place -> (centre x, step height): the winner in the middle, highest."""
_STEP_COLOURS = {1: GOLD, 2: MUTED, 3: darker(GEISHA_COLOURS[4], 0.8)}


def podium_image(
    lang: str,
    number: int,
    podium: Sequence[tuple[SeasonStanding, str]],
    *,
    record: list[Written] | None = None,
) -> Image.Image:
    """Season ``number``'s podium: ``podium`` holds up to three (standing, name), best first;
    with ``record``, every text drawn is listed."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=FRAME, width=4)
    pen = Lettering(draw, record)
    title = text(lang, "seasons.podium_title", number=number)
    pen.write((WIDTH // 2, 44), title, 36, GOLD, anchor="mm", max_width=WIDTH - 40)
    draw.line((24, _FLOOR, WIDTH - 24, _FLOOR), fill=FRAME, width=3)
    shown = {standing.rank: (standing, name) for standing, name in podium}
    for place, (centre, height) in _STEPS.items():
        left, top = centre - _COLUMN // 2, _FLOOR - height
        colour = _STEP_COLOURS[place]
        found = shown.get(place)
        if found is None:
            # An empty place (fewer were ranked) is an outline, so the shape still reads.
            draw.rectangle((left, top, left + _COLUMN, _FLOOR), outline=DIM, width=3)
            pen.write((centre, top + height // 2), str(place), 48, DIM, anchor="mm")
            continue
        standing, name = found
        draw.rectangle((left, top, left + _COLUMN, _FLOOR), fill=colour)
        pen.write((centre, top + height // 2), str(place), 56, BACKGROUND, anchor="mm")
        record_text = text(lang, "seasons.podium_record", wins=standing.wins, games=standing.games)
        pen.write(
            (centre, top - 20), record_text, SMALLEST + 1, MUTED, anchor="mm", max_width=_COLUMN
        )
        rating = str(round(standing.rating.rating))
        pen.write((centre, top - 52), rating, 28, GOLD, anchor="mm")
        pen.write((centre, top - 90), name, 30, TEXT, anchor="mm", max_width=_COLUMN)
    return image


def render_podium(lang: str, number: int, podium: Sequence[tuple[SeasonStanding, str]]) -> bytes:
    """The podium as PNG bytes, its words in ``lang``."""
    return to_png(podium_image(lang, number, podium))


async def render_podium_async(
    lang: str, number: int, podium: Sequence[tuple[SeasonStanding, str]]
) -> bytes:
    """:func:`render_podium` in the drawing process, so the event loop never waits on Pillow."""
    return await DRAWING.run(render_podium, lang, number, tuple(podium))


def podium_alt_text(lang: str, number: int, podium: Sequence[tuple[SeasonStanding, str]]) -> str:
    """The podium in words (the attachment's description)."""
    places = [
        text(
            lang,
            "seasons.podium_alt_place",
            rank=standing.rank,
            name=name,
            rating=round(standing.rating.rating),
            wins=standing.wins,
            games=standing.games,
        )
        for standing, name in podium
    ]
    said = text(lang, "seasons.podium_alt", number=number, places="; ".join(places))
    return shortened(said, DESCRIPTION_LIMIT)
