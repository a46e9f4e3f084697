"""The bot: a `commands.AutoShardedBot` that builds the parts its features share, loads the
features (discord.py extensions) by name, and starts and stops them in the right order.

One process runs every shard unless ``[discord] shards`` gives it a range of them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.command_sync import sync_if_changed, sync_marker
from bot.config import BotConfig
from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.direct_messages import DirectMessages
from bot.discord_plumbing.interaction_boards import InteractionBoards
from bot.discord_plumbing.match_item import UnreadableItem
from bot.discord_plumbing.places import Places
from bot.discord_plumbing.retrier import Retrier
from bot.discord_plumbing.translator import CatalogueTranslator
from bot.discord_plumbing.worker_processes import DRAWING, THINKING
from bot.features import HanamikojiGroup, SharedParts, command_group, features
from bot.operations.counted_executor import CountedExecutor
from bot.operations.http_endpoints import OperationsServer
from bot.operations.metrics import BotMetrics, ShardState
from bot.operations.readiness import Readiness
from bot.operations.recorder import ServiceRecorder
from bot.operations.rest_trace import FirstResponses, measure_requests
from bot.operations.status_command import status_command
from bot.operations.timed_store import timed_store
from bot.request_pacing import RequestPacer, pacing_trace
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.ai import agent_for_level
from engine.hosting import (
    IdentifyGate,
    IdentifyTurnUnknown,
    LocalIdentifyGate,
    MatchStore,
    open_store,
)
from engine.service.clock import Clock
from engine.service.match_service import MatchService

EXTENSIONS = (
    "bot.play",
    "bot.challenge",
    "bot.stats",
    "bot.settings",
    "bot.review",
    "bot.seasons",
    "bot.tournaments",
    "bot.clocks",
    "bot.puzzles",
)
"""The features, each a discord.py extension (a package with ``setup(bot)``)."""

log = logging.getLogger(__name__)

IDENTIFY_TURN_SECONDS = 30.0
"""How long a shard waits for the shared IDENTIFY turn before spacing its IDENTIFYs on its
own (a database that does not answer must not keep the bot off the Gateway)."""
SHUTDOWN_SHOW_SECONDS = 10.0
"""How long a shutdown waits for Discord to take what the matches' presenters still have to show."""
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
        log.info("stopping: finishing %d answer(s) under way first", len(running))
        await asyncio.wait(running, timeout=seconds)


def point_at_discord(config: BotConfig) -> None:
    """Use the configured REST and Gateway addresses (Discord's, or a local emulator's).

    discord.py keeps both as class attributes, so this must run before logging in.
    """
    Route.BASE = config.discord.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.discord.gateway_url)


def build_store(config: BotConfig) -> MatchStore:
    """PostgreSQL when ``[database] url`` (or DATABASE_URL) is set, else the SQLite file."""
    return open_store(
        path=config.database.path,
        url=config.database.url,
        origin=config.discord.process_name,
        timeouts=config.database.timeouts,
    )


def build_service(
    config: BotConfig,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    metrics: BotMetrics | None = None,
) -> MatchService:
    """The match service the bot runs on; ``clock`` and ``rng`` (deals, who starts) are
    the system's unless a test fixes them. With ``metrics``, its database calls are timed
    and its AI worker's queue counted."""
    store = build_store(config)
    executor = THINKING.executor()
    if metrics is not None:
        store = timed_store(store, metrics.database_calls)
        executor = CountedExecutor(executor, metrics.ai_jobs_waiting, metrics.ai_job_seconds)
    return MatchService(
        store,
        config.matches,
        clock=clock,
        rng=rng,
        agent_factory=agent_for_level,
        agent_executor=executor,
    )


