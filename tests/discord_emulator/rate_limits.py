"""Discord's rate limits, enforced: the global limit, per-route buckets, the invalid-request ban.

Rules from https://discord.com/developers/docs/topics/rate-limits: 50 requests a second per
bot, interaction endpoints exempt; per-route buckets per top-level resource (channel_id,
guild_id, webhook_id + token) announced in `X-RateLimit-*` headers; the 429 body and
headers; 10,000 invalid requests (401, 403, 429 except scope "shared") in 10 minutes and
Cloudflare bans the IP. Discord documents no bucket sizes ("should not be hard coded"), so
each size below says where it was observed, or that it was chosen.

Everything here runs on real loop time, not the virtual clock: discord.py sleeps real
seconds on these headers, and skipping virtual time must not refill a bucket.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
import json
import math
import time
from collections.abc import Callable, Mapping
from typing import Final, Literal

from aiohttp import web

from tests.discord_emulator.errors import Failure
from tests.discord_emulator.faults import route_matches

Scope = Literal["user", "global", "shared"]

GLOBAL_PER_SECOND: Final = 50
INVALID_REQUEST_THRESHOLD: Final = 10_000
INVALID_REQUEST_WINDOW: Final = 600.0  # seconds
# Discord says only "temporarily restricted"; bots report bans of about an hour.
CLOUDFLARE_BAN_SECONDS: Final = 3600.0
RATE_LIMITED_MESSAGE: Final = "You are being rate limited."
# discord.py treats a 429 without Via as a Cloudflare ban and gives up instead of waiting.
_VIA: Final = "1.1 google"
_INVALID_STATUSES: Final = frozenset({401, 403, 429})
# Windows past their reset are dropped once this many are kept (one per interaction token).
_PRUNE_AT: Final = 4096


@dataclasses.dataclass(frozen=True)
class BucketSize:
    """`limit` requests per `per` seconds, counted per top-level resource."""

    limit: int
    per: float

    def __post_init__(self) -> None:
        if self.limit < 1 or self.per <= 0:
            raise ValueError(f"a bucket needs limit >= 1 and per > 0: {self!r}")


# Named buckets. Routes with one name share a counter and an X-RateLimit-Bucket hash, which
# is what the docs say the header means. (Discord itself reports one hash for creating and
# editing messages yet counts them apart, discord/discord-api-docs#1442 and #8073; the
# emulator follows the documentation.)
MESSAGE_CREATE: Final = "message create"
MESSAGE_EDIT: Final = "message edit"
MESSAGE_DELETE: Final = "message delete"
CHANNEL_EDIT: Final = "channel edit"
THREAD_CREATE: Final = "thread create"
THREAD_MEMBER_ADD: Final = "thread member add"
DM_OPEN: Final = "dm open"
GLOBAL_COMMANDS_SYNC: Final = "global commands sync"
GUILD_COMMANDS_SYNC: Final = "guild commands sync"
INTERACTION_WEBHOOK: Final = "interaction webhook"

BUCKET_SIZES: Final[Mapping[str, BucketSize]] = {
    # 5 per 5 s per channel, observed by library authors: discord-api-docs#2761 and #1442,
    # DSharpPlus#658 ("5/5 shared with post messages and edited messages").
    MESSAGE_CREATE: BucketSize(5, 5.0),
    MESSAGE_EDIT: BucketSize(5, 5.0),
    # 3 per 1 s per channel, observed in discord-api-docs#1295 and DSharpPlus#658 (its
    # 30 per 120 s sub-limit for old messages is not emulated).
    MESSAGE_DELETE: BucketSize(3, 1.0),
    # 10 per 15 s per channel, observed in discord-api-docs#2761; renames have their own
    # 2 per 10 minutes rule in rest_channels.py.
    CHANNEL_EDIT: BucketSize(10, 15.0),
    # Not documented or reliably observed: chosen as the 5 per 5 s of the message buckets.
    THREAD_CREATE: BucketSize(5, 5.0),
    THREAD_MEMBER_ADD: BucketSize(5, 5.0),
    DM_OPEN: BucketSize(5, 5.0),
    # Not documented: chosen so a bot can sync a few times a minute, not in a loop. (The
    # documented 200 command creates per day per guild is not emulated.)
    GLOBAL_COMMANDS_SYNC: BucketSize(5, 60.0),
    GUILD_COMMANDS_SYNC: BucketSize(5, 60.0),
    # "Interactions webhooks share the same rate limit properties as normal webhooks"
    # (docs); webhooks are observed at 5 per 2 s per webhook (birdie0's webhooks guide).
    INTERACTION_WEBHOOK: BucketSize(5, 2.0),
}

# (method, aiohttp route template without the API prefix) -> bucket name.
ROUTE_BUCKETS: Final[Mapping[tuple[str, str], str]] = {
    ("POST", "/channels/{channel_id}/messages"): MESSAGE_CREATE,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): MESSAGE_EDIT,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): MESSAGE_DELETE,
    ("PATCH", "/channels/{channel_id}"): CHANNEL_EDIT,
    ("POST", "/channels/{channel_id}/threads"): THREAD_CREATE,
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): THREAD_CREATE,
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}"): THREAD_MEMBER_ADD,
    ("POST", "/users/@me/channels"): DM_OPEN,
    ("PUT", "/applications/{application_id}/commands"): GLOBAL_COMMANDS_SYNC,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): GUILD_COMMANDS_SYNC,
    ("POST", "/webhooks/{application_id}/{token}"): INTERACTION_WEBHOOK,
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"): INTERACTION_WEBHOOK,
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}"): INTERACTION_WEBHOOK,
}

# "Interaction endpoints are not bound to the bot's Global Rate Limit" (docs).
_EXEMPT_FROM_GLOBAL: Final = ("/interactions/", "/webhooks/")


@dataclasses.dataclass
class RateLimitSettings:
    """What the emulator enforces; tests may change any field before or between requests."""

    enabled: bool = True
    global_per_second: int = GLOBAL_PER_SECOND
    # Routes without a named bucket: generous, so only the routes above ever make a bot wait.
    default_bucket: BucketSize = BucketSize(50, 1.0)
    buckets: dict[str, BucketSize] = dataclasses.field(default_factory=lambda: dict(BUCKET_SIZES))
    routes: dict[tuple[str, str], str] = dataclasses.field(
        default_factory=lambda: dict(ROUTE_BUCKETS)
    )
    invalid_request_threshold: int = INVALID_REQUEST_THRESHOLD
    invalid_request_window: float = INVALID_REQUEST_WINDOW
    ban_seconds: float = CLOUDFLARE_BAN_SECONDS
    # A global 429 means the bot outran Discord; a harness may make it fail the test.
    global_429_is_failure: bool = False


@dataclasses.dataclass
class RateLimitStats:
    """Counters a test or benchmark reads; they count even with the limits disabled."""

    requests_by_route: collections.Counter[tuple[str, str]] = dataclasses.field(
        default_factory=collections.Counter
    )  # (method, route template) of every API request
    global_counted: int = 0  # requests that counted against the global limit
    exempt: int = 0  # interaction callbacks and interaction webhooks
    sent_429s: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter
    )  # by X-RateLimit-Scope: "global", "user", "shared"; "cloudflare" for a ban
    invalid_requests: int = 0  # 401, 403 and 429 (not "shared") since the start

    def summary(self) -> str:
        """A few lines for a benchmark's report."""
        busiest = ", ".join(
            f"{method} {route}: {count}"
            for (method, route), count in self.requests_by_route.most_common(8)
        )
        scopes = ", ".join(f"{scope} {n}" for scope, n in sorted(self.sent_429s.items()))
        return (
            f"requests: {sum(self.requests_by_route.values())} "
            f"({self.global_counted} under the global limit, {self.exempt} exempt)\n"
            f"429s sent: {scopes or 'none'}; invalid requests: {self.invalid_requests}\n"
            f"busiest routes: {busiest}"
        )


