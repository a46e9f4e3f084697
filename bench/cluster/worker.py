"""One worker process of bench/cluster_load.py: a match service on its store, the seats it
holds (:class:`~bench.cluster.players.Players`), and its link to the other worker.

The parent talks to a worker over a multiprocessing pipe: the worker sends ``("ready",
pid)`` once its service has started, waits for ``("go", t_go, t_end)`` (``time.monotonic()``
instants, the same clock in every process), plays, and sends ``("done", Tally)`` after
its service closed. SIGTERM stops it early (closing the service); SIGINT is left to the
parent, which stops its workers itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import socket
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bench.cluster.players import Message, Players
from engine.service import MatchService, ServiceConfig
from engine.store.match_store import MatchStore

DRAIN_LIMIT = 60.0
"""How long after the timed window the matches under way may take to finish."""


@dataclass(frozen=True, slots=True)
class StoreSpec:
    kind: str
    """``sqlite`` or ``postgres``."""
    location: str
    """The SQLite file, or the PostgreSQL URL."""
    pool: int | None = None
    """PostgreSQL connections per process (None: the store's default)."""

    def open(self, origin: str) -> MatchStore:
        if self.kind == "sqlite":
            from engine.store.sqlite import SqliteMatchStore

            return SqliteMatchStore(self.location)
        from engine.store.postgres import PostgresMatchStore

        if self.pool is None:
            return PostgresMatchStore(self.location, origin=origin)
        return PostgresMatchStore(self.location, origin=origin, max_size=self.pool)


@dataclass(frozen=True, slots=True)
class Plan:
    index: int
    workers: int
    store: StoreSpec
    tables: int
    think: float
    seed: int


def service_config() -> ServiceConfig:
    """bench/service_load's: each pair plays match after match, so the per-member hourly
    limit, meant for abuse, is lifted; no turn runs out during a run."""
    return ServiceConfig(
        max_active_matches=10,
        turn_timer_seconds=3600,
        ai_move_delay_seconds=0,
        max_new_matches_per_hour=1_000_000,
        challenge_cooldown_seconds=0,
    )


class PeerLink:
    """:data:`Message` lines to and from the other worker over a connected socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, sock: socket.socket) -> PeerLink:
        return cls(*await asyncio.open_connection(sock=sock))

    def send(self, message: Message) -> None:
        self._writer.write(" ".join(map(str, message)).encode() + b"\n")

    async def pump(self, players: Players) -> None:
        async for line in self._reader:
            kind, *numbers = line.decode().split()
            table, match_id, user = map(int, numbers)
            players.receive((kind, table, match_id, user))

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()


async def receive(control: Connection) -> Any:
    """The parent's next message, without blocking the event loop."""
    loop = asyncio.get_running_loop()
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(control.fileno(), ready)
    try:
        await readable
    finally:
        loop.remove_reader(control.fileno())
    return control.recv()


async def serve(plan: Plan, control: Connection, peer: socket.socket | None) -> None:
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()
    assert main is not None
    loop.add_signal_handler(signal.SIGTERM, main.cancel)
    store = plan.store.open(origin=f"worker {plan.index}")
    service = MatchService(store, service_config(), rng=random.Random(f"{plan.seed}:{plan.index}"))
    await service.start()
    try:
        link = None if peer is None else await PeerLink.open(peer)
        players = Players(
            service,
            index=plan.index,
            workers=plan.workers,
            tables=plan.tables,
            think=plan.think,
            seed=plan.seed,
            send_remote=None if link is None else link.send,
        )
        pump = None if link is None else asyncio.create_task(link.pump(players))
        control.send(("ready", os.getpid()))
        _, t_go, t_end = await receive(control)
        await asyncio.sleep(max(0.0, t_go - time.monotonic()))
        players.start(t_end)
        try:
            async with asyncio.timeout(t_end + DRAIN_LIMIT - time.monotonic()):
                await players.finished.wait()
        except TimeoutError:
            unfinished = plan.tables - len(players.done)
            players.tally.errors.append(f"{unfinished} tables still playing {DRAIN_LIMIT} s late")
        await players.stop()
        if link is not None:
            await link.close()
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
    finally:
        await service.close()
    control.send(("done", players.tally))


def main(plan: Plan, control: Connection, peer: socket.socket | None) -> None:
    """The process's entry point (multiprocessing, "spawn")."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, format=f"worker {plan.index}: %(message)s")
    with contextlib.suppress(asyncio.CancelledError):
        asyncio.run(serve(plan, control, peer))
