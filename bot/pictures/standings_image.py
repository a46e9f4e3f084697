"""The standings of a tournament as a picture: place, player, points, Buchholz,
Sonneborn–Berger and record, the podium in gold. Drawn from the engine's standings only
(the bot works out no score); its alt text says the same in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures.lettering import Lettering, Written, min_size
from bot.pictures.palette import BACKGROUND, DIM, FRAME, GOLD, MUTED, PANEL, TEXT
from bot.pictures.png import to_png
from bot.words.i18n import text
from engine.tournaments import Standing, shown_points

STANDINGS_FILE = "standings.png"
WIDTH = 720
MOST_ROWS = 32
"""Rows drawn; the text standings list everyone (a picture of 256 rows reads nowhere)."""
_MARGIN = 20
_PODIUM = 3


@dataclass(frozen=True, slots=True)
class _Columns:
    place: int
    name: int
    points: int
    buchholz: int
    berger: int
    record: int
    byes: int


def standings_image(
    lang: str,
    title: str,
    standings: Sequence[Standing],
    names: dict[int, str],
    *,
    record: list[Written] | None = None,
) -> Image.Image:
    """The picture: ``title``, a header row, then one row per player (at most
    :data:`MOST_ROWS`); ``names`` maps user ids to display names."""
    size = min_size(WIDTH) + 4  # a little above the phone minimum: names matter here
    row = size * 2
    shown = list(standings[:MOST_ROWS])
    more = len(standings) - len(shown)
    height = _MARGIN * 2 + row * (len(shown) + 2) + (row if more else 0)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=FRAME, width=3)
    pen = Lettering(draw, record)
    columns = _Columns(
        place=_MARGIN + 8,
        name=_MARGIN + 64,
        points=WIDTH - _MARGIN - 360,
        buchholz=WIDTH - _MARGIN - 295,
        berger=WIDTH - _MARGIN - 220,
        record=WIDTH - _MARGIN - 155,
        byes=WIDTH - _MARGIN - 60,
    )
    y = _MARGIN + row // 2
    pen.write((_MARGIN, y), title, size + 4, GOLD, max_width=WIDTH - 2 * _MARGIN)
    y += row
    header = (
        (columns.place, text(lang, "tournaments.picture.place")),
        (columns.name, text(lang, "tournaments.picture.player")),
        (columns.points, text(lang, "tournaments.picture.points")),
        (columns.buchholz, text(lang, "tournaments.picture.buchholz")),
        (columns.berger, text(lang, "tournaments.picture.berger")),
        (columns.record, text(lang, "tournaments.picture.record")),
        (columns.byes, text(lang, "tournaments.picture.byes")),
    )
    for x, word in header:
        pen.write((x, y), word, size, MUTED, max_width=90 if x != columns.name else 240)
    for index, line in enumerate(shown):
        y += row
        if index % 2 == 0:
            draw.rectangle((_MARGIN, y - row // 2, WIDTH - _MARGIN, y + row // 2), fill=PANEL)
        ink = DIM if line.withdrawn else GOLD if line.place <= _PODIUM else TEXT
        room = columns.points - columns.name - 12
        name = names.get(line.player, str(line.player))
        if line.withdrawn:
            # The mark stays whole: a long name is cut, never "(withdrawn)".
            mark = text(lang, "tournaments.picture.withdrawn", name="")
            name = pen.fit(name, size, room - pen.width(mark, size))
            name = text(lang, "tournaments.picture.withdrawn", name=name)
        wins_draws_losses = f"{line.wins}-{line.draws}-{line.losses}"
        pen.write((columns.place, y), str(line.place), size, ink)
        pen.write((columns.name, y), name, size, ink, max_width=room)
        pen.write((columns.points, y), shown_points(line.points), size, ink)
        pen.write((columns.buchholz, y), shown_points(line.buchholz), size, ink)
        pen.write((columns.berger, y), shown_points(line.sonneborn_berger), size, ink)
        pen.write((columns.record, y), wins_draws_losses, size, ink)
        # A bye is a point without a game: shown, or the points look wrong.
        pen.write((columns.byes, y), str(line.byes) if line.byes else "", size, ink)
    if more:
        y += row
        pen.write(
            (columns.name, y), text(lang, "tournaments.picture.more", count=more), size, MUTED
        )
    return image


def render_standings(
    lang: str, title: str, standings: Sequence[Standing], names: dict[int, str]
) -> bytes:
    """:func:`standings_image` as PNG bytes."""
    return to_png(standings_image(lang, title, standings, names))


def standings_alt_text(
    lang: str, title: str, standings: Sequence[Standing], names: dict[int, str]
) -> str:
    """The picture in words (at most 1024 characters, Discord's limit for a description)."""
    parts = [text(lang, "tournaments.picture.alt", title=title, count=len(standings))]
    for line in standings[:MOST_ROWS]:
        parts.append(
            text(
                lang,
                "tournaments.picture.alt_line",
                place=line.place,
                name=names.get(line.player, str(line.player)),
                points=shown_points(line.points),
                buchholz=shown_points(line.buchholz),
                berger=shown_points(line.sonneborn_berger),
            )
        )
    said = " ".join(parts)
    return said if len(said) <= 1024 else said[:1023] + "…"
