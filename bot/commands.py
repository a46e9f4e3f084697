"""The `/hanamikoji` slash commands: one group, every option described, in the user's
language (names and descriptions through :mod:`bot.translator`, replies through the
catalogue)."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import challenge_message, stats_commands
from bot.channel_permissions import cannot_host_text
from bot.custom_ids import Verb, game_id
from bot.discord_ui import EMBED_COLOUR, message_kwargs
from bot.i18n import language_of, languages, text
from bot.refusals import refusal_text
from bot.translator import localised
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine.rules import Variant
from engine.service.errors import ServiceError
from engine.store.rows import ExpiryPolicy, MatchInfo, MatchStatus

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)


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
POLICY_CHOICES = [_choice("choice_policy_ai", "ai"), _choice("choice_policy_forfeit", "forfeit")]
LANGUAGE_CHOICES = [_choice("choice_language_auto", "auto")] + [
    app_commands.Choice(name=text(code, "language_name"), value=code) for code in languages()
]


def _lang(interaction: discord.Interaction[Any]) -> str:
    return language_of(interaction.locale)


class HanamikojiCommands(app_commands.Group):
    def __init__(self, bot: HanamikojiBot) -> None:
        # Guild-only on the group itself: discord.py ignores guild_only() on subcommands, and
        # a match needs a server (its channel, its thread, its members).
        super().__init__(
            name="hanamikoji",
            description=localised("slash.group"),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
        )
        self.bot = bot

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        lang = _lang(interaction)
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            message = refusal_text(lang, original)
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command %s failed", command, exc_info=original)
            message = text(lang, "refusal.wrong")
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        self.bot.player_names.remember(interaction.user, interaction.locale)
        return True

    # -- starting matches -----------------------------------------------------------------

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
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        variant: app_commands.Choice[str] | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
    ) -> None:
        if opponent.bot:
            await interaction.response.send_message(
                text(_lang(interaction), "challenge.no_bots"), ephemeral=True
            )
            return
        if not await self._can_host_here(interaction):
            return
        self.bot.player_names.remember(opponent)
        info = await self.bot.service.commands.challenge(
            interaction.user.id,
            opponent.id,
            interaction.guild_id,
            interaction.channel_id,
            Variant(variant.value) if variant else None,
            float(turn_timer.value) if turn_timer else None,
        )
        public = await self.bot.public_language(interaction.guild_id)
        names = (interaction.user.display_name, opponent.display_name)
        embed = challenge_message.invitation(public, info, names, opponent.mention)
        page = challenge_message.answer_buttons(public, info.match_id)
        await interaction.response.send_message(
            content=opponent.mention,
            embed=embed,
            view=message_kwargs(page)["view"],
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )
        message = await interaction.original_response()
        await self.bot.service.placements.set_location(info.match_id, board_message_id=message.id)
        self.bot.table.remember_challenge(info.match_id, interaction)

    @app_commands.command(name=localised("names.ai"), description=localised("slash.ai"))
    @app_commands.rename(level=localised("names.level"), variant=localised("names.variant"))
    @app_commands.describe(level=localised("slash.ai_level"), variant=localised("slash.ai_variant"))
    @app_commands.choices(level=LEVEL_CHOICES, variant=VARIANT_CHOICES)
    async def ai(
        self,
        interaction: discord.Interaction[Any],
        level: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        chosen = level.value if level else "normal"
        if not await self._can_host_here(interaction):
            return
        # The service may refuse (too many matches): announce only a match that exists.
        await self.bot.service.commands.start_ai_match(
            interaction.user.id,
            chosen,
            interaction.guild_id,
            interaction.channel_id,
            Variant(variant.value) if variant else None,
        )
        public = await self.bot.public_language(interaction.guild_id)
        await interaction.response.send_message(
            text(
                public,
                "challenge.ai_start",
                mention=interaction.user.mention,
                level=text(public, f"levels.{chosen}"),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _can_host_here(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse, saying which permission is missing, where the bot could not show a match
        (Discord sends the bot's permissions in the channel with every interaction)."""
        refusal = cannot_host_text(_lang(interaction), interaction.app_permissions)
        if refusal is None:
            return True
        await interaction.response.send_message(refusal, ephemeral=True)
        return False

    # -- during a match ---------------------------------------------------------------------

    async def _match_here(self, interaction: discord.Interaction[Any]) -> MatchInfo | None:
        """The caller's match in this channel or thread, or a helpful reply saying why not."""
        lang = _lang(interaction)
        user_id = interaction.user.id
        info = await self.bot.service.queries.active_match_for(user_id, interaction.channel_id or 0)
        if info is not None and info.status is MatchStatus.ACTIVE:
            self.bot.table.presence.seen(info.match_id, user_id)
            return info
        open_matches = await self.bot.service.queries.open_matches_for(user_id)
        elsewhere = [m for m in open_matches if m.status is MatchStatus.ACTIVE]
        if elsewhere:
            links = ", ".join(f"<#{m.placement.thread_id or m.channel_id}>" for m in elsewhere[:5])
            message = text(lang, "commands.no_match_here", links=links)
        else:
            message = text(lang, "commands.no_match")
        await interaction.response.send_message(message, ephemeral=True)
        return None

    @app_commands.command(name=localised("names.hand"), description=localised("slash.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        info = await self._match_here(interaction)
        if info is not None:
            await self.bot.clicks.show_panel(
                interaction, _lang(interaction), info, edit=False, picture=True
            )

    @app_commands.command(name=localised("names.board"), description=localised("slash.board"))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        lang = _lang(interaction)
        channel_id = interaction.channel_id or 0
        info = await self.bot.service.placements.match_in_thread(channel_id)
        if info is None:
            info = await self.bot.service.queries.active_match_for(interaction.user.id, channel_id)
        if info is None:
            await interaction.response.send_message(
                text(lang, "commands.no_match_in_channel"), ephemeral=True
            )
            return
        await interaction.response.send_message(text(lang, "commands.board_again"), ephemeral=True)
        old = info.placement.board_message_id
        place = await self.bot.table.place(info)
        message = await self.bot.table.post_board(info)
        if old is not None and message is not None and place is not None:
            public = await self.bot.public_language(info.guild_id)
            with contextlib.suppress(discord.HTTPException):
                await place.get_partial_message(old).edit(  # type: ignore[attr-defined]
                    content=text(public, "commands.board_moved", link=message.jump_url),
                    embed=None,
                    view=None,
                    attachments=[],
                )

    @app_commands.command(name=localised("names.resign"), description=localised("slash.resign"))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        lang = _lang(interaction)
        info = await self._match_here(interaction)
        if info is None:
            return
        button = ButtonSpec(
            text(lang, "commands.resign_button"),
            game_id(info.match_id, info.version, Verb.RESIGN),
            Style.DANGER,
        )
        await interaction.response.send_message(
            text(lang, "commands.resign_ask"),
            view=message_kwargs(PageSpec(text="", rows=((button,),)))["view"],
            ephemeral=True,
        )

    # -- help and settings ------------------------------------------------------------------

    @app_commands.command(name=localised("names.rules"), description=localised("slash.rules"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        lang = _lang(interaction)
        embed = discord.Embed(
            title=text(lang, "commands.rules_title"),
            description=text(lang, "rules.text"),
            colour=EMBED_COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=localised("names.notify"), description=localised("slash.notify"))
    @app_commands.rename(dm=localised("names.dm"))
    @app_commands.describe(dm=localised("slash.notify_dm"))
    async def notify(self, interaction: discord.Interaction[Any], dm: bool) -> None:
        settings = await self.bot.service.settings.user_settings(interaction.user.id)
        await self.bot.service.settings.set_user_settings(replace(settings, dm_notifications=dm))
        self.bot.notifier.choice_changed(interaction.user.id, dm)
        message = text(_lang(interaction), "commands.dm_on" if dm else "commands.dm_off")
        await interaction.response.send_message(message, ephemeral=True)

    @app_commands.command(name=localised("names.settings"), description=localised("slash.settings"))
    @app_commands.rename(
        turn_timer=localised("names.turn_timer"),
        expiry=localised("names.expiry"),
        threads=localised("names.threads"),
        three_rounds=localised("names.three_rounds"),
        language=localised("names.language"),
    )
    @app_commands.describe(
        turn_timer=localised("slash.settings_turn_timer"),
        expiry=localised("slash.settings_expiry"),
        threads=localised("slash.settings_threads"),
        three_rounds=localised("slash.settings_three_rounds"),
        language=localised("slash.settings_language"),
    )
    @app_commands.choices(
        turn_timer=TIMER_CHOICES, expiry=POLICY_CHOICES, language=LANGUAGE_CHOICES
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timer: app_commands.Choice[int] | None = None,
        expiry: app_commands.Choice[str] | None = None,
        threads: bool | None = None,
        three_rounds: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = _lang(interaction)
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                text(lang, "commands.settings_forbidden"), ephemeral=True
            )
            return
        assert interaction.guild_id is not None
        current = await self.bot.service.settings.guild_settings(interaction.guild_id)
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
            changed = await self.bot.service.settings.set_guild_settings(changed)
        if language is not None:
            await self.bot.set_public_language(interaction.guild_id, language.value)
        config = self.bot.service.config
        policy = changed.expiry_policy or config.expiry_policy
        override = (await self.bot.service.settings.guild_settings(interaction.guild_id)).language
        yes_no = {True: text(lang, "commands.on"), False: text(lang, "commands.off")}
        lines = [
            text(
                lang,
                "commands.settings_timer",
                timer=challenge_message.duration_text(
                    lang, changed.turn_seconds or config.turn_timer_seconds
                ),
            ),
            text(
                lang,
                "commands.settings_expiry",
                policy=text(
                    lang,
                    "commands.policy_ai"
                    if policy is ExpiryPolicy.AI
                    else "commands.policy_forfeit",
                ),
            ),
            text(lang, "commands.settings_threads", value=yes_no[changed.thread_per_match]),
            text(
                lang, "commands.settings_three_rounds", value=yes_no[changed.three_rounds_default]
            ),
            text(
                lang,
                "commands.settings_language",
                value=text(override, "language_name")
                if override
                else text(lang, "commands.server_language"),
            ),
        ]
        updated = changed != current or language is not None
        title = text(lang, "commands.settings_updated" if updated else "commands.settings_title")
        embed = discord.Embed(title=title, description="\n".join(lines), colour=EMBED_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- ratings and records (bot/stats_commands.py) ------------------------------------------

    @app_commands.command(name=localised("names.stats"), description=localised("slash.stats"))
    @app_commands.rename(member=localised("names.member"))
    @app_commands.describe(member=localised("slash.stats_member"))
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await stats_commands.show_stats(interaction, member)

    @app_commands.command(
        name=localised("names.leaderboard"), description=localised("slash.leaderboard")
    )
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        await stats_commands.show_leaderboard(interaction)

    @app_commands.command(name=localised("names.history"), description=localised("slash.history"))
    @app_commands.rename(member=localised("names.member"))
    @app_commands.describe(member=localised("slash.history_member"))
    async def history(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await stats_commands.show_history(interaction, member)
