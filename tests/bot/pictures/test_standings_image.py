"""The standings picture: legible on a phone (360 px wide) in both languages, nothing off
the picture, the withdrawn mark kept whole on a long name, and alt text that says it all."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bot.pictures.lettering import MIN_PHONE_CAP, Written
from bot.pictures.standings_image import (
    MOST_ROWS,
    render_standings,
    standings_alt_text,
    standings_image,
)
from engine.tournaments import (
    Entrant,
    Format,
    Game,
    Result,
    Round,
    Standing,
    TournamentPlan,
    final_standings,
    next_round,
    seeded,
)
from tests.bot.pictures.test_phone import assert_all_on_picture, at_phone_width

LONG = "Gonzalo de la Vega Hernández y Fernández"


def swiss_standings(players: int, withdrawn: frozenset[int] = frozenset()) -> tuple[Standing, ...]:
    rng = random.Random(players)
    entrants = seeded([Entrant(p, rng.uniform(1300, 1700)) for p in range(1, players + 1)])
    plan = TournamentPlan(Format.SWISS)
    games: list[Game] = []
    while isinstance(step := next_round(plan, entrants, games, withdrawn=withdrawn), Round):
        for pairing in step.pairings:
            result = None if pairing.second is None else rng.choice(list(Result))
            games.append(Game(step.number, pairing, result))
    return final_standings(plan, entrants, games, withdrawn=withdrawn)


def names(count: int) -> dict[int, str]:
    return {p: LONG if p == 2 else f"Player {p}" for p in range(1, count + 1)}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("players", [2, 8, 40])
def test_the_standings_read_on_a_phone(lang: str, players: int) -> None:
    record: list[Written] = []
    table = swiss_standings(players, withdrawn=frozenset({2}))
    image = standings_image(lang, "Autumn Cup", table, names(players), record=record)
    assert at_phone_width(image, record) >= MIN_PHONE_CAP
    assert_all_on_picture(image, record)
    written = [w.text for w in record]
    assert sum(1 for w in written if w.startswith(("Player ", "Gonza"))) == min(players, MOST_ROWS)
    marked = [w for w in written if w.startswith("Gonza")]
    if players <= MOST_ROWS:  # (with 40, the withdrawn player is below the rows drawn)
        assert marked and marked[0].endswith(("(withdrawn)", "(retirado)")), marked
    else:
        assert any(str(players - MOST_ROWS) in w for w in written)


def test_the_png_is_a_picture_and_the_alt_text_names_the_leader() -> None:
    table = swiss_standings(8)
    png = render_standings("en", "Autumn Cup", table, names(8))
    assert png.startswith(b"\x89PNG")
    said = standings_alt_text("en", "Autumn Cup", table, names(8))
    leader = names(8)[table[0].player]
    assert said.startswith("Standings of Autumn Cup, 8 players")
    assert f"1. {leader}: score" in said
    assert len(standings_alt_text("es", "x", swiss_standings(64), names(64))) <= 1024


def test_the_podium_is_gold_and_a_withdrawn_player_dim() -> None:
    table = swiss_standings(8, withdrawn=frozenset({2}))
    image = standings_image("en", "Cup", table, names(8)).convert("RGB")
    assert isinstance(image, Image.Image)
    colours = {colour for _, colour in image.getcolors(1 << 20) or []}
    assert (232, 186, 84) in colours  # GOLD: the podium
    assert (96, 78, 70) in colours  # DIM: the withdrawn player
