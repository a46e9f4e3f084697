"""Opening a SQLite database: refusing a newer or corrupt file untouched, then migrating it.

Migrations are the ordered SQL files of :mod:`engine.store.migrations`, applied together
in one transaction; the schema version is kept in ``PRAGMA user_version``.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import aiosqlite

from engine.store.errors import CorruptDatabase, SchemaTooNew
from engine.store.migration_files import load_migrations

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


def is_in_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file::memory:")


async def connect_and_migrate(
    path: str, *, synchronous: str, check_integrity: bool
) -> aiosqlite.Connection:
    """A connection to ``path`` with rows addressable by column name, migrated to the latest."""
    migrations = load_migrations()
    latest = migrations[-1].version
    in_memory = is_in_memory(path)
    if not in_memory and _has_content(path):
        await _preflight(path, latest, check_integrity=check_integrity)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("PRAGMA foreign_keys = ON")
        if not in_memory:
            await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        version = await _user_version(conn)
        pending = [m for m in migrations if m.version > version]
        if pending:
            script = "\n".join(m.sql for m in pending)
            try:
                await conn.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {latest};\nCOMMIT;"
                )
            except sqlite3.Error:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            log.info("database %s migrated from version %d to %d", path, version, latest)
        if not in_memory:
            # Checkpoints run in the background instead (see engine.store.sqlite.store).
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _preflight(path: str, latest: int, *, check_integrity: bool) -> None:
    """Refuse a newer or corrupt database through a read-only connection (changes nothing)."""
    try:
        async with aiosqlite.connect(_read_only_uri(path), uri=True) as conn:
            found = await _user_version(conn)
            if found > latest:
                raise SchemaTooNew(path, found, latest)
            if check_integrity:
                rows = list(await conn.execute_fetchall("PRAGMA quick_check"))
                problems = [str(row[0]) for row in rows if row[0] != "ok"]
                if problems:
                    raise CorruptDatabase(path, "; ".join(problems[:3]))
    except sqlite3.DatabaseError as error:
        raise CorruptDatabase(path, str(error)) from None


def _has_content(path: str) -> bool:
    """An existing, non-empty file: a database to check before touching it."""
    file = Path(path)
    return file.exists() and file.stat().st_size > 0


def _read_only_uri(path: str) -> str:
    return Path(path).resolve().as_uri() + "?mode=ro"


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])
