"""`/hanamikoji open` and `/hanamikoji seats`: open a seat anyone may take, and list the
server's open seats."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.challenge.commands import TIMER_CHOICES, VARIANT_CHOICES
from bot.discord_plumbing.channel_permissions import (
    TO_HOST,
    bot_permissions_in,
    cannot_host_text,
    missing,
)
from bot.discord_plumbing.first_response import answer_publicly, public_answer_work, send_private
from bot.discord_plumbing.translator import localised
from bot.seats.buttons import CancelButton, JoinButton
from bot.seats.deps import SeatsDeps
from bot.seats.seat_list import show_seats
from bot.seats.seat_message import seat_embed
from bot.words.i18n import language_of, text
from engine.model import MatchInfo
from engine.rules import Variant
from engine.service import DatabaseUnavailable, SeatClosed, SeatTaken, StorageFull

log = logging.getLogger(__name__)

Command = app_commands.Command[Any, ..., None]


class SeatNotPlaced(Exception):
    """The seat's channel cannot take it (a permission missing, the lobby gone): nothing is
    opened, or what was opened is cancelled; ``message`` tells the member why."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def seat_view(lang: str, match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(match_id, label=text(lang, "seats.join")))
    view.add_item(CancelButton(match_id, label=text(lang, "seats.cancel")))
    return view


def seats_commands(deps: SeatsDeps) -> list[Command]:
    """The commands, bound to the seats feature's parts."""

    @app_commands.command(
        name=localised("seats.name_open"), description=localised("seats.slash_open")
    )
    @app_commands.rename(
        variant=localised("names.variant"),
        turn_timer=localised("names.turn_timer"),
        rated=localised("seats.name_rated"),
    )
    @app_commands.describe(
        variant=localised("seats.slash_open_variant"),
        turn_timer=localised("seats.slash_open_turn_timer"),
        rated=localised("seats.slash_open_rated"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES)
    async def open_seat(
        interaction: discord.Interaction[Any],
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        rated: bool = True,
    ) -> None:
        lang = language_of(interaction.locale)
        guild_id, here = interaction.guild_id, interaction.channel_id
        assert guild_id is not None and here is not None, "/hanamikoji is guild-only"

        async def open_it() -> tuple[MatchInfo, str, discord.abc.Messageable | None]:
            # The language first: once the seat is stored, no read may refuse it.
            public = await deps.languages.public(guild_id)
            where = await deps.seats.place_for(guild_id, here)
            lobby = None
            if where == here:
                refusal = cannot_host_text(lang, interaction.app_permissions)
                if refusal is not None:
                    raise SeatNotPlaced(refusal)
            else:
                lobby = await _reachable_lobby(deps, lang, where)
            info = await deps.seats.open(
                interaction.user.id,
                guild_id,
                here,
                Variant(variant.value) if variant else None,
                float(turn_timer.value) if turn_timer else None,
                rated=rated,
            )
            return info, public, lobby

        try:
            info, public, lobby = await public_answer_work(interaction, open_it())
        except SeatNotPlaced as refused:
            await send_private(interaction, refused.message)
            return
        host = await deps.names.name(interaction.user.id, lang=public, guild_id=guild_id)
        embed = seat_embed(public, info, host)
        message: discord.Message
        if lobby is None:
            message = await answer_publicly(
                interaction, embed=embed, view=seat_view(public, info.match_id)
            )
            deps.seat_messages.remember(info.match_id, interaction)
        else:
            try:
                message = await deps.places.retrier.until_accepted(
                    f"seat {info.match_id}: posting it in the lobby",
                    lambda: lobby.send(embed=embed, view=seat_view(public, info.match_id)),
                    creates=True,
                )
            except discord.HTTPException as error:
                log.warning("seat %s: the lobby refused it: %s", info.match_id, error)
                key = "seats.lobby_unreachable"
                try:
                    await deps.seats.cancel(info.match_id, interaction.user.id)
                except (SeatTaken, SeatClosed):
                    # Joined from `/hanamikoji seats` before the post failed: the match runs.
                    key = "seats.lobby_taken_meanwhile"
                refusal = text(lang, key, channel=f"<#{info.channel_id}>")
                await _refuse_after_public_work(interaction, refusal)
                return
            # Said where the seat is, in the channel the member asked in.
            await answer_publicly(
                interaction,
                content=text(
                    public,
                    "seats.opened_in_lobby",
                    host=interaction.user.mention,
                    channel=f"<#{info.channel_id}>",
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        try:
            await deps.placements.set_challenge_message(info.match_id, message.id)
        except (DatabaseUnavailable, StorageFull) as error:
            # The seat stands and is posted: only closing its message after a restart, or
            # from `/hanamikoji seats`, needs this.
            log.debug("seat %d: its message id is not stored: %s", info.match_id, error)

    @app_commands.command(
        name=localised("seats.name_seats"), description=localised("seats.slash_seats")
    )
    async def seats(interaction: discord.Interaction[Any]) -> None:
        await show_seats(deps, interaction)

    return [open_seat, seats]


async def _reachable_lobby(deps: SeatsDeps, lang: str, lobby_id: int) -> discord.abc.Messageable:
    """The lobby channel, if the bot can host a match there; else :class:`SeatNotPlaced`."""
    lobby = await deps.places.channel(lobby_id)
    permissions = None if lobby is None else bot_permissions_in(lobby)
    if lobby is None or (permissions is not None and missing(permissions, TO_HOST)):
        raise SeatNotPlaced(text(lang, "seats.lobby_unreachable", channel=f"<#{lobby_id}>"))
    return lobby


async def _refuse_after_public_work(interaction: discord.Interaction[Any], refusal: str) -> None:
    """A refusal once the public "thinking…" may be shown: it goes, the refusal stays private."""
    if interaction.response.is_done():
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("could not delete the public placeholder: %s", error)
    await send_private(interaction, refusal)
