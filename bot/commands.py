"""The `/hanamikoji` slash commands: one group, every option described."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import challenge_message
from bot.custom_ids import Verb, game_id
from bot.discord_ui import EMBED_COLOUR, message_kwargs
from bot.refusals import SOMETHING_WENT_WRONG, refusal_text
from bot.rules_text import RULES_TEXT
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine import Variant
from engine.service.errors import ServiceError
from engine.store.rows import ExpiryPolicy, MatchInfo, MatchStatus

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)

TIMER_CHOICES = [
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="15 minutes", value=900),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="12 hours", value=12 * 3600),
    app_commands.Choice(name="24 hours", value=24 * 3600),
    app_commands.Choice(name="3 days", value=3 * 24 * 3600),
]
VARIANT_CHOICES = [
    app_commands.Choice(name="standard (play until someone wins)", value="standard"),
    app_commands.Choice(name="three rounds at most", value="three-rounds"),
]
LEVEL_CHOICES = [
    app_commands.Choice(name="easy — a gentle first opponent", value="easy"),
    app_commands.Choice(name="normal — a solid player", value="normal"),
    app_commands.Choice(name="hard — thinks ahead", value="hard"),
]
POLICY_CHOICES = [
    app_commands.Choice(name="the AI plays the missed turn", value="ai"),
    app_commands.Choice(name="the absent player forfeits", value="forfeit"),
]


class HanamikojiCommands(app_commands.Group):
    def __init__(self, bot: HanamikojiBot) -> None:
        super().__init__(
            name="hanamikoji", description="Play Hanamikoji, the geisha card game for two"
        )
        self.bot = bot

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            text = refusal_text(original)
        else:
            log.error(
                "command %s failed",
                interaction.command and interaction.command.qualified_name,
                exc_info=original,
            )
            text = SOMETHING_WENT_WRONG
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        self.bot.player_names.remember(interaction.user)
        return True

    # -- starting matches -----------------------------------------------------------------

    @app_commands.command(description="Challenge a member of this server to a match")
    @app_commands.describe(
        opponent="Who you want to play against",
        variant="Standard (default) or at most three rounds",
        turn_timer="How long each player has per decision (default: this server's setting)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, turn_timer=TIMER_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        if opponent.bot:
            await interaction.response.send_message(
                "Bots can't play — challenge a person, or use `/hanamikoji ai` to play against me.",
                ephemeral=True,
            )
            return
        self.bot.player_names.remember(opponent)
        info = await self.bot.service.challenge(
            interaction.user.id,
            opponent.id,
            interaction.guild_id,
            interaction.channel_id,
            Variant(variant.value) if variant else None,
            float(turn_timer.value) if turn_timer else None,
        )
        names = (interaction.user.display_name, opponent.display_name)
        embed = challenge_message.invitation(info, names, opponent.mention)
        page = challenge_message.answer_buttons(info.match_id)
        await interaction.response.send_message(
            content=opponent.mention,
            embed=embed,
            view=message_kwargs(page)["view"],
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        message = await interaction.original_response()
        await self.bot.service.set_location(info.match_id, board_message_id=message.id)

    @app_commands.command(description="Play a match against the bot's AI")
    @app_commands.describe(
        level="How strong the AI plays (default: normal)", variant="Standard or three rounds"
    )
    @app_commands.choices(level=LEVEL_CHOICES, variant=VARIANT_CHOICES)
    async def ai(
        self,
        interaction: discord.Interaction[Any],
        level: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = level.value if level else "normal"
        await interaction.response.send_message(
            f"🎴 {interaction.user.mention} starts a match against the AI ({chosen}).",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.service.start_ai_match(
            interaction.user.id,
            chosen,
            interaction.guild_id,
            interaction.channel_id,
            Variant(variant.value) if variant else None,
        )

    # -- during a match ---------------------------------------------------------------------

    async def _match_here(self, interaction: discord.Interaction[Any]) -> MatchInfo | None:
        """The caller's match in this channel or thread, or a helpful reply saying why not."""
        user_id = interaction.user.id
        channel_id = interaction.channel_id or 0
        info = await self.bot.service.active_match_for(user_id, channel_id)
        if info is not None and info.status is MatchStatus.ACTIVE:
            return info
        elsewhere = [
            m
            for m in await self.bot.service.open_matches_for(user_id)
            if m.status is MatchStatus.ACTIVE
        ]
        if elsewhere:
            links = ", ".join(f"<#{m.thread_id or m.channel_id}>" for m in elsewhere[:5])
            text = f"You have no match here. Your matches: {links}."
        else:
            text = (
                "You are not playing a match. "
                "Start one with `/hanamikoji challenge` or `/hanamikoji ai`."
            )
        await interaction.response.send_message(text, ephemeral=True)
        return None

    @app_commands.command(
        description="Show your hand and your moves for your match here (only you see it)"
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        info = await self._match_here(interaction)
        if info is not None:
            await self.bot.clicks.show_panel(interaction, info, edit=False)

    @app_commands.command(description="Post the board again at the bottom of the match thread")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = interaction.channel_id or 0
        info = await self.bot.service.match_in_thread(channel_id)
        if info is None:
            info = await self.bot.service.active_match_for(interaction.user.id, channel_id)
        if info is None:
            await interaction.response.send_message(
                "There is no match in this channel.", ephemeral=True
            )
            return
        await interaction.response.send_message("Here is the board again ↓", ephemeral=True)
        old = info.board_message_id
        place = await self.bot.table.place(info)
        message = await self.bot.table.post_board(info)
        if old is not None and message is not None and place is not None:
            with contextlib.suppress(discord.HTTPException):
                await place.get_partial_message(old).edit(  # type: ignore[attr-defined]
                    content=f"The board has moved: {message.jump_url}", embed=None, view=None
                )

    @app_commands.command(description="Resign your match here (asks for confirmation)")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        info = await self._match_here(interaction)
        if info is None:
            return
        page = PageSpec(
            text="",
            rows=(
                (
                    ButtonSpec(
                        "Yes, resign",
                        game_id(info.match_id, info.version, Verb.RESIGN),
                        Style.DANGER,
                    ),
                ),
            ),
        )
        await interaction.response.send_message(
            "Do you really want to resign? Your opponent wins the match.",
            view=message_kwargs(page)["view"],
            ephemeral=True,
        )

    # -- help and settings ------------------------------------------------------------------

    @app_commands.command(description="How to play Hanamikoji, and how to play it with this bot")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(
            title="Hanamikoji — how to play", description=RULES_TEXT, colour=EMBED_COLOUR
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="Get your hand by DM when it is your turn")
    @app_commands.describe(
        dm="on: also send your panel by DM on your turn; off: only mention me in the thread"
    )
    async def notify(self, interaction: discord.Interaction[Any], dm: bool) -> None:
        settings = await self.bot.service.user_settings(interaction.user.id)
        await self.bot.service.set_user_settings(replace(settings, dm_notifications=dm))
        self.bot.notifier.try_again(interaction.user.id)
        text = (
            "I'll send your hand by DM when it's your turn (and still mention you in the thread)."
            if dm
            else "No more DMs: I'll mention you in the match thread when it's your turn."
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(description="Server defaults for new matches (Manage Server only)")
    @app_commands.describe(
        turn_timer="Time per decision for new matches",
        expiry="What happens when a player's time runs out",
        threads="Open a thread for each match (off: play in the channel)",
        three_rounds="Use the three-round variant by default",
    )
    @app_commands.choices(turn_timer=TIMER_CHOICES, expiry=POLICY_CHOICES)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Choice[int] | None = None,
        expiry: app_commands.Choice[str] | None = None,
        threads: bool | None = None,
        three_rounds: bool | None = None,
    ) -> None:
        permissions = interaction.permissions
        if not permissions.manage_guild:
            await interaction.response.send_message(
                "Only members with the **Manage Server** permission can change these settings.",
                ephemeral=True,
            )
            return
        assert interaction.guild_id is not None
        current = await self.bot.service.guild_settings(interaction.guild_id)
        changed = replace(
            current,
            turn_seconds=float(turn_timer.value) if turn_timer else current.turn_seconds,
            expiry_policy=ExpiryPolicy(expiry.value) if expiry else current.expiry_policy,
            thread_per_match=current.thread_per_match if threads is None else threads,
            three_rounds_default=current.three_rounds_default
            if three_rounds is None
            else three_rounds,
        )
        if changed != current:
            changed = await self.bot.service.set_guild_settings(changed)
        config = self.bot.service.config
        timer = changed.turn_seconds or config.turn_seconds
        policy = changed.expiry_policy or config.expiry_policy
        outcome = "the AI plays the turn" if policy is ExpiryPolicy.AI else "the player forfeits"
        three = "on" if changed.three_rounds_default else "off"
        text = "\n".join(
            [
                f"Turn timer: **{challenge_message.duration_text(timer)}**",
                f"When time runs out: **{outcome}**",
                f"A thread per match: **{'on' if changed.thread_per_match else 'off'}**",
                f"Three-round variant by default: **{three}**",
            ]
        )
        title = "Server settings updated" if changed != current else "Server settings"
        embed = discord.Embed(title=title, description=text, colour=EMBED_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)
