"""All words and digits on the pictures go through :class:`Lettering`, which can record
each text's cap height as drawn, so a test can check what a phone shows.

Discord shows an attachment about 360 px wide on a phone; a picture promises that every
text is at least :data:`MIN_PHONE_CAP` px tall (cap height) once scaled to that width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import ImageDraw

from bot.pictures.palette import Colour, font

PHONE_WIDTH = 360
"""How wide Discord shows an attachment on a phone, in px."""
MIN_PHONE_CAP = 8
"""The smallest cap height, in px, any text may have on a phone."""


@cache
def cap_height(size: int) -> int:
    """The inked height of a capital H at ``size``, in px (the font's own metric)."""
    _, top, _, bottom = font(size).getbbox("H", anchor="ls")
    return int(bottom - top)


def min_size(width: int) -> int:
    """The smallest font size whose cap height reads on a phone for a picture ``width`` wide."""
    size = 6
    while cap_height(size) * PHONE_WIDTH < MIN_PHONE_CAP * width:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class Written:
    """One text as drawn: what, at which size, its cap height and its ink box."""

    text: str
    size: int
    cap: int
    box: tuple[int, int, int, int]


class Lettering:
    """Draws text on one picture; with ``record``, appends a :class:`Written` for each."""

    def __init__(self, draw: ImageDraw.ImageDraw, record: list[Written] | None = None) -> None:
        self.draw = draw
        self.record = record

    def width(self, text: str, size: int) -> int:
        return int(font(size).getlength(text) + 0.999)

    def fit(self, text: str, size: int, max_width: int) -> str:
        """``text``, cut with an ellipsis where it is wider than ``max_width``."""
        if self.width(text, size) <= max_width:
            return text
        while text and self.width(text + "…", size) > max_width:
            text = text[:-1]
        return text.rstrip() + "…"

    def write(
        self,
        xy: tuple[int, int],
        text: str,
        size: int,
        fill: Colour,
        anchor: str = "lm",
        max_width: int | None = None,
    ) -> int:
        """Draw ``text`` and return its width."""
        if max_width is not None:
            text = self.fit(text, size, max_width)
        if not text:
            return 0
        face = font(size)
        self.draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        if self.record is not None:
            left, top, right, bottom = self.draw.textbbox(xy, text, font=face, anchor=anchor)
            box = (int(left), int(top), int(right), int(bottom))
            self.record.append(Written(text, size, cap_height(size), box))
        return self.width(text, size)
