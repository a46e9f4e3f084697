"""`/hanamikoji challenge`, `open` and `seats`, and `ai`: challenge a member, or anyone (an
open seat, posted in the server's lobby channel when it named one), list the open seats,
or start a match against the AI."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.challenge.accept_button import AcceptButton
from bot.challenge.anywhere import board_here, external_apps_refused
from bot.challenge.cancel_button import CancelButton
from bot.challenge.decline_button import DeclineButton
from bot.challenge.deps import ChallengeDeps
from bot.challenge.join_button import JoinButton
from bot.challenge.seat_list import show_seats
from bot.challenge.words import invitation
from bot.discord_plumbing.channel_permissions import (
    TO_HOST,
    bot_permissions_in,
    cannot_host_text,
    missing,
)
from bot.discord_plumbing.command_choices import (
    LEVEL_CHOICES,
    TIME_CHOICES,
    TIMER_CHOICES,
    VARIANT_CHOICES,
    chosen_time,
)
from bot.discord_plumbing.first_response import answer_publicly, public_answer_work, send_private
from bot.discord_plumbing.install_context import outside_bot_servers
from bot.discord_plumbing.translator import localised
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


async def can_host_here(interaction: discord.Interaction[Any]) -> bool:
    """Refuse, saying which permission is missing, where the bot could not show a match
    (Discord sends the bot's permissions in the channel with every interaction)."""
    refusal = cannot_host_text(language_of(interaction.locale), interaction.app_permissions)
    if refusal is None:
        return True
    await interaction.response.send_message(refusal, ephemeral=True)
    return False


def answers(lang: str, info: MatchInfo) -> discord.ui.View:
    """The challenge's two answers: Accept and Decline for the member it names, Join and
    Cancel for an open seat."""
    view = discord.ui.View(timeout=None)
    if info.is_open_seat:
        view.add_item(JoinButton(info.match_id, label=text(lang, "seats.join")))
        view.add_item(CancelButton(info.match_id, label=text(lang, "seats.cancel")))
    else:
        view.add_item(AcceptButton(info.match_id, label=text(lang, "challenge.accept")))
        view.add_item(DeclineButton(info.match_id, label=text(lang, "challenge.decline")))
    return view


def _terms(
    variant: app_commands.Choice[str] | None, turn_timer: app_commands.Choice[int] | None
) -> tuple[Variant | None, float | None]:
    return (
        Variant(variant.value) if variant else None,
        float(turn_timer.value) if turn_timer else None,
    )


def challenge_commands(deps: ChallengeDeps, ai_levels: tuple[str, ...]) -> list[Command]:
    """The commands, bound to the challenge feature's parts; `/ai` offers the configured
    levels (``[matches] ai_levels``)."""
    offered = [choice for choice in LEVEL_CHOICES if choice.value in ai_levels]
    default_level = "normal" if "normal" in ai_levels else ai_levels[0]

    @app_commands.command(
        name=localised("names.challenge"), description=localised("slash.challenge")
    )
    @app_commands.rename(
        opponent=localised("names.opponent"),
        variant=localised("names.variant"),
        turn_timer=localised("names.turn_timer"),
        time=localised("time.names.time"),
    )
    @app_commands.describe(
        opponent=localised("slash.challenge_opponent"),
        variant=localised("slash.challenge_variant"),
        turn_timer=localised("slash.challenge_turn_timer"),
        time=localised("time.slash.time"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES, time=TIME_CHOICES)
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.Member | discord.User,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        time: app_commands.Choice[str] | None = None,
    ) -> None:
        if opponent.bot:
            await interaction.response.send_message(
                text(language_of(interaction.locale), "challenge.no_bots"), ephemeral=True
            )
            return
        anywhere = outside_bot_servers(interaction)
        if anywhere and await external_apps_refused(interaction):
            return
        if interaction.context.dm_channel:
            # The bot's DM with the challenger: nobody else can see it, nor press Accept.
            lang = language_of(interaction.locale)
            name = discord.utils.escape_markdown(opponent.display_name)
            await send_private(interaction, text(lang, "anywhere.not_here", name=name))
            return
        if not anywhere and not await can_host_here(interaction):
            return
        deps.names.remember(opponent)
        # Outside the servers the bot is in, a match has no server (the global ratings).
        guild_id = None if anywhere else interaction.guild_id

        async def issue() -> tuple[MatchInfo, str]:
            # The language first: once the challenge is stored, no read may refuse it.
            public = await deps.languages.public(guild_id)
            info = await deps.challenges.challenge(
                interaction.user.id,
                opponent.id,
                guild_id,
                interaction.channel_id,
                *_terms(variant, turn_timer),
                time_control=chosen_time(time),
            )
            return info, public

        info, public = await public_answer_work(interaction, issue())
        names = await deps.names.pair(info.players, None, public, guild_id=info.guild_id)
        message = await answer_publicly(
            interaction,
            content=opponent.mention,
            embed=invitation(public, info, names, opponent.mention),
            view=answers(public, info),
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        deps.open_challenges.remember(info.match_id, interaction)
        await _keep_message_id(deps, info, message)

    @app_commands.command(
        name=localised("seats.name_open"), description=localised("seats.slash_open")
    )
    @app_commands.rename(
        variant=localised("names.variant"),
        turn_timer=localised("names.turn_timer"),
        rated=localised("seats.name_rated"),
        time=localised("time.names.time"),
        min_reliability=localised("time.names.min_reliability"),
    )
    @app_commands.describe(
        variant=localised("seats.slash_open_variant"),
        turn_timer=localised("seats.slash_open_turn_timer"),
        rated=localised("seats.slash_open_rated"),
        time=localised("time.slash.time"),
        min_reliability=localised("time.slash.min_reliability"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES, time=TIME_CHOICES)
    async def open_seat(
        interaction: discord.Interaction[Any],
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        rated: bool = True,
        time: app_commands.Choice[str] | None = None,
        min_reliability: app_commands.Range[int, 0, 100] | None = None,
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
            chosen, timer = _terms(variant, turn_timer)
            info = await deps.seats.open(
                interaction.user.id,
                guild_id,
                here,
                chosen,
                timer,
                rated=rated,
                time_control=chosen_time(time),
                min_reliability=min_reliability,
            )
            return info, public, lobby

        try:
            info, public, lobby = await public_answer_work(interaction, open_it())
        except SeatNotPlaced as refused:
            await send_private(interaction, refused.message)
            return
        names = await deps.names.pair(info.players, None, public, guild_id=guild_id)
        embed = invitation(public, info, names)
        message: discord.Message | None
        if lobby is None:
            message = await answer_publicly(interaction, embed=embed, view=answers(public, info))
            deps.open_challenges.remember(info.match_id, interaction)
        else:
            message = await _post_in_lobby(deps, interaction, (lang, public), info, lobby, embed)
            if message is None:
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
        await _keep_message_id(deps, info, message)

    @app_commands.command(
        name=localised("seats.name_seats"), description=localised("seats.slash_seats")
    )
    async def seats(interaction: discord.Interaction[Any]) -> None:
        await show_seats(deps, interaction)

    @app_commands.command(name=localised("names.ai"), description=localised("slash.ai"))
    @app_commands.rename(
        level=localised("names.level"),
        variant=localised("names.variant"),
        hints=localised("names.hints"),
        time=localised("time.names.time"),
    )
    @app_commands.describe(
        level=localised("slash.ai_level"),
        variant=localised("slash.ai_variant"),
        hints=localised("slash.ai_hints"),
        time=localised("time.slash.time"),
    )
    @app_commands.choices(level=offered, variant=VARIANT_CHOICES, time=TIME_CHOICES)
    async def ai(
        interaction: discord.Interaction[Any],
        level: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        hints: bool = False,
        time: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = level.value if level else default_level
        if outside_bot_servers(interaction):
            if not await external_apps_refused(interaction):
                await _ai_anywhere(deps, interaction, chosen, variant, hints, time)
            return
        if not await can_host_here(interaction):
            return

        async def start() -> str:
            # The language first: once the match is stored, no read may refuse it.
            public = await deps.languages.public(interaction.guild_id)
            # The service may refuse (too many matches): announce only a match that exists.
            await deps.commands.start_ai_match(
                interaction.user.id,
                chosen,
                interaction.guild_id,
                interaction.channel_id,
                Variant(variant.value) if variant else None,
                hints=hints,
                time_control=chosen_time(time),
            )
            return public

        public = await public_answer_work(interaction, start())
        await answer_publicly(
            interaction,
            content=text(
                public,
                "ai_hints.ai_start" if hints else "challenge.ai_start",
                mention=interaction.user.mention,
                level=text(public, f"levels.{chosen}"),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    return [challenge, ai, open_seat, seats]


async def _ai_anywhere(
    deps: ChallengeDeps,
    interaction: discord.Interaction[Any],
    level: str,
    variant: app_commands.Choice[str] | None,
    hints: bool,
    time: app_commands.Choice[str] | None,
) -> None:
    """`/hanamikoji ai` outside the servers the bot is in: the command's public answer is
    the board (its "thinking…" first, filled in by the board's first edit)."""
    started = deps.commands.start_ai_match(
        interaction.user.id,
        level,
        None,
        interaction.channel_id,
        Variant(variant.value) if variant else None,
        hints=hints,
        time_control=chosen_time(time),
    )
    info = await public_answer_work(interaction, started)
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    await board_here(deps, interaction, info)


async def _keep_message_id(deps: ChallengeDeps, info: MatchInfo, message: discord.Message) -> None:
    """Where the challenge's message is, to close it after a restart (or, a seat's, from
    `/hanamikoji seats`)."""
    try:
        await deps.placements.set_challenge_message(info.match_id, message.id)
    except (DatabaseUnavailable, StorageFull) as error:
        # The challenge stands and is posted: only closing its message later needs this, so
        # a database that does not answer must not make it "refused".
        log.debug("challenge %d: its message id is not stored: %s", info.match_id, error)


async def _reachable_lobby(
    deps: ChallengeDeps, lang: str, lobby_id: int
) -> discord.abc.Messageable:
    """The lobby channel, if the bot can host a match there; else :class:`SeatNotPlaced`."""
    lobby = await deps.places.channel(lobby_id)
    permissions = None if lobby is None else bot_permissions_in(lobby)
    if lobby is None or (permissions is not None and missing(permissions, TO_HOST)):
        raise SeatNotPlaced(text(lang, "seats.lobby_unreachable", channel=f"<#{lobby_id}>"))
    return lobby


async def _post_in_lobby(
    deps: ChallengeDeps,
    interaction: discord.Interaction[Any],
    languages: tuple[str, str],
    info: MatchInfo,
    lobby: discord.abc.Messageable,
    embed: discord.Embed,
) -> discord.Message | None:
    """Post the seat in the lobby (``languages``: the host's, the server's); if the lobby
    refuses it, withdraw the seat, tell its host privately, and return None."""
    lang, public = languages
    try:
        return await deps.places.retrier.until_accepted(
            f"seat {info.match_id}: posting it in the lobby",
            lambda: lobby.send(embed=embed, view=answers(public, info)),
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
    # The public "thinking…" may be shown: it goes, the refusal stays private.
    if interaction.response.is_done():
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("could not delete the public placeholder: %s", error)
    await send_private(interaction, refusal)
    return None
