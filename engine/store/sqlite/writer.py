"""The group-commit writer: writes queue up while a batch commits, then go out together.

One aiosqlite connection runs every statement on one thread, so writes are serialised
anyway. Rather than one transaction per write, writes queue up while the previous batch
commits and then go out together in one transaction; each caller is answered only after
the commit that holds its write. A batch that fails is rolled back and its writes retried
one transaction each, so one bad write fails alone.

A write may carry a *prepare* step (:data:`Prepare`): it runs inside the batch's
transaction, on the writer's connection, just before the write's own statements, and
returns more statements for the write. It sees every earlier write of the batch, and no
other writer can come between its read and the write, so a read-then-write (rating a
finished match from the standings before it) needs no lock. If the step raises, its write
fails alone with that error and the rest of the batch goes on.

A full disk fails every write alike, so it is not retried: each write fails with
:class:`~engine.store.errors.StorageFull`, and the log says so once when the disk fills
and once when commits go through again, not once per refused write. So does a lock that
another connection holds past the busy timeout (SQLITE_BUSY): each write of the batch fails
with :class:`~engine.store.errors.DatabaseUnavailable` (nothing of it was written), and
:class:`~engine.store.outage.OutageLog` says so once per outage.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from engine.store.errors import DatabaseUnavailable, StorageFull
from engine.store.outage import OutageLog

log = logging.getLogger(__name__)

Params = Mapping[str, Any]
"""Named parameters of one statement (``:match_id`` in the SQL, ``"match_id"`` here)."""
Statement = tuple[str, Params]

_MAX_BATCH = 1000

SPACE_AGAIN_QUIET_SECONDS = 5.0
"""A commit ends the full state only this long after the last refused write: at the edge
of full, a write that needs no new room (an update, a delete) still commits between
refused ones, and the log should not flap."""

FastPath = Callable[[str, list[Params]], tuple[str, Params] | None]
"""Turns a batch that is one run of a single statement into one multi-row statement."""

Prepare = Callable[[aiosqlite.Connection], Awaitable[list[Statement]]]
"""Reads (only reads) on the batch's connection, mid-transaction -> more statements for its
write, run after the write's own."""