@dataclasses.dataclass
class _Window:
    """A fixed window that opens with its first request, as Discord's buckets do."""

    opened: float
    per: float
    count: int = 0

    def resets_at(self) -> float:
        return self.opened + self.per


@dataclasses.dataclass
class Storm:
    """Every matching request gets a 429 until `until` (loop time) or until it is ended."""

    route: str
    method: str | None
    until: float
    retry_after: float | None
    scope: Scope
    answered: int = 0
    _answering: asyncio.Event = dataclasses.field(default_factory=asyncio.Event, repr=False)

    def matches(self, method: str, template: str, path: str) -> bool:
        return route_matches(self.route, self.method, method, template, path)

    def count_answer(self) -> None:
        self.answered += 1
        self._answering.set()

    async def refused(self, times: int) -> None:
        """Until this storm has answered `times` requests with a 429: a test waits for what
        the storm did, not for seconds to pass."""
        while self.answered < times:
            self._answering.clear()
            await self._answering.wait()

    def end(self) -> None:
        """Let requests through from now on."""
        self.until = -math.inf


@dataclasses.dataclass(frozen=True)
class _Admitted:
    """A request's place in its bucket, for the headers on its response."""

    bucket_hash: str
    limit: int
    remaining: int
    window: _Window


# Where a request keeps its place in its bucket until its response is sent.
_ADMITTED: Final = web.RequestKey("discord_emulator.rate_limit", _Admitted)


