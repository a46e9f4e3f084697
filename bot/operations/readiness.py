"""Whether this process is fit to serve players (``/readyz``): every shard it runs is
connected to the Gateway, its database answers, its match service has started (the store
open and migrated, the matches under way rebuilt). Each check says why it failed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.operations.metrics import ShardState
from engine.service import StoreError

DATABASE_ANSWER_SECONDS = 1.0
"""How long /readyz waits for the database's answer before calling it not answering (the
probe goes on in the background: a frozen SQLite file may hold it for its busy timeout)."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class ReadinessReport:
    checks: tuple[Check, ...]

    @property
    def ready(self) -> bool:
        return all(check.ok for check in self.checks)

    def as_json(self) -> dict[str, object]:
        return {
            "ready": self.ready,
            "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in self.checks},
        }


def shards_check(shards: Iterable[ShardState]) -> Check:
    """Every shard of this process connected."""
    known = list(shards)
    if not known:
        return Check("shards", False, "no shard has connected yet")
    down = [shard.shard_id for shard in known if not shard.connected]
    if down:
        listed = ", ".join(map(str, down))
        return Check("shards", False, f"{len(down)} of {len(known)} shards disconnected: {listed}")
    return Check("shards", True, f"{len(known)} shards connected")


class Readiness:
    """The three checks; the database's is a round trip started at most once at a time."""

    def __init__(
        self,
        shards: Callable[[], Iterable[ShardState]],
        service_started: Callable[[], bool],
        ping: Callable[[], Awaitable[None]] | None,
    ) -> None:
        self._shards = shards
        self._service_started = service_started
        self._ping = ping
        self._probe: asyncio.Task[None] | None = None
        self._probe_started = 0.0

    async def report(self) -> ReadinessReport:
        started = self._service_started()
        migrations = Check(
            "migrations",
            started,
            "database migrated, matches rebuilt"
            if started
            else "the match service has not started",
        )
        database = await self._database() if started else Check("database", False, "not open yet")
        return ReadinessReport((shards_check(self._shards()), database, migrations))

    async def _database(self) -> Check:
        if self._ping is None:
            return Check("database", True, "not probed")
        if self._probe is None or self._probe.done():
            self._probe = asyncio.ensure_future(self._ping())
            self._probe.add_done_callback(_seen)  # read here even if no /readyz asks again
            self._probe_started = time.monotonic()
        waited = time.monotonic() - self._probe_started
        done, _ = await asyncio.wait(
            {self._probe}, timeout=max(0.0, DATABASE_ANSWER_SECONDS - waited)
        )
        if not done:
            waited = time.monotonic() - self._probe_started
            return Check("database", False, f"no answer for {waited:.1f} s")
        error = self._probe.exception()
        if error is None:
            return Check("database", True, "answers")
        if isinstance(error, StoreError):
            return Check("database", False, str(error))
        return Check("database", False, f"{type(error).__name__}: {error}")


def _seen(probe: asyncio.Future[None]) -> None:
    if not probe.cancelled():
        probe.exception()