@dataclass(slots=True)
class _Write:
    statements: list[Statement]
    prepare: Prepare | None = None
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class GroupCommitWriter:
    """Commits queued writes in batches on ``conn``; reads wait for a batch to finish."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        *,
        fast_path: FastPath | None = None,
        last: frozenset[str] = frozenset(),
        outage: OutageLog | None = None,
    ) -> None:
        self._conn = conn
        self.outage = outage or OutageLog("?")
        self._fast_path = fast_path
        self._last = last
        """Statements that depend only on what comes before them in their write and that
        nothing depends on (outbox inserts): a batch runs them all after the others, so the
        rest of the batch still makes long runs of one statement (one trip each)."""
        self._queue: list[_Write] = []
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        """Held while a batch transaction is open, so reads never see half a batch."""
        self.batches = 0
        """How many transactions were committed (for benchmarks)."""
        self._full_path: str | None = None
        """The database's path while the disk is full (from the first refused write)."""
        self._last_refused = 0.0

    @property
    def disk_full(self) -> bool:
        """Writes were refused for a full disk, and none has succeeded since."""
        return self._full_path is not None

    @property
    def busy(self) -> bool:
        """A batch or a read is running on the connection now."""
        return self._lock.locked()

    async def write(self, statements: list[Statement], prepare: Prepare | None = None) -> None:
        """Queue statements as one atomic write; return once they are committed.

        ``prepare``, if given, runs in the batch's transaction just before ``statements``
        and adds the statements it returns to the write (see the module doc)."""
        write = _Write(statements, prepare)
        self._queue.append(write)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._write_loop())
        await write.done

    async def fetch(self, sql: str, params: Params | None = None) -> list[aiosqlite.Row]:
        """Rows of a query, never in the middle of a batch."""
        [rows] = await self.fetch_together([(sql, params or {})])
        return rows

    async def fetch_together(
        self, queries: Sequence[tuple[str, Params]]
    ) -> list[list[aiosqlite.Row]]:
        """The rows of each query, all read between the same two batches (consistent)."""
        async with self._lock:
            started = time.monotonic()
            try:
                found = [
                    list(await self._conn.execute_fetchall(sql, params)) for sql, params in queries
                ]
            except sqlite3.Error as error:
                if not _is_busy(error):
                    raise
                raise self._unavailable(started, error) from error
            # Not an answer for the outage: in WAL mode reads go on while a lock held
            # elsewhere refuses every write.
            return found

    async def drain(self) -> None:
        """Wait until every queued write is committed (or failed)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _write_loop(self) -> None:
        while self._queue:
            batch = self._queue[:_MAX_BATCH]
            del self._queue[:_MAX_BATCH]
            started = time.monotonic()
            try:
                refused = await self._commit(batch)
            except Exception as raised:
                error = await self._storage_full(raised)
                if _is_busy(error):
                    error = self._unavailable(started, error)
                if isinstance(error, StorageFull | DatabaseUnavailable) or len(batch) == 1:
                    # One by one would fail alike (or is what was just tried).
                    for write in batch:
                        _settle(write.done, error)
                    continue
                log.warning("a batch of %d writes failed; retrying one by one", len(batch))
                for write in batch:
                    try:
                        refused_alone = await self._commit([write])
                    except Exception as alone:
                        _settle(write.done, await self._storage_full(alone))
                    else:
                        _settle(write.done, refused_alone.get(id(write)))
            else:
                self.outage.answered(started)
                for write in batch:
                    _settle(write.done, refused.get(id(write)))

    def _unavailable(self, started: float, error: Exception) -> DatabaseUnavailable:
        """A lock held elsewhere past the busy timeout: nothing of the call was written."""
        reason = f"another connection held the database locked ({error})"
        self.outage.failed(started, reason)
        unavailable = DatabaseUnavailable(self.outage.where, reason)
        unavailable.__cause__ = error
        return unavailable

    async def _storage_full(self, error: Exception) -> Exception:
        """``error`` as :class:`StorageFull` if the disk is full (logged once), else as is."""
        if not _is_full(error):
            return error
        self._last_refused = time.monotonic()
        if self._full_path is None:
            self._full_path = await self._database_path()
            log.error(
                "the disk is full: moves are refused until there is space (database %s)",
                self._full_path,
            )
        full = StorageFull(self._full_path)
        full.__cause__ = error
        return full

    def _committed(self) -> None:
        self.batches += 1
        quiet = time.monotonic() - self._last_refused >= SPACE_AGAIN_QUIET_SECONDS
        if self._full_path is not None and quiet:
            log.warning(
                "the disk has space again: moves are accepted (database %s)", self._full_path
            )
            self._full_path = None

    async def _database_path(self) -> str:
        try:
            rows = await self._conn.execute_fetchall("PRAGMA database_list")
        except sqlite3.Error:
            return "?"
        return next((str(row[2]) or ":memory:" for row in rows if row[1] == "main"), "?")

    async def _commit(self, batch: list[_Write]) -> dict[int, Exception]:
        """Run ``batch`` in one transaction; the errors of writes whose prepare step raised
        (by ``id`` of the write), which are left out of it."""
        conn = self._conn
        async with self._lock:
            if self._fast_path is not None and all(w.prepare is None for w in batch):
                groups = self._groups([s for write in batch for s in write.statements])
                if len(groups) == 1:
                    single = self._fast_path(*groups[0])
                    if single is not None:
                        # One statement is its own atomic transaction: one trip to the
                        # database thread instead of three (BEGIN, INSERT, COMMIT).
                        await conn.execute(*single)
                        self._committed()
                        return {}
            await conn.execute("BEGIN IMMEDIATE")
            try:
                refused = await self._run(batch)
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
        self._committed()
        return refused

    def _groups(self, statements: list[Statement]) -> list[tuple[str, list[Params]]]:
        """Runs of one statement, those in ``last`` after all the others."""
        groups = _group(s for s in statements if s[0] not in self._last)
        return groups + _group(s for s in statements if s[0] in self._last)

    async def _run(self, batch: list[_Write]) -> dict[int, Exception]:
        """The statements of ``batch`` in the open transaction, each prepare step after the
        writes before it (so it sees them); the errors of the prepare steps that raised."""
        refused: dict[int, Exception] = {}
        pending: list[Statement] = []
        last: list[Statement] = []
        for write in batch:
            statements = write.statements
            if write.prepare is not None:
                await self._execute(_group(pending))
                pending = []
                try:
                    statements = statements + await write.prepare(self._conn)
                except Exception as error:
                    refused[id(write)] = error  # nothing of it ran: it fails alone
                    continue
            for statement in statements:
                (last if statement[0] in self._last else pending).append(statement)
        await self._execute(_group(pending) + _group(last))
        return refused

    async def _execute(self, groups: list[tuple[str, list[Params]]]) -> None:
        for sql, rows in groups:
            if len(rows) == 1:
                await self._conn.execute(sql, rows[0])
            else:
                await self._conn.executemany(sql, rows)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # the caller gave up waiting; the outcome stands anyway
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _is_busy(error: BaseException) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED: a lock another connection held past the busy timeout."""
    code = getattr(error, "sqlite_errorcode", None)
    busy = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in busy


def _is_full(error: BaseException) -> bool:
    """SQLITE_FULL, whatever its extended code: the disk, or the database's size limit."""
    code = getattr(error, "sqlite_errorcode", None)
    return (
        isinstance(error, sqlite3.Error) and code is not None and code & 0xFF == sqlite3.SQLITE_FULL
    )


def _group(statements: Iterable[Statement]) -> list[tuple[str, list[Params]]]:
    """Runs of the same SQL, so a batch of appends becomes one ``executemany``."""
    groups: list[tuple[str, list[Params]]] = []
    for sql, params in statements:
        if groups and groups[-1][0] == sql:
            groups[-1][1].append(params)
        else:
            groups.append((sql, [params]))
    return groups
