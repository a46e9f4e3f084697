"""Reaching a PostgreSQL database: the connection pools, the migrations, and the store's
errors for what the server says.

Migrations are the ordered SQL files of :mod:`engine.store.postgres.migrations`, applied
together in one transaction; the versions applied are rows of ``schema_migrations``. Two
processes starting at once take turns on an advisory lock held by that transaction, so
the second finds the work done.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from engine.store.errors import CannotOpenDatabase, DatabaseFailure, SchemaTooNew, StorageFull
from engine.store.migration_files import load_migrations

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


async def create_pool(url: str, *, min_size: int, max_size: int) -> Any:
    """A pool of connections to ``url``; :class:`CannotOpenDatabase` if the server cannot be
    reached or refuses us (the message never shows the password)."""
    try:
        return await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
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
