"""`/hanamikoji challenge` and `/hanamikoji ai`: start a match."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.challenge.accept_button import AcceptButton
from bot.challenge.challenge_message import invitation
from bot.challenge.decline_button import DeclineButton
from bot.challenge.deps import ChallengeDeps
from bot.discord_plumbing.channel_permissions import cannot_host_text
from bot.discord_plumbing.first_response import answer_publicly, public_answer_work
from bot.discord_plumbing.translator import localised
from bot.words.i18n import language_of, text
from engine.model import MatchInfo
from engine.rules import Variant
from engine.service import DatabaseUnavailable, StorageFull

log = logging.getLogger(__name__)

Command = app_commands.Command[Any, ..., None]


def _choice(key: str, value: Any) -> app_commands.Choice[Any]:
    return app_commands.Choice(name=localised(f"slash.{key}"), value=value)


TIMER_CHOICES = [
    _choice("choice_5_minutes", 300),
    _choice("choice_15_minutes", 900),
    _choice("choice_1_hour", 3600),
    _choice("choice_12_hours", 12 * 3600),
    _choice("choice_24_hours", 24 * 3600),
    _choice("choice_3_days", 3 * 24 * 3600),
]
VARIANT_CHOICES = [
    _choice("choice_standard", "standard"),
    _choice("choice_three_rounds", "three-rounds"),
]
LEVEL_CHOICES = [
    _choice("choice_easy", "easy"),
    _choice("choice_normal", "normal"),
    _choice("choice_hard", "hard"),
]


async def can_host_here(interaction: discord.Interaction[Any]) -> bool:
    """Refuse, saying which permission is missing, where the bot could not show a match
    (Discord sends the bot's permissions in the channel with every interaction)."""
    refusal = cannot_host_text(language_of(interaction.locale), interaction.app_permissions)
    if refusal is None:
        return True
    await interaction.response.send_message(refusal, ephemeral=True)
    return False


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
    )
    @app_commands.describe(
        opponent=localised("slash.challenge_opponent"),
        variant=localised("slash.challenge_variant"),
        turn_timer=localised("slash.challenge_turn_timer"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES)
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        if opponent.bot:
            await interaction.response.send_message(
                text(language_of(interaction.locale), "challenge.no_bots"), ephemeral=True
            )
            return
        if not await can_host_here(interaction):
            return
        deps.names.remember(opponent)

        async def issue() -> tuple[MatchInfo, str]:
            # The language first: once the challenge is stored, no read may refuse it.
            public = await deps.languages.public(interaction.guild_id)
            info = await deps.commands.challenge(
                interaction.user.id,
                opponent.id,
                interaction.guild_id,
                interaction.channel_id,
                Variant(variant.value) if variant else None,
                float(turn_timer.value) if turn_timer else None,
            )
            return info, public

        info, public = await public_answer_work(interaction, issue())
        names = await deps.names.pair(info.players, None, public, guild_id=info.guild_id)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(info.match_id, label=text(public, "challenge.accept")))
        view.add_item(DeclineButton(info.match_id, label=text(public, "challenge.decline")))
        message = await answer_publicly(
            interaction,
            content=opponent.mention,
            embed=invitation(public, info, names, opponent.mention),
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        deps.open_challenges.remember(info.match_id, interaction)
        try:
            await deps.placements.set_challenge_message(info.match_id, message.id)
        except (DatabaseUnavailable, StorageFull) as error:
            # The challenge stands and is posted: only closing its message after a restart
            # needs this, so a database that does not answer must not make it "refused".
            log.debug("challenge %d: its message id is not stored: %s", info.match_id, error)

    @app_commands.command(name=localised("names.ai"), description=localised("slash.ai"))
    @app_commands.rename(
        level=localised("names.level"),
        variant=localised("names.variant"),
        hints=localised("names.hints"),
    )
    @app_commands.describe(
        level=localised("slash.ai_level"),
        variant=localised("slash.ai_variant"),
        hints=localised("slash.ai_hints"),
    )
    @app_commands.choices(level=offered, variant=VARIANT_CHOICES)
    async def ai(
        interaction: discord.Interaction[Any],
        level: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        hints: bool = False,
    ) -> None:
        chosen = level.value if level else default_level
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

    return [challenge, ai]
