"""Where things sit on the board picture: its size, the rows top to bottom, the geisha
columns left to right, and the font sizes.

Phone first: the picture is 720 px wide and every text is drawn at a size whose cap height
stays at least 8 px when Discord shrinks it to 360 px (see :mod:`bot.pictures.lettering`).
"""

from __future__ import annotations

WIDTH, HEIGHT = 720, 706
MARGIN, COLUMN = 17, 98
SMALL, BODY, NAME, TITLE = 24, 26, 28, 44
"""Font sizes: SMALL is the least, 9 px cap height at 360 px wide."""
HEADER_Y, STATUS_Y = 21, 58
PANELS = ((80, 166), (540, 626))
ZONES = ((170, 262), (444, 536))
"""Item bars per side: seat 0's grow up from the geisha, seat 1's grow down."""
COUNT_Y = (282, 424)
"""The row with each side's item count and favor marker."""
CARD = (302, 404)
FOOTER = (630, 702)
CHIP_H, CHIP_STEP, SECRET_H = 12, 15, 28


def column_x(geisha: int) -> int:
    """Left edge of a geisha's column."""
    return MARGIN + geisha * COLUMN


def band(top: int, bottom: int) -> tuple[int, int, int, int]:
    """A full-width band of the board, as the panels and the footer are framed."""
    return (MARGIN - 9, top, WIDTH - MARGIN + 9, bottom)


def initial(name: str) -> str:
    """The letter on a player's seat marker."""
    return (name.strip()[:1] or "?").upper()
