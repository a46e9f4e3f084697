"""Slash command names, descriptions and choices in the user's Discord language, from the
same catalogue as every other string (discord.py's ``app_commands.Translator``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.words.i18n import DEFAULT_LANGUAGE, catalogues, language_of, text


def localised(key: str) -> app_commands.locale_str:
    """A command string whose English text comes from the catalogue and which the
    translator renders in each language."""
    return app_commands.locale_str(text(DEFAULT_LANGUAGE, key), key=key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = language_of(locale)
        if key is None or lang == DEFAULT_LANGUAGE or key not in catalogues()[lang]:
            return None  # Discord shows the English text
        return text(lang, key)
