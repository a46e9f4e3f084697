"""Faults tests switch on: 429s and transient 5xx on chosen routes."""

from __future__ import annotations

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


class Faults:
    def __init__(self) -> None:
        self._rules: list[FaultRule] = []
        self.injected: list[InjectedFault] = []

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
