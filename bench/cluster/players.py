"""Tables of two random agents whose seats may live in different processes.

Table ``i`` seats users ``2i+1`` and ``2i+2``. With two workers the first user of table
``i`` submits through worker ``i % 2`` and the second through the other one, so each time
the turn passes to the other player the decision is applied by the worker that did not
apply the previous one, which has to catch up from the database. The first match of table
``i`` is challenged by its first user; each next match by the other user than the last
challenger, so matches are created in one process and the other alternately.

Workers tell each other whose turn it is (as Discord tells the players) with
:data:`Message` lines on a socket; a message for a user of this worker goes straight to
its handler. Each player, when told it is their turn, reads their view, thinks (uniform
from 0 to twice the mean think time) and submits; only the submit is timed. After the
timed window players stop thinking and no new match starts; a table is done when its
match ends.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from engine.service import MatchService
from engine.service.matches.errors import StaleVersion

Message = tuple[str, int, int, int]
"""``(kind, table, match_id, user)``: ``create`` (``user`` challenges their partner),
``accept`` (``user`` accepts ``match_id``), ``turn`` (``user`` decides next in
``match_id``), ``end`` (the table is done; sent to every worker)."""


@dataclass(frozen=True, slots=True)
class Ack:
    """One acknowledged submit."""

    match_id: int
    seq: int
    """The match version the decision made: its ``DecisionRow.seq``."""
    seat: int
    decision: str
    """As stored: ``str(decision)``."""
    at: float
    """``time.monotonic()`` when ``submit`` returned (the same clock in every process)."""
    latency: float
    ended: bool
    """The decision ended the match (its commit also records the result and ratings)."""


@dataclass(slots=True)
class Tally:
    """What one worker's players did."""

    acks: list[Ack] = field(default_factory=list)
    created: list[int] = field(default_factory=list)
    """The matches challenged from this worker."""
    stale: int = 0
    """StaleVersion refusals (each one retried after reading the view again)."""
    errors: list[str] = field(default_factory=list)


def partner(user: int) -> int:
    return user + 1 if user % 2 else user - 1


def table_of(user: int) -> int:
    return (user - 1) // 2


def owner(user: int, workers: int) -> int:
    """The worker through which ``user`` submits."""
    return (table_of(user) + (user + 1) % 2) % workers


class Players:
    """The seats one worker holds, playing until ``t_end`` then finishing their matches."""

    def __init__(
        self,
        service: MatchService,
        *,
        index: int,
        workers: int,
        tables: int,
        think: float,
        seed: int,
        send_remote: Callable[[Message], None] | None = None,
    ) -> None:
        self.service = service
        self.index = index
        self.workers = workers
        self.tables = tables
        self.think = think
        self.send_remote = send_remote
        self.rngs = [random.Random(f"{seed}:{index}:{table}") for table in range(tables)]
        self.tally = Tally()
        self.t_end = float("inf")
        self.done: set[int] = set()
        self.finished = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, t_end: float) -> None:
        """Challenge the first match of every table whose first user is held here."""
        self.t_end = t_end
        for table in range(self.tables):
            user = 2 * table + 1
            if owner(user, self.workers) == self.index:
                self.receive(("create", table, 0, user))

    def receive(self, message: Message) -> None:
        """Handle a message from the other worker or from this one."""
        kind, table, match_id, user = message
        if kind == "end":
            self._table_done(table)
            return
        handlers: dict[str, Callable[[int, int, int], Coroutine[Any, Any, None]]] = {
            "create": self._create,
            "accept": self._accept,
            "turn": self._turn,
        }
        task = asyncio.create_task(self._guarded(table, handlers[kind](table, match_id, user)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _send(self, message: Message) -> None:
        if owner(message[3], self.workers) == self.index:
            self.receive(message)
        else:
            assert self.send_remote is not None
            self.send_remote(message)

    async def _guarded(self, table: int, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception as error:
            self.tally.errors.append(f"table {table}: {type(error).__name__}: {error}")
            self._end(table)

    async def _create(self, table: int, _: int, user: int) -> None:
        other = partner(user)
        challenge = await self.service.challenges.challenge(user, other, 1, table)
        self.tally.created.append(challenge.match_id)
        self._send(("accept", table, challenge.match_id, other))

    async def _accept(self, table: int, match_id: int, user: int) -> None:
        match = await self.service.challenges.accept(match_id, user)
        first = match.first_player
        assert first is not None
        self._send(("turn", table, match_id, match.players[first]))

    async def _turn(self, table: int, match_id: int, user: int) -> None:
        rng = self.rngs[table]
        while True:
            if self.think and time.monotonic() < self.t_end:
                await asyncio.sleep(rng.uniform(0, 2 * self.think))
            seen = await self.service.queries.view_for(match_id, user)
            if not seen.legal:
                raise RuntimeError(f"told to decide in match {match_id}, but the view has no move")
            decision = rng.choice(seen.legal)
            started = time.monotonic()
            try:
                result = await self.service.commands.submit(
                    match_id, user, decision, seen.table.version
                )
            except StaleVersion:
                self.tally.stale += 1
                continue
            at = time.monotonic()
            ended = result.next_player is None
            ack = Ack(match_id, result.version, seen.player, str(decision), at, at - started, ended)
            self.tally.acks.append(ack)
            if ended:
                break
            if result.next_player != seen.player:
                self._send(("turn", table, match_id, partner(user)))
                return
        challenger = user if seen.player == 0 else partner(user)
        if time.monotonic() < self.t_end:
            self._send(("create", table, 0, partner(challenger)))
        else:
            self._end(table)

    def _end(self, table: int) -> None:
        if self.send_remote is not None:
            self.send_remote(("end", table, 0, 0))
        self._table_done(table)

    def _table_done(self, table: int) -> None:
        self.done.add(table)
        if len(self.done) == self.tables:
            self.finished.set()

    async def stop(self) -> None:
        """Cancel whatever is still under way (after a timeout)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
