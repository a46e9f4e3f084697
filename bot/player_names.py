"""Display names of players, learned from interactions (no privileged members intent)."""

from __future__ import annotations

import logging

import discord

from engine.store.rows import AI_USER_ID

log = logging.getLogger(__name__)


class PlayerNames:
    """Remembers the names the bot has seen; asks Discord once for the ones it has not."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._names: dict[int, str] = {}

    def remember(self, user: discord.abc.User) -> None:
        self._names[user.id] = user.display_name

    def ai_name(self, level: str | None) -> str:
        return f"AI ({level})" if level else "AI"

    async def name(self, user_id: int, ai_level: str | None = None) -> str:
        if user_id == AI_USER_ID:
            return self.ai_name(ai_level)
        known = self._names.get(user_id)
        if known is not None:
            return known
        try:
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
        except discord.HTTPException:
            log.warning("could not look up the name of user %s", user_id)
            return f"Player {user_id % 10_000:04d}"
        self.remember(user)
        return user.display_name

    async def pair(self, players: tuple[int, int], ai_level: str | None = None) -> tuple[str, str]:
        return (await self.name(players[0], ai_level), await self.name(players[1], ai_level))
