"""The message catalogue: every language complete, placeholders matching, names valid."""

import re
import string

import pytest

from bot.words.i18n import DEFAULT_LANGUAGE, catalogues, language_of, placeholders, text

OTHER_LANGUAGES = [lang for lang in catalogues() if lang != DEFAULT_LANGUAGE]
# Words that are the same in both languages (names and loanwords), so they may match.
SAME_EVERYWHERE = {
    "geisha",
    "Buch.",  # Buchholz, a name: the same abbreviation in Spanish chess tables
    "normal",
    "neutral",
    "4 geishas",
    "Shamisen",
    "Kimono",
    "{count} geisha",
    "{count} geishas",
}


def test_english_and_spanish_are_there():
    assert {"en", "es"} <= set(catalogues())


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_key_exists_in_every_language(lang):
    reference, other = catalogues()[DEFAULT_LANGUAGE], catalogues()[lang]
    assert sorted(set(reference) - set(other)) == [], "missing"
    assert sorted(set(other) - set(reference)) == [], "unknown keys"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_placeholders_match_the_reference(lang):
    reference, other = catalogues()[DEFAULT_LANGUAGE], catalogues()[lang]
    wrong = {
        key: (placeholders(reference[key]), placeholders(other[key]))
        for key in reference
        if placeholders(reference[key]) != placeholders(other[key])
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_texts_are_translated_not_copied(lang):
    reference, other = catalogues()[DEFAULT_LANGUAGE], catalogues()[lang]
    copied = [
        key
        for key, value in reference.items()
        if other[key] == value
        and re.search(r"[A-Za-z]{3,}", string.Formatter().vformat(value, (), _Blank()))
        and value not in SAME_EVERYWHERE
        and not key.startswith("items.")
    ]
    assert copied == []


class _Blank(dict):
    def __missing__(self, key):
        return ""


def test_discord_locales_map_to_catalogues():
    assert language_of("es-ES") == "es" and language_of("es-419") == "es"
    assert language_of("en-US") == "en" and language_of("ja") == "en"
    assert language_of(None) == "en"


@pytest.mark.parametrize("lang", list(catalogues()))
def test_command_and_option_names_are_valid_discord_names(lang):
    names = {k: v for k, v in catalogues()[lang].items() if k.startswith("names.")}
    for key, name in names.items():
        assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), key
    values = list(names.values())
    assert len(set(values)) == len(values), "two commands or options share a name"


@pytest.mark.parametrize("lang", list(catalogues()))
def test_descriptions_and_choices_fit_discord_limits(lang):
    for key, value in catalogues()[lang].items():
        if key.startswith("slash."):
            assert 1 <= len(value) <= 100, key


def test_a_missing_language_falls_back_to_english():
    assert text("xx", "actions.gift") == "Gift"
    assert text("es", "actions.gift") == "Regalo"
    assert text("es", "actions.trade_off") == "Renuncia"
    assert text("es", "actions.secret") == "Secreto"
    assert text("es", "actions.competition") == "Competición"


def test_counts_say_one_card_and_two_cards_in_both_languages():
    from bot.words.i18n import counted

    assert [counted("en", "card", n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert counted("es", "card", 1) == "1 carta" and counted("es", "geisha", 3) == "3 geishas"
    assert counted("en", "geisha", 1) == "1 geisha"
