"""What the bot's REST requests to Discord are measured by: aiohttp trace hooks added to the
trace the pacer already uses (:func:`bot.request_pacing.pacing_trace`), so nothing in
discord.py changes.

- each request is counted by route family (ids and tokens taken out) and by whether it
  counts against the global limit;
- a 429 is counted by its ``X-RateLimit-Scope`` header;
- the pacer's wait is timed between a hook put before the pacer's and one after it, by
  the request's urgency (:class:`bot.request_pacing.Urgency`);
- an interaction callback (``POST /interactions/{id}/{token}/callback``) that succeeds is
  the interaction's first response, timed from its arrival (:class:`FirstResponses`).
"""

from __future__ import annotations

import re
import time
import types
from collections import OrderedDict

import aiohttp
import yarl

from bot.operations.metrics import INTERACTION_KINDS, RATE_LIMIT_SCOPES, BotMetrics
from bot.request_pacing import counts_against_global_limit, current_urgency

_LITERAL = re.compile(r"[a-z@][a-z@_-]{0,31}")
"""A path segment kept as written (``channels``, ``messages``, ``@original``); anything
else (an id, a token, an emoji) is replaced, so the label has a bounded set of values."""
_SNOWFLAKE = re.compile(r"[0-9]+")

MOST_AWAITED = 10_000
"""Interactions awaiting their first response that are remembered; an interaction the bot
never answers (discord.py ignores it) must not grow the table for ever."""


def route_family(url: yarl.URL) -> str:
    """The route of ``url`` with its ids and tokens replaced, after the API version.

    >>> route_family(yarl.URL("https://discord.com/api/v10/channels/123/messages/456"))
    '/channels/{id}/messages/{id}'
    >>> route_family(yarl.URL("http://x/api/v10/interactions/9/aW50ZXJhY3Rpb24.x/callback"))
    '/interactions/{id}/{token}/callback'
    """
    parts = url.path.split("/")
    if "api" in parts:
        parts = parts[parts.index("api") + 2 :]  # after "api" and "v10"
    family = []
    for part in parts:
        if not part:
            continue
        if _SNOWFLAKE.fullmatch(part):
            family.append("{id}")
        elif _LITERAL.fullmatch(part):
            family.append(part)
        else:
            family.append("{token}")
    return "/" + "/".join(family)


def _callback_of(url: yarl.URL) -> int | None:
    """The interaction id of an interaction callback's URL, else None."""
    parts = url.path.rstrip("/").split("/")
    if len(parts) >= 4 and parts[-1] == "callback" and parts[-4] == "interactions":
        return int(parts[-3]) if _SNOWFLAKE.fullmatch(parts[-3]) else None
    return None


class FirstResponses:
    """Interactions that arrived and await their first response: id -> (kind, when)."""

    def __init__(self, metrics: BotMetrics) -> None:
        self._metrics = metrics
        self._awaited: OrderedDict[int, tuple[str, float]] = OrderedDict()

    def arrived(self, interaction_id: int, kind: str) -> None:
        if kind not in INTERACTION_KINDS:
            return  # a ping: discord.py answers none
        self._awaited[interaction_id] = (kind, time.perf_counter())
        if len(self._awaited) > MOST_AWAITED:
            self._awaited.popitem(last=False)

    def answered(self, interaction_id: int) -> None:
        found = self._awaited.pop(interaction_id, None)
        if found is not None:
            kind, arrived = found
            self._metrics.first_response.labels(kind).observe(time.perf_counter() - arrived)


def measure_requests(
    trace: aiohttp.TraceConfig, metrics: BotMetrics, first_responses: FirstResponses
) -> None:
    """Add the measuring hooks to ``trace`` (before it is handed to discord.py)."""

    async def before_pacing(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        context.asked_at = time.perf_counter()

    async def after_pacing(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        limited = counts_against_global_limit(params.url)
        if limited:
            waited = time.perf_counter() - context.asked_at
            metrics.pacer_wait.labels(current_urgency().value).observe(waited)
        limit = "global" if limited else "exempt"
        metrics.discord_requests.labels(route_family(params.url), limit).inc()

    async def on_request_end(
        session: aiohttp.ClientSession,
        context: types.SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "unknown")
            metrics.rate_limited.labels(scope if scope in RATE_LIMIT_SCOPES else "unknown").inc()
        elif status < 300:
            interaction_id = _callback_of(params.url)
            if interaction_id is not None:
                first_responses.answered(interaction_id)

    # aiohttp runs a signal's hooks in order: the first before the pacer's, the rest after.
    trace.on_request_start.insert(0, before_pacing)
    trace.on_request_start.append(after_pacing)
    trace.on_request_end.append(on_request_end)
