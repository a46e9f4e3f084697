"""Colours, fonts and sizes shared by the pictures.

The pictures carry their own opaque background (dark lacquer, framed), so they read the
same on Discord's dark and light themes; every colour has a second signal (a letter, a
shape or a label), so nothing depends on colour alone.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

Colour = tuple[int, int, int]

BACKGROUND: Colour = (43, 29, 26)
FRAME: Colour = (92, 58, 44)
PANEL: Colour = (61, 42, 36)
TEXT: Colour = (244, 236, 222)
MUTED: Colour = (170, 150, 132)
DIM: Colour = (96, 78, 70)
GOLD: Colour = (232, 186, 84)
CARD_BACK: Colour = (120, 36, 48)
CARD_BACK_LINE: Colour = (214, 160, 110)

# One hue per geisha A–G; the letter is always drawn on top as the first signal.
GEISHA_COLOURS: tuple[Colour, ...] = (
    (155, 106, 196),  # A violet
    (214, 92, 126),  # B rose
    (82, 160, 196),  # C sky
    (96, 172, 112),  # D green
    (226, 150, 64),  # E orange
    (70, 110, 200),  # F blue
    (204, 64, 64),  # G red
)

# Seat markers differ in shape (circle / diamond) and carry the player's initial.
SEAT_COLOURS: tuple[Colour, Colour] = ((236, 200, 92), (120, 210, 220))


FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed.ttf"
"""DejaVu Sans Condensed (Bitstream Vera licence, beside the file): it has the accented
letters Spanish needs, which Pillow's bundled font lacks, and fits long labels."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), size=size)


def darker(colour: Colour, factor: float = 0.55) -> Colour:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))
