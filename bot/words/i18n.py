"""Every user-facing string, by key, in every language the bot speaks.

A language is one TOML file in ``bot/words/locales/`` (``en.toml``, ``es.toml``): nested tables
of ``key = "text with {placeholders}"``. We chose this typed-by-test catalogue over
gettext/Babel: no compile step and no extra dependency, keys are checked (a test asserts
every key exists in every file with the same placeholders), and a translator edits one
plain file. English is the reference and the fallback.

Ephemeral messages use the clicking user's ``interaction.locale``; public messages use the
server's language (its Discord "preferred locale" unless `/hanamikoji settings` chose one).
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LANGUAGE = "en"


class MissingText(KeyError):
    """A key that the reference catalogue does not have: a programming error."""


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = str(value)
    return flat


@cache
def catalogues() -> dict[str, dict[str, str]]:
    """Language code → {key: template}, read once from ``bot/words/locales/*.toml``."""
    return {
        path.stem: _flatten(tomllib.loads(path.read_text(encoding="utf-8")))
        for path in sorted(LOCALES_DIR.glob("*.toml"))
    }


def languages() -> tuple[str, ...]:
    return tuple(catalogues())


def language_of(locale: object) -> str:
    """The catalogue for a Discord locale (``es-ES``, ``es-419`` → ``es``); English otherwise."""
    code = str(getattr(locale, "value", locale) or "").lower()
    if code in catalogues():
        return code
    base = code.split("-")[0]
    return base if base in catalogues() else DEFAULT_LANGUAGE


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def text(lang: str, key: str, /, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English if that language lacks it), filled in."""
    reference = catalogues()[DEFAULT_LANGUAGE]
    if key not in reference:
        raise MissingText(key)
    template = catalogues().get(lang, reference).get(key, reference[key])
    return template.format(**values) if values else template


def counted(lang: str, noun: str, count: int) -> str:
    """``count`` with its noun in the right number ("1 card", "5 cards"), from the
    catalogue's ``counts.<noun>_one`` and ``counts.<noun>_other``."""
    form = "one" if count == 1 else "other"
    return text(lang, f"counts.{noun}_{form}", count=count)


def shortened(words: str, limit: int) -> str:
    """``words`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"
