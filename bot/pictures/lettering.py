"""All words and digits on the pictures go through :class:`Lettering`, which can record
each text's cap height as drawn, so a test can check what a phone shows.

Most of a picture's drawing time was FreeType laying out and rasterising the same few
hundred texts (labels, digits, names) again for every board; each text's mask and width
are kept once worked out (:func:`text_mask`, :func:`text_width`), so a board costs the
drawing process about half the CPU. The pixels are Pillow's own: the cached mask is the
one ``ImageDraw.text`` makes and is laid down the same way
(tests/bot/pictures/test_lettering.py compares them).

Discord shows an attachment about 360 px wide on a phone; a picture promises that every
text is at least :data:`MIN_PHONE_CAP` px tall (cap height) once scaled to that width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

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


TEXTS_KEPT = 2048
"""Texts whose mask and width the drawing process keeps, the least recently drawn forgotten
first: every label and digit in both languages stays (each board draws them), the names
of the matches being played come and go. A mask is about 7 KB on average (measured over
300 boards with long names), so at most about 15 MB."""


@lru_cache(maxsize=TEXTS_KEPT)
def text_width(text: str, size: int) -> int:
    """The advance width of ``text`` at ``size``, rounded up to whole px."""
    return int(font(size).getlength(text) + 0.999)


@lru_cache(maxsize=TEXTS_KEPT)
def text_mask(text: str, size: int, anchor: str, mode: str) -> tuple[Any, tuple[int, int]]:
    """The anti-aliased mask of one line of ``text`` and its offset from the anchor point,
    as ``ImageDraw.text`` rasterises it (at a whole-pixel position)."""
    return font(size).getmask2(text, mode, anchor=anchor, start=(0.0, 0.0))


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
        return text_width(text, size)

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
        self._lay_down(xy, text, size, fill, anchor)
        if self.record is not None:
            left, top, right, bottom = self.draw.textbbox(xy, text, font=face, anchor=anchor)
            box = (int(left), int(top), int(right), int(bottom))
            self.record.append(Written(text, size, cap_height(size), box))
        return self.width(text, size)

    def _lay_down(
        self, xy: tuple[int, int], text: str, size: int, fill: Colour, anchor: str
    ) -> None:
        """What ``ImageDraw.text`` does for one line at a whole-pixel position, with the mask
        kept: the same mask, at the same place, in the same ink."""
        if "\n" in text or not all(isinstance(v, int) for v in xy):
            # Several lines, or a fraction of a pixel: placed by Pillow's own layout.
            self.draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
            return
        mask, (dx, dy) = text_mask(text, size, anchor, self.draw.fontmode)
        ink, _ = self.draw._getink(fill)
        self.draw.draw.draw_bitmap((xy[0] + dx, xy[1] + dy), mask, ink)
