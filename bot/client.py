"""The Discord client: wires the slash commands, the persistent buttons and the match
service together, and starts and stops them in the right order."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.clicks import Clicks
from bot.commands import HanamikojiCommands
from bot.config import BotConfig
from bot.discord_ui import GameButton, GameSelect
from bot.dm_panels import Notifier
from bot.i18n import DEFAULT_LANGUAGE, language_of
from bot.player_names import PlayerNames
from bot.rematch import Rematches
from bot.request_pacing import RequestPacer, pacing_trace
from bot.stats_commands import STATS_BUTTONS, rating_change_line
from bot.table import Table
from bot.translator import CatalogueTranslator
from bot.worker_processes import DRAWING, THINKING
from engine.ai import agent_for_level
from engine.service.clock import Clock
from engine.service.config import ServiceConfig
from engine.service.match_service import MatchService
from engine.store.rows import ExpiryPolicy
from engine.store.sqlite import SqliteMatchStore

log = logging.getLogger(__name__)

SHUTDOWN_SHOW_SECONDS = 10.0
"""How long a shutdown waits for Discord to take what the table still has to show."""
# discord.py runs each interaction's handler as a task named after what it dispatches
# (app_commands/tree.py, ui/view.py, ui/modal.py); a shutdown waits for them, so an
# answer already on its way is not cut off when the HTTP session closes.
_INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-")


async def finish_interaction_handlers(seconds: float) -> None:
    """Wait up to `seconds` for the interaction handlers now running."""
    running = [
        task
        for task in asyncio.all_tasks()
        if task is not asyncio.current_task() and task.get_name().startswith(_INTERACTION_TASKS)
    ]
    if running:
        await asyncio.wait(running, timeout=seconds)


def point_at_discord(config: BotConfig) -> None:
    """Use the configured REST and Gateway addresses (Discord's, or a local emulator's).

    discord.py keeps both as class attributes, so this must run before logging in.
    """
    Route.BASE = config.discord.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.discord.gateway_url)


def service_config(config: BotConfig) -> ServiceConfig:
    m = config.matches
    return ServiceConfig(
        turn_timer_seconds=float(m.turn_timer_seconds),
        reminder_before_seconds=float(m.reminder_before_seconds),
        challenge_expiry_seconds=float(m.challenge_expiry_seconds),
        expiry_policy=ExpiryPolicy(m.expiry_policy),
        max_active_matches=m.max_active_matches,
        ai_move_delay_seconds=m.ai_move_delay_seconds,
        thread_per_match=m.thread_per_match,
        three_rounds=m.three_rounds,
    )


def build_service(config: BotConfig, clock: Clock | None = None) -> MatchService:
    return MatchService(
        SqliteMatchStore(config.database_path),
        service_config(config),
        clock=clock,
        agent_factory=agent_for_level,
        agent_executor=THINKING.executor(),
    )


class HanamikojiBot(discord.Client):
    """The bot. Needs no privileged intent: it reads no message content and no member list."""

    def __init__(self, config: BotConfig, service: MatchService | None = None) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        pacer = RequestPacer(config.discord.requests_per_second)
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=pacing_trace(pacer),
        )
        self.config = config
        self.service = service or build_service(config)
        self.tree = app_commands.CommandTree(self)
        self.player_names = PlayerNames(self)
        self.clicks = Clicks(self)
        self.table = Table(self)
        self.notifier = Notifier(self)
        self.rematches = Rematches(self)
        self._unsubscribe: Any = None

    async def setup_hook(self) -> None:
        await self.service.start()
        self._unsubscribe = self.service.subscribe(self.table.on_event)
        self.add_dynamic_items(GameButton, GameSelect)
        self.add_dynamic_items(*STATS_BUTTONS)
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.add_command(HanamikojiCommands(self))
        await self.tree.sync()
        if self.config.discord.dev_guild_id is not None:
            guild = discord.Object(self.config.discord.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        log.info("commands synced; %d unfinished matches loaded", len(self.service.broken) or 0)

    async def public_language(self, guild_id: int | None) -> str:
        """The language of public messages in a server: its chosen one, else its Discord
        "preferred locale" (community servers set it), else English."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        chosen = (await self.service.settings.guild_settings(guild_id)).language
        if chosen:
            return chosen
        guild = self.get_guild(guild_id)
        return language_of(guild.preferred_locale) if guild is not None else DEFAULT_LANGUAGE

    async def set_public_language(self, guild_id: int, language: str) -> None:
        """``"auto"`` goes back to following the server's Discord locale."""
        settings = await self.service.settings.guild_settings(guild_id)
        chosen = None if language == "auto" else language
        await self.service.settings.set_guild_settings(replace(settings, language=chosen))

    async def rating_line(self, match_id: int, names: tuple[str, str], lang: str) -> str | None:
        """Both players' rating changes for the match-end message (None when unrated)."""
        return await rating_change_line(self.service, match_id, names, lang)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user and self.user.id)

    async def close(self) -> None:
        """Stop taking clicks, let in-flight decisions commit, show the last events, close
        the database, then leave the Gateway."""
        try:
            await finish_interaction_handlers(SHUTDOWN_SHOW_SECONDS)
            # Show what is queued, but do not wait out a Discord that keeps saying later;
            # the table still reads the service, so it closes after.
            self.table.retrier.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.table.wait_idle(), SHUTDOWN_SHOW_SECONDS)
            await self.service.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.table.wait_idle(), SHUTDOWN_SHOW_SECONDS)
        except Exception:
            log.exception("error while closing the match service")
        DRAWING.stop()
        THINKING.stop()
        await super().close()
