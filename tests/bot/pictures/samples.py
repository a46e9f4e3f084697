"""Writes the sample pictures in docs/ that the README shows, from seeded games:

python -m tests.bot.pictures.samples
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

from bot.pictures import render_board, render_hand
from bot.pictures.podium_image import render_podium
from bot.pictures.standings_image import render_standings
from engine.ratings import Glicko2Rating
from engine.rules import view
from engine.seasons import SeasonStanding
from tests.bot.pictures.stages import SHORT_NAMES, play_until, stages
from tests.bot.pictures.test_standings_image import swiss_standings

DOCS = Path(__file__).parents[3] / "docs"
DEADLINE = datetime(2026, 11, 23, 14, 5, tzinfo=UTC)
SAMPLE_PODIUM = (
    (SeasonStanding(1, Glicko2Rating(1724.6, 92.0), 14, 11, 3, 0, 1), "Tomoe Gozen"),
    (SeasonStanding(2, Glicko2Rating(1651.2, 101.0), 12, 8, 4, 0, 2), "ben"),
    (SeasonStanding(3, Glicko2Rating(1598.9, 120.0), 9, 6, 3, 0, 3), "Murasaki Shikibu the Elder"),
)
"""The podium of a season, with a long name to show how one is cut."""
SAMPLE_ENTRANTS = dict(
    enumerate(["Hana", "Daiki", "Benjamín", "Aiko", "Emi", "Fumiko", "Chiyo", "Gonzalo"], 1)
)
"""The eight players of the sample Swiss event; the last withdraws."""


def phone(png: bytes) -> bytes:
    """The picture as a phone shows it: 360 px wide."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((360, round(image.height * 360 / image.width)), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.quantize(colors=128).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    boards = stages()
    written: dict[str, bytes] = {}
    for stage in (
        "start",
        "mid-round",
        "pending-gift",
        "pending-competition",
        "round-end",
        "match-end",
    ):
        png = render_board("en", boards[stage], SHORT_NAMES, deadline=DEADLINE)
        written[f"board-{stage}.png"] = png
    written["board-round-end-phone.png"] = phone(written["board-round-end.png"])
    written["board-pending-gift-es.png"] = render_board(
        "es", boards["pending-gift"], SHORT_NAMES, deadline=DEADLINE
    )
    state = play_until(lambda s: s.secret[s.to_move] is not None and len(s.log[-1]) == 4)
    written["hand.png"] = render_hand("en", view(state, state.current_player))
    written["hand-phone.png"] = phone(written["hand.png"])
    written["season-podium.png"] = render_podium("en", 3, SAMPLE_PODIUM)
    written["season-podium-phone.png"] = phone(written["season-podium.png"])
    final = swiss_standings(8, withdrawn=frozenset({8}))
    written["tournament-standings.png"] = render_standings(
        "en", "Autumn Cup — final standings", final, SAMPLE_ENTRANTS
    )
    for name, data in written.items():
        (DOCS / name).write_bytes(data)
        print(DOCS / name, len(data))


if __name__ == "__main__":
    main()
