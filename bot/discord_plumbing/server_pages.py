"""The Previous / Next buttons of a server's paged list (``<prefix>:<guild>:<page>``): the
leaderboard, the open seats. A `DynamicItem`, so they keep working after a restart; each
viewer pages on their own. A feature's button names its prefix and shows its page."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import is_id, is_page
from bot.discord_plumbing.match_item import refuse_unreadable
from bot.words.i18n import language_of, text


class ServerPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?!)",  # never read: each subclass gives its own template
):
    """Shows page ``page`` of server ``guild_id``'s list, only in that server and only for
    a page number that could exist."""

    PREFIX: ClassVar[str]
    """The custom_id's prefix; the subclass's template reads ``PREFIX:<guild>:<page>``."""

    def __init__(
        self, guild_id: int, page: int, *, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=f"{self.PREFIX}:{guild_id}:{page}", disabled=disabled
            )
        )
        self.guild_id = guild_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["guild"]), int(match["page"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if not (is_id(self.guild_id) and is_page(self.page)):
            await refuse_unreadable(interaction, self.custom_id)
            return False
        if interaction.guild_id == self.guild_id:
            return True
        lang = language_of(interaction.locale)
        await interaction.response.send_message(text(lang, "stats.wrong_server"), ephemeral=True)
        return False
