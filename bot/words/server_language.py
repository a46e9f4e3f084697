"""The language of a server's public messages: its chosen one, else its Discord
"preferred locale" (community servers set it), else English."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.words.i18n import DEFAULT_LANGUAGE, language_of
from engine.service import MatchSettings


class ServerLanguages:
    def __init__(
        self, settings: MatchSettings, guild_locale: Callable[[int], Awaitable[object | None]]
    ) -> None:
        self._settings = settings
        self._guild_locale = guild_locale

    async def public(self, guild_id: int | None) -> str:
        """The language of public messages in a server."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        chosen = (await self._settings.guild_settings(guild_id)).language
        if chosen:
            return chosen
        locale = await self._guild_locale(guild_id)
        return language_of(locale) if locale is not None else DEFAULT_LANGUAGE


def chosen_language(option: str) -> str | None:
    """The language stored for /settings' option: ``"auto"`` (None) goes back to following
    the server's Discord locale."""
    return None if option == "auto" else option
