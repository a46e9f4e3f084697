"""The base of the buttons that lead somewhere their custom_id names — a review's page, a
page of a server's list, a match's record — for anyone who presses them (what each presser
may see is the service's answer to them, asked on every press). The counterpart of
:class:`~bot.discord_plumbing.match_item.MatchItem`, whose buttons act on a match.

`from_custom_id` never raises: a field that does not read makes a button that is not
`readable`, and the check refuses it politely before anything reaches the service."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_plumbing.match_item import refuse_unreadable
from bot.words.i18n import language_of, text


class LinkButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?!)",  # never read: each subclass gives its own template
):
    """A button whose custom_id is all it needs; a subclass says whether its fields read."""

    def readable(self) -> bool:
        """Whether every field of the custom_id is one the bot could have written."""
        raise NotImplementedError

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if self.readable():
            return True
        await refuse_unreadable(interaction, self.custom_id)
        return False


async def in_its_server(interaction: discord.Interaction[Any], guild_id: int) -> bool:
    """Whether the press comes from server ``guild_id``, whose list the button pages; if
    not, the presser is told so, privately."""
    if interaction.guild_id == guild_id:
        return True
    lang = language_of(interaction.locale)
    await interaction.response.send_message(text(lang, "stats.wrong_server"), ephemeral=True)
    return False
