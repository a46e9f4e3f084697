"""Faults tests switch on: 429s and transient 5xx on chosen routes."""

from __future__ import annotations

import asyncio
import dataclasses
import json

from aiohttp import web


@dataclasses.dataclass
class FaultRule:
    """Answer the next `times` requests matching `route` with `status`.

    `route` is either a discord.py route template (`/channels/{channel_id}/messages`, the
    `path` of `discord.http.Route`) or a concrete path (`/channels/123/messages`).
    """

    route: str
    method: str | None
    status: int
    times: int
    retry_after: float = 0.0
    is_global: bool = False

    def matches(self, method: str, template: str, path: str) -> bool:
        return route_matches(self.route, self.method, method, template, path)


def route_matches(route: str, wanted: str | None, method: str, template: str, path: str) -> bool:
    """`route` (a template or a concrete path) and `wanted` (a method, or None for any)
    select this request."""
    if wanted is not None and wanted.upper() != method:
        return False
    return route in (template, path)


@dataclasses.dataclass(frozen=True)
class InjectedFault:
    method: str
    path: str
    status: int


@dataclasses.dataclass
class Hold:
    """Requests matching `route` wait, unanswered, until `release()`: a request in flight
    for as long as a test needs (a slow Discord, a shutdown mid-request)."""

    route: str
    method: str | None
    answer_only: bool = False
    """Discord does the request at once and only its answer waits: the case of a bot that
    dies after Discord posted its message but before it read the answer."""
    arrived: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    released: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


class Faults:
    def __init__(self) -> None:
        self._rules: list[FaultRule] = []
        self._holds: list[Hold] = []
        self.injected: list[InjectedFault] = []

    def hold(self, route: str, *, method: str | None = None, answer_only: bool = False) -> Hold:
        """Keep matching requests (or only their answers) waiting until the returned hold
        is released."""
        hold = Hold(route, method, answer_only)
        self._holds.append(hold)
        return hold

    async def wait_if_held(
        self, method: str, template: str, path: str, *, answered: bool = False
    ) -> None:
        """Wait on the holds of this request (``answered``: the holds of its answer)."""
        for hold in self._holds:
            if hold.answer_only != answered:
                continue
            if not hold.released.is_set() and route_matches(
                hold.route, hold.method, method, template, path
            ):
                hold.arrived.set()
                await hold.released.wait()

    def rate_limit(
        self,
        route: str,
        *,
        method: str | None = None,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> FaultRule:
        """The next `times` matching requests get a 429 that discord.py waits out and retries."""
        rule = FaultRule(route, method, 429, times, retry_after, is_global)
        self._rules.append(rule)
        return rule

    def server_error(
        self, route: str, *, method: str | None = None, status: int = 502, times: int = 1
    ) -> FaultRule:
        """A transient 5xx; discord.py retries 500/502/504 after 1 s (its own backoff)."""
        rule = FaultRule(route, method, status, times)
        self._rules.append(rule)
        return rule

    def take(self, method: str, template: str, path: str) -> FaultRule | None:
        for rule in self._rules:
            if rule.times > 0 and rule.matches(method, template, path):
                rule.times -= 1
                self.injected.append(InjectedFault(method, path, rule.status))
                return rule
        return None


def fault_response(rule: FaultRule) -> web.Response:
    if rule.status == 429:
        body = {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(max(1, round(rule.retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": str(rule.retry_after),
            "X-RateLimit-Bucket": "emulated-bucket",
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
            # discord.py treats a 429 without Via as a Cloudflare ban and gives up.
            "Via": "1.1 google",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
    return web.Response(
        status=rule.status,
        body=json.dumps({"message": "Server error", "code": 0}).encode(),
        headers={"Content-Type": "application/json"},
    )
