"""The season podium picture: every text readable on a phone, inside the picture, and the
alt text saying the same in words, in both languages."""

from __future__ import annotations

import pytest

from bot.pictures.lettering import MIN_PHONE_CAP, Written
from bot.pictures.podium_image import podium_alt_text, podium_image, render_podium
from tests.bot.pictures.samples import SAMPLE_PODIUM
from tests.bot.pictures.test_phone import assert_all_on_picture, at_phone_width


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("places", [3, 2, 1])
def test_every_text_on_the_podium_reads_on_a_phone(lang, places):
    record: list[Written] = []
    image = podium_image(lang, 12, SAMPLE_PODIUM[:places], record=record)
    assert at_phone_width(image, record) >= MIN_PHONE_CAP
    assert_all_on_picture(image, record)
    drawn = [w.text for w in record]
    assert [str(n) for n in (1, 2, 3)] == sorted(t for t in drawn if t in {"1", "2", "3"})
    for standing, name in SAMPLE_PODIUM[:places]:
        assert str(round(standing.rating.rating)) in drawn
        assert any(name.startswith(t.rstrip("…")) for t in drawn if t.rstrip("…"))


def test_a_long_name_is_cut_to_its_step_not_spilled():
    record: list[Written] = []
    podium_image("en", 3, SAMPLE_PODIUM, record=record)
    assert "Murasaki Shik…" in [w.text for w in record]


def test_the_alt_text_names_every_place_in_the_readers_language():
    assert podium_alt_text("en", 3, SAMPLE_PODIUM[:2]) == (
        "The podium of season 3: place 1, Tomoe Gozen, season rating 1725, 11 won of 14;"
        " place 2, ben, season rating 1651, 8 won of 12."
    )
    assert podium_alt_text("es", 3, SAMPLE_PODIUM[:1]).startswith(
        "El podio de la temporada 3: puesto 1, Tomoe Gozen, puntuación de temporada 1725"
    )


def test_the_same_podium_gives_the_same_bytes():
    assert render_podium("en", 3, SAMPLE_PODIUM) == render_podium("en", 3, SAMPLE_PODIUM)
