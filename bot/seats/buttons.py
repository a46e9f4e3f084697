"""Join and Cancel, on the seat message (and Join in `/hanamikoji seats`): one
`DynamicItem` per verb, both answered by the service's word on who may do what."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import FirstResponse, on_private_message
from bot.discord_plumbing.pages import reply_privately
from bot.seats.deps import SeatButton
from bot.seats.seat_message import ended_embed, taken_embed
from bot.words.i18n import text
from engine.model import MatchInfo
from engine.service import NotYourMatch


class JoinButton(SeatButton, template=template(Verb.JOIN)):
    """Take the seat: the first press starts the match, every later one is told it is taken."""

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(match_id, Verb.JOIN, label, discord.ButtonStyle.success)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The answer edits the message pressed (the seat, or the list); a refusal comes as
        a private followup."""
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        deps = self.deps
        started = await deps.seats.join(info.match_id, interaction.user.id)
        public = await deps.languages.public(started.guild_id)
        names = await deps.names.pair(started.players, None, public, guild_id=started.guild_id)
        if on_private_message(interaction):
            # Pressed in `/hanamikoji seats`: the list says where to go, the seat says taken.
            said = text(
                lang,
                "seats.joined_from_list",
                host=names[0],
                channel=f"<#{started.channel_id}>",
            )
            await interaction.edit_original_response(content=said, embed=None, view=None)
            # ``info`` was read before the join; the start cleared the seat's message id.
            await deps.seat_messages.show_taken(started, info.placement.board_message_id)
            return
        deps.seat_messages.forget(started.match_id)
        embed = taken_embed(public, names)
        await interaction.edit_original_response(content=None, embed=embed, view=None)


class CancelButton(SeatButton, template=template(Verb.CANCEL)):
    """The host withdraws the seat; anyone else is told whose seat it is."""

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(match_id, Verb.CANCEL, label, discord.ButtonStyle.secondary)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        return FirstResponse.UPDATE

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        deps = self.deps
        try:
            cancelled = await deps.seats.cancel(info.match_id, interaction.user.id)
        except NotYourMatch:
            host = await deps.names.name(info.players[0], lang=lang, guild_id=info.guild_id)
            await reply_privately(interaction, text(lang, "seats.cancel_not_host", host=host))
            return
        deps.seat_messages.forget(cancelled.match_id)
        public = await deps.languages.public(cancelled.guild_id)
        host = await deps.names.name(cancelled.players[0], lang=public, guild_id=cancelled.guild_id)
        embed = ended_embed(public, host, "seats.cancelled")
        await interaction.edit_original_response(content=None, embed=embed, view=None)
