"""`/hanamikoji tournament create | standings | leave | cancel | remove`.

Creating, cancelling and removing are for members who may Manage Server (the organiser
may also cancel and remove in their own tournament). Discord applies a command's default
permissions to a whole top-level command only, so this one is checked here."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.discord_plumbing.command_choices import (
    TIME_CHOICES,
    TIMER_CHOICES,
    VARIANT_CHOICES,
    chosen_time,
)
from bot.discord_plumbing.first_response import (
    answer_publicly,
    public_answer_work,
    send_private,
    think_privately,
)
from bot.discord_plumbing.translator import localised
from bot.pictures.standings_image import STANDINGS_FILE, render_standings, standings_alt_text
from bot.tournaments.buttons import registration_view
from bot.tournaments.deps import TournamentDeps
from bot.tournaments.words import registration_embed, standings_text, tournament_refusal
from bot.words.i18n import language_of, text
from engine.clocks import BadTimeControl
from engine.model import Tournament
from engine.rules import Variant
from engine.service import DatabaseUnavailable, StorageFull
from engine.service.errors import ServiceError
from engine.service.tournaments.errors import TournamentNotFound
from engine.service.tournaments.service import MOST_PLAYERS, MOST_ROUNDS
from engine.tournaments import Format

REFUSED = (ServiceError, DatabaseUnavailable, StorageFull, BadTimeControl)

FORMAT_CHOICES = [
    app_commands.Choice(name=localised("tournaments.format.swiss"), value="swiss"),
    app_commands.Choice(name=localised("tournaments.format.round-robin"), value="round-robin"),
    app_commands.Choice(name=localised("tournaments.format.knockout"), value="knockout"),
]


def tournament_group(deps: TournamentDeps) -> app_commands.Group:
    """The `tournament` subcommand group, bound to the feature's parts."""
    group = app_commands.Group(
        name=localised("tournaments.names.tournament"),
        description=localised("tournaments.slash.group"),
    )

    @group.command(
        name=localised("tournaments.names.create"),
        description=localised("tournaments.slash.create"),
    )
    @app_commands.rename(
        name=localised("tournaments.names.name"),
        format=localised("tournaments.names.format"),
        rounds=localised("tournaments.names.rounds"),
        variant=localised("names.variant"),
        turn_timer=localised("names.turn_timer"),
        max_players=localised("tournaments.names.max_players"),
        starts=localised("tournaments.names.starts"),
        rated=localised("tournaments.names.rated"),
        time=localised("time.names.time"),
        min_reliability=localised("time.names.min_reliability"),
    )
    @app_commands.describe(
        name=localised("tournaments.slash.name"),
        format=localised("tournaments.slash.format"),
        rounds=localised("tournaments.slash.rounds"),
        variant=localised("slash.challenge_variant"),
        turn_timer=localised("slash.challenge_turn_timer"),
        max_players=localised("tournaments.slash.max_players"),
        starts=localised("tournaments.slash.starts"),
        rated=localised("tournaments.slash.rated"),
        time=localised("time.slash.time"),
        min_reliability=localised("time.slash.min_reliability"),
    )
    @app_commands.choices(
        format=FORMAT_CHOICES, variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES, time=TIME_CHOICES
    )
    async def create(
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 100],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, MOST_ROUNDS] | None = None,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        max_players: app_commands.Range[int, 2, MOST_PLAYERS] | None = None,
        starts: app_commands.Range[int, 5, 10080] | None = None,
        rated: bool = True,
        time: app_commands.Choice[str] | None = None,
        min_reliability: app_commands.Range[int, 0, 100] | None = None,
    ) -> None:
        lang = language_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        # Who may organise is the service's to say: Manage Server, or the server's
        # tournament role (/hanamikoji settings).
        moderator = bool(interaction.permissions.manage_guild)
        member = interaction.user
        roles = frozenset(r.id for r in getattr(member, "roles", ()))
        guild_id, channel_id = interaction.guild_id, interaction.channel_id

        async def open_registration() -> tuple[Tournament, str]:
            public = await deps.languages.public(guild_id)
            now = deps.tournaments.clock_now()
            tournament = await deps.tournaments.create(
                interaction.user.id,
                guild_id,
                channel_id,
                name,
                Format(format.value),
                rounds=rounds,
                variant=Variant(variant.value) if variant else None,
                turn_seconds=float(turn_timer.value) if turn_timer else None,
                max_players=max_players,
                starts_at=None if starts is None else now + starts * 60,
                rated=rated,
                moderator=moderator,
                roles=roles,
                time_control=chosen_time(time),
                min_reliability=min_reliability,
            )
            return tournament, public

        try:
            tournament, public = await public_answer_work(interaction, open_registration())
        except REFUSED as error:
            await send_private(interaction, tournament_refusal(lang, error))
            return
        message = await answer_publicly(
            interaction,
            embed=registration_embed(public, tournament, [], {}),
            view=registration_view(public, tournament),
        )
        await deps.tournaments.set_location(tournament.tournament_id, None, message.id)

    @group.command(
        name=localised("tournaments.names.standings"),
        description=localised("tournaments.slash.standings"),
    )
    async def standings(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        try:
            tournament = await _latest(deps, interaction)
            lines = await deps.tournaments.standings(tournament.tournament_id)
        except REFUSED as error:
            await send_private(interaction, tournament_refusal(lang, error))
            return
        if not lines:
            said = text(lang, "tournaments.refusal.no_standings", name=tournament.name)
            await send_private(interaction, said)
            return
        names = {
            line.player: await deps.names.name(line.player, lang=lang, guild_id=tournament.guild_id)
            for line in lines
        }
        title = text(lang, "tournaments.thread.standings_title", name=tournament.name)
        picture = render_standings(lang, title, lines, names)
        alt = standings_alt_text(lang, title, lines, names)
        await send_private(
            interaction,
            standings_text(lang, lines, names),
            file=discord.File(io.BytesIO(picture), STANDINGS_FILE, description=alt),
        )

    @group.command(
        name=localised("tournaments.names.cancel"),
        description=localised("tournaments.slash.cancel"),
    )
    async def cancel(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        try:
            tournament = await _latest(deps, interaction)
            await deps.tournaments.cancel(
                tournament.tournament_id,
                interaction.user.id,
                moderator=bool(interaction.permissions.manage_guild),
            )
        except REFUSED as error:
            await send_private(interaction, tournament_refusal(lang, error))
            return
        said = text(lang, "tournaments.done.cancelled", name=tournament.name)
        await send_private(interaction, said)

    @group.command(
        name=localised("tournaments.names.leave"),
        description=localised("tournaments.slash.leave"),
    )
    async def leave(interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        try:
            tournament = await _latest(deps, interaction)
            await deps.tournaments.leave(tournament.tournament_id, interaction.user.id)
        except REFUSED as error:
            await send_private(interaction, tournament_refusal(lang, error))
            return
        said = text(lang, "tournaments.done.left", name=tournament.name)
        await send_private(interaction, said)

    @group.command(
        name=localised("tournaments.names.remove"),
        description=localised("tournaments.slash.remove"),
    )
    @app_commands.rename(member=localised("names.member"))
    @app_commands.describe(member=localised("tournaments.slash.remove_member"))
    async def remove(interaction: discord.Interaction[Any], member: discord.Member) -> None:
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        try:
            tournament = await _latest(deps, interaction)
            await deps.tournaments.remove_player(
                tournament.tournament_id,
                interaction.user.id,
                member.id,
                moderator=bool(interaction.permissions.manage_guild),
            )
        except REFUSED as error:
            await send_private(interaction, tournament_refusal(lang, error))
            return
        name = await deps.names.name(member.id, lang=lang, guild_id=tournament.guild_id)
        await send_private(interaction, text(lang, "tournaments.done.removed", name=name))

    return group


async def _latest(deps: TournamentDeps, interaction: discord.Interaction[Any]) -> Tournament:
    """The server's newest tournament: the one these commands act on."""
    guild_id = interaction.guild_id
    found = None if guild_id is None else await deps.tournaments.latest_in(guild_id)
    if found is None:
        raise TournamentNotFound(0)
    return found
