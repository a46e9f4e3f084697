"""The emulated Discord: an aiohttp server with the REST API and Gateway a bot uses."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.discord_emulator.application_commands import CommandRegistry
from tests.discord_emulator.clock import VirtualClock
from tests.discord_emulator.errors import DiscordError, Failure
from tests.discord_emulator.faults import Faults, fault_response
from tests.discord_emulator.gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS, Gateway
from tests.discord_emulator.http_responses import error_response, json_response
from tests.discord_emulator.interactions import (
    FIRST_RESPONSE_DEADLINE,
    EmulatedInteraction,
    InteractionType,
    interaction_payload,
)
from tests.discord_emulator.message_nonces import MessageNonces
from tests.discord_emulator.message_writes import MessageWriter
from tests.discord_emulator.moderation import Moderation
from tests.discord_emulator.payloads import channel_payload, guild_create_payload
from tests.discord_emulator.permission_settings import PermissionSettings
from tests.discord_emulator.rate_limits import RateLimits
from tests.discord_emulator.request_log import RequestLog
from tests.discord_emulator.rest_app_emojis import AppEmojiRoutes
from tests.discord_emulator.rest_channels import ChannelRoutes
from tests.discord_emulator.rest_commands import CommandRoutes
from tests.discord_emulator.rest_identity import IdentityRoutes
from tests.discord_emulator.rest_interactions import InteractionRoutes
from tests.discord_emulator.rest_messages import MessageRoutes
from tests.discord_emulator.snowflakes import SnowflakeFactory
from tests.discord_emulator.thread_archive import ThreadArchive
from tests.discord_emulator.transcript import Transcript
from tests.discord_emulator.user_installs import (
    channel_of_path,
    only_user_install,
    refuse_where_the_bot_is_not,
)
from tests.discord_emulator.users import EmulatedUser
from tests.discord_emulator.world import ChannelRecord, Guild, World

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
RESUME_GATEWAY_PATH = "/gateway-resume"
# Routes an interaction token authorises; every other REST call needs the bot token.
_TOKENLESS_PREFIXES = (API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/", "/attachments/")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclasses.dataclass(frozen=True)
class EmulatedGuild:
    """A guild added with `DiscordEmulator.add_guild`, and its text channel."""

    record: Guild
    channel: ChannelRecord

    @property
    def id(self) -> int:
        return self.record.id


class DiscordEmulator:
    """One guild with a text channel, some human members and the bot, served on localhost.

    Use `start()`/`stop()` (or `async with`), point discord.py at `api_base` and
    `gateway_url` (see `clients.py`), then drive it through `EmulatedUser`s. With
    `shard_count` over 1 the Gateway requires sharded sessions (`add_guild` adds guilds on
    other shards; the first guild is on shard 0).
    """

    def __init__(
        self,
        *,
        bot_token: str = "emulated-bot-token",
        member_names: tuple[str, ...] = ("ana", "ben", "cara"),
        channel_name: str = "general",
        response_deadline: float = FIRST_RESPONSE_DEADLINE,
        shard_count: int = 1,
    ) -> None:
        self.bot_token = bot_token
        self.response_deadline = response_deadline
        self.clock = VirtualClock()
        self.ids = SnowflakeFactory()
        self.world = World(self.clock, self.ids)
        self.nonces = MessageNonces(self.clock)
        self.channel: ChannelRecord = self.world.add_text_channel(channel_name)
        self.transcript = Transcript(self.world)
        self.faults = Faults()
        self.failures: list[Failure] = []
        # On by default: every test runs under Discord's limits (README, "Rate limits").
        self.rate_limits = RateLimits(on_failure=self.record_failure)
        # Set by tests that expect failures and check them some other way.
        self.tolerate_failures = False
        self.commands = CommandRegistry(self.ids, self.world.bot.id)
        self.interactions: dict[int, EmulatedInteraction] = {}
        self.interactions_by_token: dict[str, EmulatedInteraction] = {}
        self.deferred_updates: dict[int, list[EmulatedInteraction]] = {}
        """By message id: the presses on it answered with a deferred update, whose answer is
        that message's next edit, by whatever path (rest_interactions.py)."""
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status) of every request
        self.request_log = RequestLog(self.world)
        """Every request with its virtual time, channel and guild (`to_channel`, `to_guild`)."""
        self.gateway = Gateway(
            self.world,
            token=bot_token,
            resume_url=lambda: self.base_ws_url + RESUME_GATEWAY_PATH,
            on_activity=self._touch,
            clock=self.clock,
            shard_count=shard_count,
        )
        self.writer = MessageWriter(
            self.world, self.gateway, self.transcript, lambda: self.base_url
        )
        self.thread_archive = ThreadArchive(self.world, self.gateway)
        self.permission_settings = PermissionSettings(self.world, self.gateway)
        self.moderation = Moderation(self.world, self.gateway, self.writer)
        # THREAD_UPDATEs of threads that `advance` archived, on their way to the clients.
        self._announcements: set[asyncio.Task[None]] = set()
        self.users: dict[str, EmulatedUser] = {}
        self.other_guilds: list[EmulatedGuild] = []
        """The guilds `add_guild` added, in order (the first guild is `world.guild`)."""
        for name in member_names:
            self.add_user(name)
        self._pending_requests = 0
        self._last_activity = asyncio.get_running_loop().time()
        self._activity = asyncio.Event()
        # Shutdowns of clients started against this emulator, run before it stops so
        # that no client is left reconnecting to a closed port.
        self.client_shutdowns: list[Callable[[], Awaitable[None]]] = []
        # Waits for what clients started in this process are still doing with what they
        # were sent (`clients.start_client` adds one); each is given the time left and says
        # whether it waited for anything.
        self.client_work: list[Callable[[float], Awaitable[bool]]] = []
        self._runner: web.AppRunner | None = None
        self._host = "127.0.0.1"
        self._port = 0

    # lifecycle ---------------------------------------------------------------------

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH + "{tail:/?}", self.gateway.handle)
        app.router.add_get(RESUME_GATEWAY_PATH + "{tail:/?}", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        for routes in (
            IdentityRoutes(self),
            CommandRoutes(self),
            AppEmojiRoutes(self),
            MessageRoutes(self),
            ChannelRoutes(self),
            InteractionRoutes(self),
        ):
            routes.add_to(app, API_PREFIX)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._runner = web.AppRunner(self._app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        address = self._runner.addresses[0]
        self._host, self._port = address[0], int(address[1])

    async def stop(self) -> None:
        for shutdown in reversed(self.client_shutdowns):
            await shutdown()
        self.client_shutdowns.clear()
        for interaction in self.interactions.values():
            interaction.cancel_deadline()
        if self._announcements:
            await asyncio.wait(self._announcements)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # where clients connect ---------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self._port}"

    @property
    def base_ws_url(self) -> str:
        return f"ws://{self._host}:{self._port}"

    @property
    def api_base(self) -> str:
        """The value for `discord.http.Route.BASE` (the bot's `[discord] api_base`)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The value for `DiscordWebSocket.DEFAULT_GATEWAY` (the bot's `[discord] gateway_url`)."""
        return self.base_ws_url + GATEWAY_PATH + "/"

    def bot_config(self) -> dict[str, str]:
        """The `[discord]` settings that point the bot at this emulator."""
        return {"api_base": self.api_base, "gateway_url": self.gateway_url, "token": self.bot_token}

    # the people --------------------------------------------------------------------

    def add_user(self, name: str, *, member: bool = True) -> EmulatedUser:
        record = self.world.add_member(name) if member else self.world.add_user(name)
        user = EmulatedUser(self, record)
        self.users[name] = user
        return user

    def user(self, name: str) -> EmulatedUser:
        return self.users[name]

    # channels the bot is not in ----------------------------------------------------------

    def private_dm(self, first: EmulatedUser, second: EmulatedUser) -> ChannelRecord:
        """The DM between two humans (type 1, context PRIVATE_CHANNEL), without the bot;
        the same channel each time for the same pair. They need share no server: make
        such users with `add_user(name, member=False)`. Clients are told nothing."""
        return self.world.private_dm(first.id, second.id)

    def group_dm(self, *users: EmulatedUser, name: str | None = None) -> ChannelRecord:
        """A new group DM (type 3) of these humans, the first its owner, without the bot."""
        return self.world.add_group_dm([user.id for user in users], name=name)

    @property
    def shard_count(self) -> int:
        """The shard count `GET /gateway/bot` recommends and IDENTIFY must use if over 1."""
        return self.gateway.shard_count

    async def add_guild(
        self,
        name: str,
        *,
        shard_id: int = 0,
        members: tuple[str, ...] = ("ana", "ben", "cara"),
        channel_name: str = "general",
        bot: bool = True,
    ) -> EmulatedGuild:
        """Another guild with the bot in it, its id on `shard_id` of `shard_count` shards,
        a text channel, and `members` (existing users join it, new names are created).
        Connected sessions holding its shard get its GUILD_CREATE, as when a bot joins.
        With `bot=False` the bot is not in it (the app can only be a member's user install
        there) and nobody is told; `invite_bot_back(guild.id)` brings it in later."""
        if not 0 <= shard_id < self.shard_count:
            raise ValueError(f"shard {shard_id} is not one of {self.shard_count} shards")
        world = self.world
        guild_id = self.ids.next_on_shard(shard_id, self.shard_count)
        guild = world.add_guild(name, guild_id=guild_id, with_bot=bot)
        for member_name in members:
            user = self.users.get(member_name) or self.add_user(member_name, member=False)
            world.join(user.id, guild.id)
        channel = world.add_text_channel(channel_name, guild.id)
        told = self.gateway.live_sessions if bot else []  # a server without the bot: nobody
        for session in told:
            if session.wants(INTENT_GUILDS) and session.holds(guild.id):
                include_members = session.wants(INTENT_GUILD_MEMBERS)
                payload = guild_create_payload(
                    world, include_members=include_members, guild_id=guild.id
                )
                await self.gateway.dispatch_to(session, "GUILD_CREATE", payload)
        added = EmulatedGuild(guild, channel)
        self.other_guilds.append(added)
        return added

    async def add_text_channel(self, name: str) -> ChannelRecord:
        """Another text channel in the guild, announced to connected clients."""
        channel = self.world.add_text_channel(name)
        await self.gateway.dispatch(
            "CHANNEL_CREATE", channel_payload(self.world, channel), intent=INTENT_GUILDS
        )
        return channel

    @property
    def bot_user_id(self) -> int:
        return self.world.bot.id

    @property
    def guild_id(self) -> int:
        return self.world.guild.id

    # time --------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Skip virtual time: interaction tokens age, the 3-second rule does not, and threads
        idle for their `auto_archive_duration` archive (clients get THREAD_UPDATE soon after;
        `idle()` waits for it)."""
        self.clock.advance(seconds)
        for thread in self.thread_archive.archive_idle():
            announced = self.thread_archive.announce(self.thread_archive.thread_update(thread))
            task = asyncio.get_running_loop().create_task(announced)
            self._announcements.add(task)
            task.add_done_callback(self._announced)

    def _announced(self, task: asyncio.Task[None]) -> None:
        # Sent: `idle()` looks again now rather than at the next request (a heartbeat away).
        self._announcements.discard(task)
        self._touch()

    # permissions -------------------------------------------------------------------

    async def deny_bot(self, permission: int | str, channel: ChannelRecord | None = None) -> None:
        """Take a permission (bits, "Embed Links" or "embed_links") from the bot: in `channel`
        through an overwrite, or everywhere through its roles; clients are told."""
        await self.permission_settings.deny_bot(permission, channel)

    async def deny_member(
        self, user: EmulatedUser, permission: int | str, *, channel: ChannelRecord
    ) -> None:
        """Take a permission (bits or a name such as "USE_EXTERNAL_APPS") from one member in
        a guild channel and its threads, through a member overwrite."""
        await self.permission_settings.deny_member(user.id, permission, channel)

    async def set_overwrite(
        self, channel: ChannelRecord, target_id: int, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a role's (the guild id for @everyone) or a member's overwrite on a channel."""
        await self.permission_settings.set_overwrite(channel, target_id, allow=allow, deny=deny)

    # moderators ----------------------------------------------------------------------

    async def delete_message(self, message_id: int) -> None:
        """A moderator deletes a message; clients get MESSAGE_DELETE."""
        await self.moderation.delete_message(message_id)

    async def delete_channel(self, channel: ChannelRecord | int) -> None:
        """A moderator deletes a thread (THREAD_DELETE) or a channel and its threads
        (CHANNEL_DELETE); later requests to them get 404 code 10003."""
        record = self.world.channel(channel) if isinstance(channel, int) else channel
        await self.moderation.delete_channel(record)

    async def remove_bot(self, guild_id: int | None = None) -> None:
        """An admin kicks the bot from a guild (the primary one by default): GUILD_DELETE
        without `unavailable`; later requests to the guild get 403 code 50001."""
        await self.moderation.remove_bot(guild_id or self.guild_id)

    async def invite_bot_back(self, guild_id: int | None = None) -> None:
        """The bot is invited again after a removal: GUILD_CREATE."""
        await self.moderation.invite_bot_back(guild_id or self.guild_id)

    # failures ----------------------------------------------------------------------

    def record_failure(self, failure: Failure) -> None:
        _log.warning("Discord emulator: %s", failure)
        self.failures.append(failure)
        self._touch()

    def take_failures(self) -> list[Failure]:
        """Return and forget the failures so far: for tests that provoke them on purpose."""
        taken, self.failures = self.failures, []
        return taken

    def assert_no_failures(self) -> None:
        if self.failures:
            listed = "\n".join(f"  - {f}" for f in self.failures)
            raise AssertionError(f"the bot did things Discord would refuse:\n{listed}")

    # interactions ------------------------------------------------------------------

    async def start_interaction(
        self,
        *,
        kind: InteractionType,
        user_id: int,
        channel_id: int,
        data: dict[str, Any],
        description: str,
        source_message_id: int | None = None,
        message_payload: dict[str, Any] | None = None,
        owners: dict[str, str] | None = None,
        triggered_by: EmulatedInteraction | None = None,
    ) -> EmulatedInteraction:
        """Send an interaction; ``message_payload`` replaces the source message as the
        interaction carries it (a tampered client's click, see ``EmulatedUser.forged_click``).
        ``owners`` are its `authorizing_integration_owners` (by default those of the message
        or modal it is on, else the bot's install where it is); ``triggered_by`` is the
        interaction whose modal a submit answers. Interactions without a guild (contexts 1
        and 2) go to shard 0."""
        interaction = EmulatedInteraction(
            world=self.world,
            clock=self.clock,
            kind=kind,
            user_id=user_id,
            channel_id=channel_id,
            source_message_id=source_message_id,
            data=data,
            description=description,
            deadline=self.response_deadline,
            on_failure=self.record_failure,
            owners=owners,
            triggered_by=triggered_by,
        )
        self.interactions[interaction.id] = interaction
        self.interactions_by_token[interaction.token] = interaction
        message = message_payload
        if message is None and source_message_id is not None:
            message = self.writer.payload(self.world.message(source_message_id))
        await self.gateway.dispatch(
            "INTERACTION_CREATE", interaction_payload(self.world, interaction, message=message)
        )
        return interaction

    def slowest_first_response(self) -> EmulatedInteraction | None:
        """The answered interaction with the longest real-time wait for its first response."""
        answered = [i for i in self.interactions.values() if i.response_latency is not None]
        return max(answered, key=lambda i: i.response_latency or 0.0, default=None)

    # waiting for the bot -----------------------------------------------------------

    def _touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()
        self._activity.set()

    def _busy_with(self) -> list[str]:
        busy = (
            [f"{self._pending_requests} request(s) in progress"] if self._pending_requests else []
        )
        busy += [f"unanswered: {i.description}" for i in self.interactions.values() if i.in_flight]
        if self._announcements:
            busy.append(f"{len(self._announcements)} THREAD_UPDATE(s) to send")
        return busy

    async def idle(self, *, quiet: float = 0.03, max_wait: float = 5.0) -> None:
        """Wait until every interaction is answered, no request is in progress, the bot has
        been silent for `quiet` seconds, and a client running in this process has finished
        handling every interaction (so a followup after a defer counts too)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + max_wait
        while True:
            await self._silent(quiet, give_up, max_wait)
            waited = [await work(max(0.0, give_up - loop.time())) for work in self.client_work]
            if not any(waited):
                return

    async def _silent(self, quiet: float, give_up: float, max_wait: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._activity.clear()
            silent_for = loop.time() - self._last_activity
            if not self._busy_with() and silent_for >= quiet:
                return
            wait = quiet - silent_for if not self._busy_with() else give_up - loop.time()
            if loop.time() >= give_up:
                raise TimeoutError(
                    f"bot not idle after {max_wait} s: {'; '.join(self._busy_with())}"
                )
            try:
                async with asyncio.timeout(max(0.0, min(wait, give_up - loop.time()))):
                    await self._activity.wait()
            except TimeoutError:
                pass

    # HTTP plumbing -----------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        self._pending_requests += 1
        self._touch()
        try:
            response = await self._answer(request, handler)
            self.requests.append((request.method, request.path, response.status))
            interaction = self._interaction_of(request)
            self.request_log.record(
                request,
                response.status,
                route=self._template(request),
                interaction_id=None if interaction is None else interaction.id,
                user_install=self._about_a_user_install(request, interaction),
            )
            self.rate_limits.observe(request, self._template(request), response)
            return response
        finally:
            self._pending_requests -= 1
            self._touch()

    def _interaction_of(self, request: web.Request) -> EmulatedInteraction | None:
        """The interaction a callback or an interaction-webhook request is made through."""
        raw_id = request.match_info.get("interaction_id")
        if raw_id is not None and raw_id.isdigit():
            return self.interactions.get(int(raw_id))
        token = request.match_info.get("token")
        if token is not None and request.match_info.get("application_id") is not None:
            return self.interactions_by_token.get(token)
        return None

    def _about_a_user_install(
        self, request: web.Request, interaction: EmulatedInteraction | None
    ) -> bool:
        """Whether a request is about a place the app is only a user install: a channel or
        guild the bot is not in, or an interaction whose owners hold USER_INSTALL alone."""
        if interaction is not None:
            return only_user_install(interaction.owners)
        channel = channel_of_path(self.world, request.path[len(API_PREFIX) :])
        if channel is not None:
            return not self.world.bot_is_in(channel)
        raw_guild = request.match_info.get("guild_id")
        if raw_guild is not None and raw_guild.isdigit() and int(raw_guild) in self.world.guilds:
            return not self.world.bot_is_in(int(raw_guild))
        return False

    @staticmethod
    def _template(request: web.Request) -> str:
        """The route as registered (`/channels/{channel_id}/messages`), or the bare path."""
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        return canonical[len(API_PREFIX) :]

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :]
        template = self._template(request)
        # Cloudflare stands in front of everything, even the injected faults.
        banned = self.rate_limits.cloudflare_ban(request.method, path)
        if banned is not None:
            return banned
        await self.faults.wait_if_held(request.method, template, path)
        fault = self.faults.take(request.method, template, path)
        if fault is not None:
            return fault_response(fault)
        authorised = request.headers.get("Authorization") == f"Bot {self.bot_token}"
        if not authorised and not request.path.startswith(_TOKENLESS_PREFIXES):
            return self._refuse(request, DiscordError(401, 0, "401: Unauthorized"))
        # A route the emulator lacks is refused below; it has no bucket to count against.
        if request.match_info.route.resource is not None:
            limited = self.rate_limits.admit(request, template=template, path=path)
            if limited is not None:
                return limited
        try:
            # Where the bot is not, every channel endpoint is 403 Missing Access, even the
            # routes the emulator lacks (pins, reactions): access is checked first.
            refuse_where_the_bot_is_not(self.world, path)
            response = await handler(request)
            await self.faults.wait_if_held(request.method, template, path, answered=True)
            return response
        except DiscordError as error:
            return self._refuse(request, error)
        except web.HTTPNotFound:
            return self._refuse(request, DiscordError(404, 0, "404: Not Found"), unemulated=True)
        except web.HTTPMethodNotAllowed:
            return self._refuse(
                request, DiscordError(405, 0, "405: Method Not Allowed"), unemulated=True
            )

    def _refuse(
        self, request: web.Request, error: DiscordError, *, unemulated: bool = False
    ) -> web.Response:
        what = f"{request.method} {request.path[len(API_PREFIX) :]}"
        if unemulated:
            what += " (a route the emulator does not implement; add it if Discord has it)"
        detail = error.message
        if error.errors:
            detail += f": {error.errors}"
        self.record_failure(Failure(what, status=error.status, code=error.code, detail=detail))
        return error_response(error)

    async def _attachment(self, request: web.Request) -> web.Response:
        message_attachments = (a for m in self.world.messages.values() for a in m.attachments)
        wanted = int(request.match_info["attachment_id"])
        for attachment in message_attachments:
            if attachment.id == wanted:
                return web.Response(
                    body=attachment.data,
                    content_type=attachment.content_type or "application/octet-stream",
                )
        return json_response({"message": "Not Found", "code": 0}, status=404)
