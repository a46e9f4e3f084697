"""The Previous / Next buttons of a server's paged list (``<prefix>:<guild>:<page>``): the
leaderboard, the open seats. A `DynamicItem`, so they keep working after a restart; each
viewer pages on their own. A feature's button names its prefix and shows its page."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import Prefix, is_id, is_page, server_page_id
from bot.discord_plumbing.link_button import LinkButton, in_its_server


class ServerPageButton(LinkButton, template=r"(?!)"):  # each subclass gives its own template
    """Shows page ``page`` of server ``guild_id``'s list, only in that server and only for
    a page number that could exist."""

    PREFIX: ClassVar[Prefix]
    """The custom_id's prefix; the subclass's template is
    :func:`bot.custom_ids.server_page_template` of it."""

    def __init__(
        self, guild_id: int, page: int, *, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=server_page_id(self.PREFIX, guild_id, page),
                disabled=disabled,
            )
        )
        self.guild_id = guild_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["guild"]), int(match["page"]))

    def readable(self) -> bool:
        return is_id(self.guild_id) and is_page(self.page)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return await super().interaction_check(interaction) and await in_its_server(
            interaction, self.guild_id
        )
