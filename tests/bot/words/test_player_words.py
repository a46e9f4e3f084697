"""What every player-facing text must not do: send a player to a developer's file, module or
command line; and what a native Spanish reader expects of the Spanish ones."""

from __future__ import annotations

import re

import pytest

from bot.words.i18n import catalogues, languages

DEVELOPER_WORDS = re.compile(r"\.md\b|\.py\b|\bpython\b|\bdocs/|\bengine\b|-m \w", re.I)
"""A file name, a module or a command line: details for developers, kept in docs/."""


@pytest.mark.parametrize("lang", languages())
def test_no_player_facing_text_names_a_file_a_module_or_a_command_line(lang):
    named = {k: v for k, v in catalogues()[lang].items() if DEVELOPER_WORDS.search(v)}
    assert named == {}


SPANISH = catalogues()["es"]


def test_spanish_speaks_to_one_reader_without_vosotros():
    """Latin-American readers (es-419) get this file too: no vosotros imperative or
    pronoun anywhere, only the neutral forms every Spanish reader shares."""
    vosotros = re.compile(r"\b(Pulsad|pulsad|jugad|Jugad|elegid|Elegid|usad|Usad|vosotros|os)\b")
    assert {k: v for k, v in SPANISH.items() if vosotros.search(v)} == {}


def test_spanish_keeps_and_takes_with_con():
    """ "Quedarse con" something: "se queda con 1", "te has quedado con E"."""
    bare = re.compile(r"qued(a|ó|ado|arse|arme|ate)\s+(?!con\b)", re.I)
    found = {k: v for k, v in SPANISH.items() if bare.search(v)}
    assert found == {}


def test_only_the_take_button_speaks_in_the_first_person():
    first_person = {k for k, v in SPANISH.items() if "Quedarme" in v}
    assert first_person == {"panel.take"}


def test_spanish_never_guesses_an_actions_gender():
    """ "Regalo" is masculine, "Competición" feminine: no "del {action}" or "el {action}"
    that one of them would make wrong."""
    guessed = re.compile(r"\b(del|el|la|al|un|una) \{action\}")
    assert {k: v for k, v in SPANISH.items() if guessed.search(v)} == {}