def bucket_hash(name: str) -> str:
    """The opaque X-RateLimit-Bucket value for a bucket name (32 hex digits, like Discord's)."""
    return hashlib.sha256(name.encode()).hexdigest()[:32]


def _major_parameters(template: str, match_info: Mapping[str, str]) -> str:
    """Discord's top-level resources in a request path: channel, guild, or webhook + token."""
    if template.startswith(_EXEMPT_FROM_GLOBAL):
        hook = match_info.get("interaction_id") or match_info.get("application_id", "")
        return f"{hook}+{match_info.get('token', '')}"
    return "+".join(match_info[name] for name in ("channel_id", "guild_id") if name in match_info)


def _seconds(value: float) -> float:
    """Round up to the millisecond, so a client never retries a moment too early."""
    return max(0.0, math.ceil(value * 1000) / 1000)


def _rate_limited(
    retry_after: float, *, scope: Scope, headers: dict[str, str] | None = None
) -> web.Response:
    body = {
        "message": RATE_LIMITED_MESSAGE,
        "retry_after": retry_after,
        "global": scope == "global",
    }
    all_headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": _VIA,
        **(headers or {}),
    }
    if scope == "global":
        all_headers["X-RateLimit-Global"] = "true"
    return web.Response(status=429, body=json.dumps(body).encode(), headers=all_headers)


