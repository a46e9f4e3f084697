"""Display names and languages of players, learned from their interactions (the bot has no
privileged members intent, so it never downloads the member list)."""

from __future__ import annotations

import logging

import discord

from bot.words.i18n import DEFAULT_LANGUAGE, language_of, text
from engine.store.rows import AI_USER_ID

log = logging.getLogger(__name__)


class PlayerNames:
    """Remembers the names the bot has seen; asks Discord once for the ones it has not."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._names: dict[int, str] = {}
        self._languages: dict[int, str] = {}

    def remember(self, user: discord.abc.User, locale: object = None) -> None:
        self._names[user.id] = user.display_name
        if locale is not None:
            self._languages[user.id] = language_of(locale)

    def language(self, user_id: int) -> str:
        """The language of the user's last interaction (for DMs, which have no server)."""
        return self._languages.get(user_id, DEFAULT_LANGUAGE)

    async def name(
        self, user_id: int, ai_level: str | None = None, lang: str = DEFAULT_LANGUAGE
    ) -> str:
        if user_id == AI_USER_ID:
            level = text(lang, f"levels.{ai_level}") if ai_level else "?"
            return text(lang, "challenge.ai_name", level=level)
        known = self._names.get(user_id)
        if known is not None:
            return known
        try:
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
        except discord.HTTPException:
            log.warning("could not look up the name of user %s", user_id)
            return f"#{user_id % 10_000:04d}"
        self.remember(user)
        return user.display_name

    async def pair(
        self, players: tuple[int, int], ai_level: str | None = None, lang: str = DEFAULT_LANGUAGE
    ) -> tuple[str, str]:
        return (
            await self.name(players[0], ai_level, lang),
            await self.name(players[1], ai_level, lang),
        )
