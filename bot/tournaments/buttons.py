"""Join, Leave and Start under the registration message (``hkt:<tournament>:<verb>``).

Anyone may press Join and Leave; Start is the organiser's (or a member who may Manage
Server). Every press edits the registration message in place (its player list and
count); a refusal is a private reply."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import (
    ANY_TOURNAMENT_ITEM,
    TournamentVerb,
    is_id,
    tournament_id,
    tournament_template,
)
from bot.discord_plumbing.link_button import LinkButton
from bot.features import feature_deps
from bot.tournaments.deps import TournamentDeps
from bot.tournaments.words import MOST_LISTED, registration_embed, tournament_refusal
from bot.words.i18n import language_of, text
from engine.model import Tournament, TournamentStatus
from engine.service import DatabaseUnavailable, StorageFull
from engine.service.errors import ServiceError

log = logging.getLogger(__name__)


class _RegistrationButton(LinkButton, template=ANY_TOURNAMENT_ITEM):
    verb: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, tournament: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or self.verb,
                style=self.style,
                custom_id=tournament_id(tournament, self.verb),
            )
        )
        self.tournament = tournament

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["tournament"]))

    def readable(self) -> bool:
        return is_id(self.tournament)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_of(interaction.locale)
        deps = feature_deps(interaction.client, TournamentDeps)
        deps.names.remember(interaction.user, interaction.locale)
        await interaction.response.defer()  # the answer edits the registration message
        try:
            await self.act(deps, interaction)
            tournament = await deps.tournaments.tournament(self.tournament)
        except (ServiceError, DatabaseUnavailable, StorageFull) as error:
            await interaction.followup.send(tournament_refusal(lang, error), ephemeral=True)
            return
        await show_registration(deps, tournament, interaction=interaction)

    async def act(self, deps: TournamentDeps, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class JoinButton(_RegistrationButton, template=tournament_template(TournamentVerb.JOIN)):
    verb = "join"
    style = discord.ButtonStyle.success

    async def act(self, deps: TournamentDeps, interaction: discord.Interaction[Any]) -> None:
        await deps.tournaments.join(self.tournament, interaction.user.id)


class LeaveButton(_RegistrationButton, template=tournament_template(TournamentVerb.LEAVE)):
    verb = "leave"

    async def act(self, deps: TournamentDeps, interaction: discord.Interaction[Any]) -> None:
        await deps.tournaments.leave(self.tournament, interaction.user.id)


class StartButton(_RegistrationButton, template=tournament_template(TournamentVerb.START)):
    verb = "start"
    style = discord.ButtonStyle.primary

    async def act(self, deps: TournamentDeps, interaction: discord.Interaction[Any]) -> None:
        moderator = bool(interaction.permissions.manage_guild)
        await deps.tournaments.start_now(self.tournament, interaction.user.id, moderator=moderator)


ITEMS = (JoinButton, LeaveButton, StartButton)


def registration_view(lang: str, tournament: Tournament) -> discord.ui.View:
    """Join, Leave and Start while registration is open; nothing after."""
    view = discord.ui.View(timeout=None)
    if tournament.status is TournamentStatus.REGISTERING:
        tid = tournament.tournament_id
        view.add_item(JoinButton(tid, text(lang, "tournaments.buttons.join")))
        view.add_item(LeaveButton(tid, text(lang, "tournaments.buttons.leave")))
        view.add_item(StartButton(tid, text(lang, "tournaments.buttons.start")))
    return view


async def show_registration(
    deps: TournamentDeps,
    tournament: Tournament,
    *,
    interaction: discord.Interaction[Any] | None = None,
) -> None:
    """Redraw the registration message: through the press that changed it, or by id."""
    lang = await deps.languages.public(tournament.guild_id)
    entries = await deps.tournaments.entries(tournament.tournament_id)
    names = {  # only those the message lists: the rest are counted, not named
        e.user_id: await deps.names.name(e.user_id, lang=lang, guild_id=tournament.guild_id)
        for e in entries[:MOST_LISTED]
    }
    embed = registration_embed(lang, tournament, entries, names)
    view = registration_view(lang, tournament)
    if interaction is not None:
        await interaction.edit_original_response(embed=embed, view=view)
        return
    if tournament.message_id is None:
        return
    channel = await deps.places.channel(tournament.channel_id)
    if channel is None:
        return
    try:
        await deps.places.edit_message(
            channel, tournament.message_id, lambda: {"embed": embed, "view": view}
        )
    except discord.HTTPException as error:
        log.warning(
            "tournament %d: registration message not redrawn: %s", tournament.tournament_id, error
        )
