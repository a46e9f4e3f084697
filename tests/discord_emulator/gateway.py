"""The Gateway: HELLO, IDENTIFY/READY, heartbeats, dispatches, RESUME and sharding.

Frames go out as uncompressed text even though discord.py asks for zlib-stream; it
accepts both.

The session start limit as topics/gateway documents it: `max_concurrency` IDENTIFYs per
5 seconds, one per bucket `shard_id % max_concurrency` ("Sharding for Large Bots"); "if
you hit this limit, the Gateway will respond with an Opcode 9 Invalid Session" ("Rate
Limiting"), and every IDENTIFY counts as a session start ("Session Start Limit Object").
Measured on the virtual clock, so a test may let 5 s pass with `emulator.advance`.

Sharding as "Sharding" (topics/gateway) documents it: a session that identifies with
`shard: [shard_id, num_shards]` gets the guilds with `(guild_id >> 22) % num_shards ==
shard_id` and their events; events of no guild (DMs, DM interactions) go to shard 0 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord_emulator.clock import VirtualClock
from tests.discord_emulator.payloads import bot_self_payload, guild_create_payload, member_payload
from tests.discord_emulator.world import World, shard_of

HEARTBEAT_INTERVAL_MS = 41_250
IDENTIFY_INTERVAL = 5.0
"""Seconds between two IDENTIFYs of one bucket (the "per 5 seconds" of max_concurrency)."""

# Intent bits that decide which dispatches a session receives.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Close codes after which discord.py gives up rather than reconnecting.
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011
# A client closing with these ends its session for good (discord.py closes with 1000).
CLIENT_ENDS_SESSION = frozenset({1000, 1001})


@dataclasses.dataclass
class GatewaySession:
    session_id: str
    intents: int
    sequence: int = 0
    socket: web.WebSocketResponse | None = None
    # Every dispatch, kept so a RESUME can replay what the client missed.
    sent: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    ended: bool = False
    shard: tuple[int, int] = (0, 1)
    """`[shard_id, num_shards]` from IDENTIFY; (0, 1) when the client sent none."""

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)

    def holds(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of this guild (None: no guild,
        which only shard 0 receives)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, shard_count) == shard_id

    def dispatched(self, event: str) -> list[dict[str, Any]]:
        """The data of every `event` dispatch this session was sent, in order."""
        return [frame["d"] for frame in self.sent if frame["t"] == event]


class Gateway:
    def __init__(
        self,
        world: World,
        *,
        token: str,
        resume_url: Callable[[], str],
        on_activity: Callable[[], None],
        clock: VirtualClock,
        shard_count: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        self._world = world
        self._clock = clock
        self.shard_count = shard_count
        """What `GET /gateway/bot` recommends; IDENTIFY must use it when it is over 1."""
        self.max_concurrency = max_concurrency
        """`session_start_limit.max_concurrency`: 1 unless the bot is a large one."""
        self._identified_at: dict[int, float] = {}  # bucket -> virtual time of its last IDENTIFY
        self.session_starts = 0
        """Every IDENTIFY, accepted or not, as Discord counts them against `total`."""
        self.refused_identifies = 0
        """IDENTIFYs answered with op 9 for coming too soon after another in their bucket."""
        self._token = token
        self._resume_url = resume_url
        self._on_activity = on_activity
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        self._dropping: set[int] = set()  # ids of sockets the emulator itself is closing
        self.paths: list[str] = []  # the path of every connection, to check resume_gateway_url
        self._resumed = asyncio.Event()
        self._identified = asyncio.Event()
        self._disconnected = asyncio.Event()
        self._transports: dict[int, asyncio.BaseTransport] = {}  # socket id -> its TCP transport
        self._connections_open = asyncio.Event()
        self._connections_open.set()

    @property
    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if not s.ended]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        self.paths.append(request.path)
        if request.transport is not None:
            self._transports[id(socket)] = request.transport
        # Held by `holding_connections`: the client waits for HELLO as on a slow network.
        await self._connections_open.wait()
        await self._send(socket, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        session: GatewaySession | None = None
        async for frame in socket:
            if frame.type is not WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            op = message.get("op")
            data = message.get("d")
            if op == 1:
                # discord.py's heartbeat thread notes the send time just after handing the
                # frame to the loop; an ACK faster than that reads as "41 s behind".
                await asyncio.sleep(0.005)
                await self._send(socket, {"op": 11})
            elif op == 2:
                session = await self._identify(socket, data)
            elif op == 6:
                session = await self._resume(socket, data)
            elif op == 8 and session is not None:
                await self._send_member_chunk(socket, session, data)
        if session is not None and session.socket is socket:
            session.socket = None
            self._disconnected.set()
            dropped_by_us = id(socket) in self._dropping
            if not dropped_by_us and socket.close_code in CLIENT_ENDS_SESSION:
                session.ended = True
        self._dropping.discard(id(socket))
        self._transports.pop(id(socket), None)
        self._on_activity()
        return socket

    async def _identify(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        if data.get("token") != self._token:
            await socket.close(code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard = await self._check_shard(socket, data.get("shard"))
        if shard is None:
            return None
        self.session_starts += 1
        bucket = shard[0] % self.max_concurrency
        now = self._clock.now()
        last = self._identified_at.get(bucket)
        self._identified_at[bucket] = now
        if last is not None and now - last < IDENTIFY_INTERVAL:
            self.refused_identifies += 1
            await self._send(socket, {"op": 9, "d": False})
            return None
        self.identify_count += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=shard
        )
        self.sessions[session.session_id] = session
        session.socket = socket
        world = self._world
        guild_ids = [g for g in world.guilds if session.holds(g) and world.bot_is_in(g)]
        ready = {
            "v": 10,
            "user": bot_self_payload(world.bot),
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self._resume_url(),
            "application": {"id": str(world.bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in data:
            ready["shard"] = list(shard)
        self._identified.set()
        await self.dispatch_to(session, "READY", ready)
        include_members = bool(session.intents & INTENT_GUILD_MEMBERS)
        for guild_id in guild_ids:
            payload = guild_create_payload(
                world, include_members=include_members, guild_id=guild_id
            )
            await self.dispatch_to(session, "GUILD_CREATE", payload)
        return session

    async def _check_shard(
        self, socket: web.WebSocketResponse, raw: object
    ) -> tuple[int, int] | None:
        """The session's shard, or None after closing the socket as Discord does: 4011 when
        sharding is required and none was asked for, 4010 for an invalid shard."""
        if raw is None:
            if self.shard_count > 1:
                await socket.close(code=CLOSE_SHARDING_REQUIRED, message=b"Sharding required.")
                return None
            return (0, 1)
        valid = (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in raw)
        )
        if valid:
            shard_id, shard_count = raw
            if shard_count == self.shard_count and 0 <= shard_id < shard_count:
                return (shard_id, shard_count)
        await socket.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
        return None

    async def _resume(
        self, socket: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.ended or data.get("token") != self._token:
            # The client starts over with IDENTIFY, as after a real invalid session.
            await self._send(socket, {"op": 9, "d": False})
            return None
        self.resume_count += 1
        if session.socket is not None and session.socket is not socket:
            await self.drop(session.socket)
        session.socket = socket
        last_seen = int(data.get("seq") or 0)
        for frame in session.sent:
            if frame["s"] > last_seen:
                await self._send(socket, frame)
        await self.dispatch_to(session, "RESUMED", {})
        self._resumed.set()
        return session

    async def _send_member_chunk(
        self, socket: web.WebSocketResponse, session: GatewaySession, data: dict[str, Any]
    ) -> None:
        world = self._world
        guild_id = int(data.get("guild_id") or world.guild.id)
        if guild_id not in world.guilds or not session.holds(guild_id):
            return
        wanted = {int(uid) for uid in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        users = [world.users[uid] for uid in world.guilds[guild_id].member_ids]
        if wanted:
            users = [u for u in users if u.id in wanted]
        elif query:
            users = [u for u in users if u.username.lower().startswith(query)]
        chunk: dict[str, Any] = {
            "guild_id": str(guild_id),
            "members": [member_payload(world, u, guild_id=guild_id) for u in users],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self.dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None = None
    ) -> None:
        """Send an event to every session that asked for it and holds its guild (its
        `guild_id`; none: shard 0); offline sessions keep it for RESUME. The bot hears nothing
        of a guild it is not in, save the interactions a user install brings it."""
        raw_guild = data.get("guild_id")
        guild_id = None if raw_guild is None else int(raw_guild)
        # An interaction can come from a guild without the bot, through a user install.
        unheard = guild_id is not None and not self._world.bot_is_in(guild_id)
        if unheard and event != "INTERACTION_CREATE":
            return
        for session in self.live_sessions:
            if session.wants(intent) and session.holds(guild_id):
                await self.dispatch_to(session, event, data)

    async def dispatch_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.sequence += 1
        frame = {"op": 0, "t": event, "s": session.sequence, "d": data}
        session.sent.append(frame)
        if session.socket is not None and not session.socket.closed:
            await self._send(session.socket, frame)

    async def _send(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        self._on_activity()
        # If the client is gone, a RESUME replays the frame from `sent`.
        with contextlib.suppress(ConnectionError):
            await socket.send_str(json.dumps(frame))

    async def drop(self, socket: web.WebSocketResponse, code: int = 4000) -> None:
        self._dropping.add(id(socket))
        await socket.close(code=code, message=b"Emulated connection drop")

    async def drop_connections(self) -> None:
        """Close every client connection the way a network blip does: resumable."""
        for session in self.live_sessions:
            if session.socket is not None:
                await self.drop(session.socket)

    async def drop_abruptly(self, session: GatewaySession) -> None:
        """Cut the session's connection without a close frame, as a network failure does:
        the client sees 1006 (abnormal closure) and may RESUME."""
        socket = session.socket
        transport = None if socket is None else self._transports.get(id(socket))
        if socket is None or transport is None:
            raise ValueError(f"session {session.session_id} has no connection to cut")
        self._dropping.add(id(socket))
        transport.abort()

    async def request_reconnect(self, session: GatewaySession) -> None:
        """Op 7 Reconnect: "the client should reconnect and resume immediately" (topics/
        gateway, "Reconnect"); the session stays resumable."""
        if session.socket is None:
            raise ValueError(f"session {session.session_id} is not connected")
        await self._send(session.socket, {"op": 7, "d": None})

    async def invalidate(self, session: GatewaySession, *, resumable: bool) -> None:
        """Op 9 Invalid Session with `d` = `resumable` (topics/gateway, "Invalid Session").
        Not resumable: the session is over, and what is dispatched until the client has
        IDENTIFYed again reaches no one (an interaction then fails for its user)."""
        if session.socket is None:
            raise ValueError(f"session {session.session_id} is not connected")
        if not resumable:
            session.ended = True
        await self._send(session.socket, {"op": 9, "d": resumable})

    @contextlib.asynccontextmanager
    async def holding_connections(self) -> AsyncIterator[None]:
        """While inside, new connections get no HELLO: a client that lost its connection
        cannot come back, so what is dispatched meanwhile is missed (a RESUME replays it)."""
        self._connections_open.clear()
        try:
            yield
        finally:
            self._connections_open.set()

    async def wait_for_disconnect(self, session: GatewaySession, *, max_wait: float = 5.0) -> None:
        """Wait until the session has no connection (the client's or the emulator's doing)."""
        async with asyncio.timeout(max_wait):
            while session.socket is not None:
                self._disconnected.clear()
                await self._disconnected.wait()

    async def wait_for_identify(self, count: int, *, max_wait: float = 15.0) -> None:
        """Wait until `count` IDENTIFYs have been accepted in total."""
        async with asyncio.timeout(max_wait):
            while self.identify_count < count:
                self._identified.clear()
                await self._identified.wait()

    async def wait_for_resume(self, count: int, *, max_wait: float = 5.0) -> None:
        """Wait until `count` RESUMEs have succeeded in total."""
        async with asyncio.timeout(max_wait):
            while self.resume_count < count:
                self._resumed.clear()
                await self._resumed.wait()