class HanamikojiBot(commands.AutoShardedBot):
    """The bot. Needs no privileged intent: it reads no message content and no member list.

    Runs the shards ``[discord] shards`` names, else every shard Discord recommends."""

    def __init__(
        self,
        config: BotConfig,
        service: MatchService | None = None,
        metrics: BotMetrics | None = None,
    ) -> None:
        """``metrics``: where to record (a test's); by default a registry of its own when
        ``[metrics] port`` is set, else nothing is measured."""
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        self.pacer = pacer = RequestPacer(config.discord.pace)
        trace = pacing_trace(pacer)
        if metrics is None and config.metrics.enabled:
            metrics = BotMetrics()
        self._first_responses = None if metrics is None else FirstResponses(metrics)
        if metrics is not None and self._first_responses is not None:
            measure_requests(trace, metrics, self._first_responses)
        # Without shard ids discord.py runs every shard, counted by Discord unless given.
        sharding: dict[str, Any] = {"shard_count": config.discord.shard_count}
        if config.discord.shard_ids is not None:
            sharding["shard_ids"] = config.discord.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,  # no text commands: slash commands only
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            # Nothing reads discord.py's message cache (the bot keeps its own ids and listens
            # to raw deletes); filling it cost a copy and a scan of up to 1,000 messages on
            # every edit of a board or panel. None disables it (discord.py's Client docs).
            max_messages=None,
            http_trace=trace,
            **sharding,
        )
        self.config = config
        self.metrics = metrics
        self.service = service or build_service(config, metrics=metrics)
        self._operations: OperationsServer | None = None
        self._recorder: ServiceRecorder | None = None
        if metrics is not None:
            self._recorder = ServiceRecorder(metrics, self.service.queries)
            metrics.sources.service = self.service.figures
            metrics.sources.shards = self.shard_states
            self._operations = OperationsServer(
                metrics,
                Readiness(
                    self.shard_states,
                    lambda: self.service.figures().started,
                    self.service.ping_database,
                ),
                config.metrics.address,
                config.metrics.port or 0,
            )
        store = self.service.store
        # On PostgreSQL every process takes its turn through the database; on SQLite the
        # bot is one process, whose shards take turns here.
        self._own_identify_turns = LocalIdentifyGate()
        self._identify_gate: IdentifyGate = (
            store if isinstance(store, IdentifyGate) else self._own_identify_turns
        )
        self._max_concurrency: int | None = None
        self._fetched_locales: dict[int, discord.Locale] = {}
        names = PlayerNames(self)
        self.parts = SharedParts(
            service=self.service,
            names=names,
            languages=ServerLanguages(self.service.settings, self._guild_locale),
            places=Places(self, Retrier(), pacer),
            direct_messages=DirectMessages(
                self.service.settings, self.create_dm, other_processes=self.service.store.shared
            ),
            emojis=AppEmojis(),
            interaction_boards=InteractionBoards(self.service.clock.now),
        )

    async def _guild_locale(self, guild_id: int) -> discord.Locale | None:
        guild = self.get_guild(guild_id)
        if guild is not None:
            return guild.preferred_locale
        # A server on a shard another process holds (or not delivered yet): asked once.
        if guild_id not in self._fetched_locales:
            try:
                fetched = await self.fetch_guild(guild_id)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                log.warning("could not look up the locale of server %s: %s", guild_id, error)
                return None
            self._fetched_locales[guild_id] = fetched.preferred_locale
        return self._fetched_locales[guild_id]

    async def setup_hook(self) -> None:
        if self._operations is not None and self._recorder is not None:
            # Up first: /healthz answers while the service starts, /readyz says it has not.
            await self._operations.start()
            self.service.subscribe(self._recorder.on_event)
            self.add_listener(self._interaction_arrived, "on_interaction")
            self.add_listener(self._board_shown, "on_board_shown")
            self.add_listener(self._refused, "on_refusal")
        # Before any panel is drawn; without them the cards are letters (and the log says why).
        await self.parts.emojis.install(self, upload=self._syncs_commands)
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.add_command(HanamikojiGroup(self.parts.names))
        # One refusal for every feature's ids that no feature's template reads (garbled, forged).
        self.add_dynamic_items(UnreadableItem)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        dev_guild_id = self.config.discord.dev_guild_id
        if dev_guild_id is not None:
            # In every process, which answers the dev guild's commands whoever synced them.
            guild = discord.Object(dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            if self.metrics is not None:
                self._add_status_command(guild, self.metrics)
        # Start the service only once every feature listens: a deadline that passed while
        # the bot was down fires at start, and its event must find its subscribers.
        await self.service.start()
        await self._sync_commands()
        log.info("%d stored matches set aside as broken", len(self.service.broken))

    @property
    def _syncs_commands(self) -> bool:
        """Whether this process holds shard 0, whose process alone sends what belongs to
        the application (its commands, its emojis)."""
        shard_ids = self.config.discord.shard_ids
        return shard_ids is None or 0 in shard_ids

    async def _sync_commands(self) -> None:
        """Send the slash commands, if they changed, from the process holding shard 0 only:
        they belong to the application, not to a shard."""
        discord_settings = self.config.discord
        if not self._syncs_commands:
            log.info(
                "commands not synced: this process runs %s; the one with shard 0 syncs them",
                discord_settings.process_name,
            )
            return
        database = self.config.database
        marker = sync_marker(database.path, database.url)
        await sync_if_changed(self.tree, marker)
        if discord_settings.dev_guild_id is not None:
            guild = discord.Object(discord_settings.dev_guild_id)
            await sync_if_changed(self.tree, marker, guild)
        log.info("commands synced")

    def _add_status_command(self, guild: discord.Object, metrics: BotMetrics) -> None:
        """``/hanamikoji status`` in the dev guild only: its ``/hanamikoji`` becomes a group
        of its own, holding the global group's commands and the status."""
        shared = command_group(self)
        group = HanamikojiGroup(self.parts.names)
        for command in shared.commands:
            group.add_command(command)
            # add_command makes the dev guild's group the parent; the global group, the
            # same in every way, stays the parent the global commands answer through.
            command.parent = shared
        group.add_command(status_command(metrics, self._may_see_status))
        self.tree.add_command(group, guild=guild, override=True)

    async def _may_see_status(self, user: discord.abc.User) -> bool:
        return user.id in self.config.metrics.admin_user_ids or await self.is_owner(user)

    # -- metrics and health (bot.operations); only with [metrics] port --------------------

    @property
    def operations_port(self) -> int | None:
        """The port /metrics, /healthz and /readyz listen on, once open (None: off)."""
        return None if self._operations is None else self._operations.port

    def shard_states(self) -> list[ShardState]:
        """Each shard this process runs: connected or not, its last heartbeat's latency."""
        running = self.shards
        expected = self.shard_ids if self.shard_ids is not None else range(self.shard_count or 0)
        states = []
        for shard_id in sorted({*expected, *running}):
            info = running.get(shard_id)
            connected = info is not None and not info.is_closed()
            latency = info.latency if info is not None else float("nan")
            states.append(ShardState(shard_id, connected, latency))
        return states

    async def _interaction_arrived(self, interaction: discord.Interaction[Any]) -> None:
        if self._first_responses is not None:
            self._first_responses.arrived(interaction.id, interaction.type.name)

    async def _board_shown(self, match_id: int, version: int) -> None:
        if self._recorder is not None:
            self._recorder.board_shown(match_id, version)

    async def _refused(self, error: Exception) -> None:
        if self._recorder is not None:
            self._recorder.refused(error)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's IDENTIFY turn: one per 5 s per bucket of Discord's
        ``max_concurrency``, across every process of the bot (discord.py's own hook only
        spaces the shards of one process, 5 s apart whatever their bucket)."""
        if self._max_concurrency is None:
            self._max_concurrency = await self._fetch_max_concurrency()
        bucket = (shard_id or 0) % self._max_concurrency
        try:
            async with asyncio.timeout(IDENTIFY_TURN_SECONDS):
                await self._identify_gate.identify_turn(bucket)
        except (IdentifyTurnUnknown, TimeoutError) as error:
            # Discord answers an IDENTIFY out of turn with op 9, and discord.py tries again.
            log.warning(
                "shared IDENTIFY turn unknown (%s): shard %s takes its own", error, shard_id
            )
            await self._own_identify_turns.identify_turn(bucket)

    async def _fetch_max_concurrency(self) -> int:
        """``session_start_limit.max_concurrency`` of GET /gateway/bot; 1 (the smallest)
        if Discord does not say."""
        try:
            limits = await self.fetch_session_start_limits()
        except (discord.HTTPException, discord.GatewayNotFound, aiohttp.ClientError) as error:
            log.warning("session start limit unknown, IDENTIFYing one at a time: %s", error)
            return 1
        return max(1, int(limits.max_concurrency))

    async def wait_idle(self) -> None:
        """Until every feature has shown what it has queued (tests and shutdown)."""
        for feature in features(self):
            await feature.wait_idle()

    async def on_message(self, message: discord.Message, /) -> None:
        """Slash commands only: no message is read as a text command."""

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s), running %s",
            self.user,
            self.user and self.user.id,
            self.config.discord.process_name,
        )

    async def close(self) -> None:
        """Stop taking clicks, let in-flight decisions commit, show the last events, close
        the database, then leave the Gateway."""
        try:
            await finish_interaction_handlers(SHUTDOWN_SHOW_SECONDS)
            # Show what is queued, but do not wait out a Discord that keeps saying later;
            # the features still read the service, so it closes after.
            self.parts.retrier.close()
            self.parts.emojis.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait_idle(), SHUTDOWN_SHOW_SECONDS)
            await self.service.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait_idle(), SHUTDOWN_SHOW_SECONDS)
        except Exception:
            log.exception("error while closing the match service")
        # A job under way finishes first (a picture, an AI move: a second at most).
        await asyncio.gather(asyncio.to_thread(DRAWING.stop), asyncio.to_thread(THINKING.stop))
        # Which requests waited for the bot's own pace, and how long, since it started:
        # logged before discord.py's close, which lets the main task return and the
        # runner cancel whatever of this method is left.
        for urgency, tally in self.pacer.tallies.items():
            if tally.requests:
                log.info("request pacer, %s: %s", urgency.value, tally.summary())
        if self.pacer.withdrawn:
            log.info(
                "request pacer, withdrawn: %d board edits, a newer one sent", self.pacer.withdrawn
            )
        if self._operations is not None:
            await self._operations.close()
        await super().close()
