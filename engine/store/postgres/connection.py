"""Reaching a PostgreSQL database: the connection pools, the migrations, and the store's
errors for what the server says.

Migrations are the ordered SQL files of :mod:`engine.store.postgres.migrations`, applied
together in one transaction; the versions applied are rows of ``schema_migrations``. Two
processes starting at once take turns on an advisory lock held by that transaction, so
the second finds the work done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from engine.store.errors import (
    CannotOpenDatabase,
    DatabaseFailure,
    DatabaseUnavailable,
    SchemaTooNew,
    StorageFull,
)
from engine.store.migration_files import load_migrations
from engine.store.outage import OutageLog
from engine.store.timeouts import DatabaseTimeouts

log = logging.getLogger(__name__)

MIGRATIONS = "engine.store.postgres.migrations"
DISK_FULL = "53100"
"""PostgreSQL's SQLSTATE for "could not extend file": no room on the server's disk."""

_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('hanamikoji:migrations', 0))"
_HAS_VERSIONS = "SELECT to_regclass('schema_migrations') IS NOT NULL"
_CREATE_VERSIONS = (
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)
_FOUND_VERSION = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
_RECORD_VERSION = "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)"


def masked(url: str) -> str:
    """``url`` fit for a message or a log: its password, if any, replaced by ``***``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
    query = urlencode(
        [(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)], safe="/*"
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _secrets(url: str) -> list[str]:
    parts = urlsplit(url)
    found = [v for k, v in parse_qsl(parts.query) if k == "password" and v]
    return [parts.password, *found] if parts.password else found


def _without_secrets(text: str, url: str) -> str:
    for secret in _secrets(url):
        text = text.replace(secret, "***")
    return text


def is_disk_full(error: BaseException) -> bool:
    return getattr(error, "sqlstate", None) == DISK_FULL


@contextmanager
def storage_errors(url: str) -> Iterator[None]:
    """Turn the server's "disk full" into :class:`StorageFull` (the write was rolled back)."""
    try:
        yield
    except asyncpg.PostgresError as error:
        if is_disk_full(error):
            raise StorageFull(masked(url)) from error
        raise


# SQLSTATEs of a server that is going away or not taking connections yet: the connection
# class (08), shutting down or starting up (57P01-57P03), and no connection slot left.
_GONE_CODES = frozenset({"57P01", "57P02", "57P03", "53300"})


def unavailable_reason(error: BaseException) -> str | None:
    """Why ``error`` means the database is not answering (stalled, restarting, unreachable),
    or None for an error of another kind (a refused statement, a bug)."""
    if isinstance(error, TimeoutError | asyncio.TimeoutError):
        return "no answer in time"
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    if isinstance(error, asyncpg.exceptions.ConnectionDoesNotExistError):
        return "the connection was lost"
    if isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error):
        return "the connection was lost"
    sqlstate = getattr(error, "sqlstate", None)
    gone = isinstance(sqlstate, str) and (sqlstate.startswith("08") or sqlstate in _GONE_CODES)
    if isinstance(error, asyncpg.PostgresError) and gone:
        return f"{type(error).__name__}: {error}"
    return None


class _FloorRestoreNoise(logging.Filter):
    """asyncpg logs a traceback each time it fails to reopen the pool's idle connections
    while the server is away (``Failed to restore the pool connection floor``); the store
    says once that the database is not answering instead (:class:`OutageLog`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to restore the pool connection floor")


_NOISE = _FloorRestoreNoise()


def quiet_floor_restore() -> None:
    """Drop asyncpg's floor-restore tracebacks (idempotent)."""
    logger = logging.getLogger("asyncpg.pool")
    if _NOISE not in logger.filters:
        logger.addFilter(_NOISE)


@dataclass(slots=True)
class PooledCall:
    """One use of a pooled connection; ``committing`` once a write's commit is on its way
    (from then on, a lost answer leaves the write's outcome unknown)."""

    conn: Any
    committing: bool = False


@contextlib.asynccontextmanager
async def pooled(
    pool: Any, timeouts: DatabaseTimeouts, outage: OutageLog
) -> AsyncIterator[PooledCall]:
    """A connection of ``pool`` within ``timeouts.acquire_seconds``; a call on it that
    finds the database not answering raises :class:`DatabaseUnavailable` (its connection
    is dropped, not reused) and is told to ``outage``."""
    started = time.monotonic()
    try:
        conn = await pool.acquire(timeout=timeouts.acquire_seconds)
    except Exception as error:
        reason = unavailable_reason(error)
        if reason is None:
            raise
        outage.failed(started, reason)
        raise DatabaseUnavailable(outage.where, reason) from error
    call = PooledCall(conn)
    try:
        yield call
    except Exception as error:
        reason = unavailable_reason(error)
        if reason is None:
            with contextlib.suppress(Exception):
                await pool.release(conn)
            raise
        outage.failed(started, reason)
        conn.terminate()  # its state is unknown: the server rolls back what it held
        with contextlib.suppress(Exception):
            await pool.release(conn)
        unknown = call.committing
        raise DatabaseUnavailable(outage.where, reason, outcome_unknown=unknown) from error
    except BaseException:
        conn.terminate()  # cancelled mid-call: not fit to reuse
        with contextlib.suppress(Exception):
            await pool.release(conn)
        raise
    # The call is done: a connection that cannot be reset now is dropped by the pool.
    with contextlib.suppress(Exception):
        await pool.release(conn)
    outage.answered(started)


async def create_pool(url: str, *, min_size: int, max_size: int, timeouts: DatabaseTimeouts) -> Any:
    """A pool of connections to ``url``; :class:`CannotOpenDatabase` if the server cannot be
    reached or refuses us (the message never shows the password)."""
    quiet_floor_restore()
    try:
        return await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            command_timeout=timeouts.command_seconds,
            timeout=timeouts.connect_seconds,
        )
    except (TimeoutError, OSError, asyncpg.InterfaceError, asyncpg.PostgresError) as error:
        reason = _without_secrets(str(error) or type(error).__name__, url)
        raise CannotOpenDatabase(masked(url), reason) from None


async def migrate(conn: Any, url: str) -> None:
    """Bring the schema up to the latest migration in one transaction.

    Raises :class:`SchemaTooNew` (nothing modified), :class:`StorageFull`, or
    :class:`DatabaseFailure` for any other refusal (the migration rolled back).
    """
    migrations = load_migrations(MIGRATIONS)
    latest = migrations[-1].version
    try:
        with storage_errors(url):
            async with conn.transaction():
                await conn.execute(_MIGRATION_LOCK)
                has_versions = await conn.fetchval(_HAS_VERSIONS)
                found = int(await conn.fetchval(_FOUND_VERSION)) if has_versions else 0
                if found > latest:
                    raise SchemaTooNew(masked(url), found, latest)
                if not has_versions:
                    await conn.execute(_CREATE_VERSIONS)
                for migration in migrations[found:]:
                    await conn.execute(migration.sql)
                    await conn.execute(_RECORD_VERSION, migration.version, migration.name)
    except asyncpg.PostgresError as error:
        detail = _without_secrets(str(error), url)
        raise DatabaseFailure(masked(url), detail) from error
    if found < latest:
        log.info("database %s migrated from version %d to %d", masked(url), found, latest)