class RateLimits:
    """The emulator's rate limiter: `emulator.rate_limits`, with `settings` and `stats`."""

    def __init__(self, *, on_failure: Callable[[Failure], None]) -> None:
        self.settings = RateLimitSettings()
        self.stats = RateLimitStats()
        self._on_failure = on_failure
        self._loop = asyncio.get_running_loop()
        self._global: _Window | None = None
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._storms: list[Storm] = []
        self._invalid_at: collections.deque[float] = collections.deque()
        self._banned_until: float | None = None

    # for tests -----------------------------------------------------------------------

    def storm(
        self,
        route: str,
        *,
        method: str | None = None,
        seconds: float,
        retry_after: float | None = None,
        scope: Scope = "user",
    ) -> Storm:
        """Answer every matching request with a 429 for `seconds` of real time (`math.inf`:
        until the test calls the storm's `end()`).

        `route` is a route template (`/channels/{channel_id}/messages`) or a concrete path.
        `retry_after` defaults to the time left in the storm, so discord.py sleeps it out
        and its retry gets through; a short one makes it give up after 5 tries.
        """
        if scope == "global":
            raise ValueError("a storm is a per-route 429; the global limit is enforced as is")
        now = self._now()
        storm = Storm(route, method, now + seconds, retry_after, scope)
        self._storms = [*(s for s in self._storms if now < s.until), storm]
        return storm

    def invalid_in_window(self) -> int:
        """Invalid requests (401, 403, 429 except scope "shared") in the last window."""
        horizon = self._now() - self.settings.invalid_request_window
        while self._invalid_at and self._invalid_at[0] <= horizon:
            self._invalid_at.popleft()
        return len(self._invalid_at)

    @property
    def banned(self) -> bool:
        return self._banned_until is not None and self._now() < self._banned_until

    def exhausted_buckets(self) -> list[str]:
        """Buckets with nothing left in an open window.

        discord.py sleeps out such a window inside the request that emptied it, so while
        one is listed its client may still be busy though no request is in flight.
        """
        now = self._now()
        return [
            f"{name} [{major}] resets in {window.resets_at() - now:.2f} s"
            for (name, major), window in self._buckets.items()
            if now < window.resets_at()
            and window.count >= self.settings.buckets.get(name, self.settings.default_bucket).limit
        ]

    def lift_ban(self) -> None:
        """Forget the ban and the invalid requests that caused it."""
        self._banned_until = None
        self._invalid_at.clear()

    # hooks for the server's middleware ---------------------------------------------------

    def cloudflare_ban(self, method: str, path: str) -> web.Response | None:
        """While banned, Cloudflare answers before Discord sees the request (no Via header)."""
        if not self.settings.enabled or not self.banned or self._banned_until is None:
            return None
        self._on_failure(
            Failure(
                f"{method} {path}",
                status=429,
                detail=(
                    f"Cloudflare ban: over {self.settings.invalid_request_threshold} invalid "
                    f"requests (401, 403, 429) in {self.settings.invalid_request_window:g} s"
                ),
            )
        )
        return web.Response(
            status=429,
            text="error code: 1015",
            content_type="text/html",
            headers={"Retry-After": str(math.ceil(self._banned_until - self._now()))},
        )

    def admit(self, request: web.Request, *, template: str, path: str) -> web.Response | None:
        """Count an authorised request; a 429 if it is over a limit, else None to go on."""
        if not self.settings.enabled:
            return None
        method = request.method
        now = self._now()
        if template.startswith(_EXEMPT_FROM_GLOBAL):
            self.stats.exempt += 1
        else:
            self.stats.global_counted += 1
            refused = self._take_global(now)
            if refused is not None:
                return refused
        name = self.settings.routes.get((method, template), f"{method} {template}")
        size = self.settings.buckets.get(name, self.settings.default_bucket)
        hashed = bucket_hash(name)
        for storm in self._storms:
            if now < storm.until and storm.matches(method, template, path):
                storm.count_answer()
                wait = _seconds(
                    storm.until - now if storm.retry_after is None else storm.retry_after
                )
                return _rate_limited(
                    wait,
                    scope=storm.scope,
                    headers=self._bucket_headers(hashed, size.limit, 0, wait),
                )
        window = self._bucket_window(
            name, _major_parameters(template, request.match_info), size, now
        )
        if window.count >= size.limit:
            wait = _seconds(window.resets_at() - now)
            return _rate_limited(
                wait, scope="user", headers=self._bucket_headers(hashed, size.limit, 0, wait)
            )
        window.count += 1
        request[_ADMITTED] = _Admitted(hashed, size.limit, size.limit - window.count, window)
        return None

    def observe(self, request: web.Request, template: str, response: web.StreamResponse) -> None:
        """Count the answer, and put the bucket's headers on it as Discord does on every one."""
        self.stats.requests_by_route[(request.method, template)] += 1
        admitted = request.get(_ADMITTED)
        if admitted is not None and "X-RateLimit-Bucket" not in response.headers:
            reset_after = _seconds(admitted.window.resets_at() - self._now())
            response.headers.update(
                self._bucket_headers(
                    admitted.bucket_hash, admitted.limit, admitted.remaining, reset_after
                )
            )
        if response.status not in _INVALID_STATUSES:
            return
        scope = response.headers.get("X-RateLimit-Scope")
        if response.status == 429:
            via_discord = "Via" in response.headers
            self.stats.sent_429s[scope or ("user" if via_discord else "cloudflare")] += 1
            if not via_discord:
                return  # Cloudflare's own answer, not one Discord counts
            if scope == "global" and self.settings.global_429_is_failure:
                self._on_failure(
                    Failure(
                        f"{request.method} {request.path}",
                        status=429,
                        detail=f"over the global limit of {self.settings.global_per_second}/s",
                    )
                )
        if scope == "shared":
            return  # "429 errors returned with X-RateLimit-Scope: shared are not counted"
        self.stats.invalid_requests += 1
        self._invalid_at.append(self._now())
        if self.invalid_in_window() > self.settings.invalid_request_threshold:
            self._banned_until = self._now() + self.settings.ban_seconds

    # inside ----------------------------------------------------------------------------

    def _now(self) -> float:
        return self._loop.time()

    def _take_global(self, now: float) -> web.Response | None:
        if self._global is None or now >= self._global.resets_at():
            self._global = _Window(now, 1.0)
        if self._global.count < self.settings.global_per_second:
            self._global.count += 1
            return None
        return _rate_limited(_seconds(self._global.resets_at() - now), scope="global")

    def _bucket_window(self, name: str, major: str, size: BucketSize, now: float) -> _Window:
        key = (name, major)
        window = self._buckets.get(key)
        if window is None or now >= window.resets_at():
            if len(self._buckets) >= _PRUNE_AT:
                self._buckets = {k: w for k, w in self._buckets.items() if now < w.resets_at()}
            window = self._buckets[key] = _Window(now, size.per)
        return window

    @staticmethod
    def _bucket_headers(
        hashed: str, limit: int, remaining: int, reset_after: float
    ) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashed,
        }
