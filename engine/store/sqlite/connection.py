"""Opening a SQLite database: refusing a path it cannot use, or a newer or corrupt file,
untouched, then migrating it.

Migrations are the ordered SQL files of :mod:`engine.store.migrations`, applied together
in one transaction; the schema version is kept in ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from pathlib import Path

import aiosqlite

from engine.store.errors import (
    CannotOpenDatabase,
    CorruptDatabase,
    DatabaseFailure,
    SchemaTooNew,
    StorageFull,
    StoreError,
)
from engine.store.migration_files import Migration, load_migrations

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")

# SQLite's (primary) result codes for "this path cannot be opened or written", as opposed
# to a file that opens but holds no readable database; each with what it means here.
_CANNOT_OPEN = {
    sqlite3.SQLITE_CANTOPEN: "SQLite cannot open or create a database file there",
    sqlite3.SQLITE_READONLY: "not writable",
    sqlite3.SQLITE_PERM: "no permission",
    sqlite3.SQLITE_AUTH: "no permission",
}
# ...and for "the file holds no readable database".
_CORRUPT = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT})


def is_in_memory(path: str) -> bool:
    return path == ":memory:" or path.startswith("file::memory:")


async def connect_and_migrate(
    path: str, *, synchronous: str, check_integrity: bool, busy_seconds: float = 5.0
) -> aiosqlite.Connection:
    """A connection to ``path`` with rows addressable by column name, migrated to the latest.

    Raises :class:`CannotOpenDatabase` for a path that cannot hold the database (a missing
    folder, a directory, no permission), :class:`SchemaTooNew` or
    :class:`CorruptDatabase` for a file it must not touch, :class:`StorageFull` when the
    disk fills during a migration, and :class:`DatabaseFailure` for any other error of
    SQLite's: never a bare :class:`sqlite3.Error`.
    """
    if "\0" in path:  # no file name holds one; sqlite3 would raise a bare ValueError
        raise CannotOpenDatabase(path, "a file name cannot contain a NUL character")
    in_memory = is_in_memory(path)
    if not in_memory and path:  # "" is SQLite's private temporary database
        _refuse_unusable_path(path)
    migrations = load_migrations()
    try:
        return await _connect_and_migrate(
            path,
            in_memory,
            migrations,
            synchronous=synchronous,
            check_integrity=check_integrity,
            busy_seconds=busy_seconds,
        )
    except sqlite3.Error as error:
        raise _refusal(path, error) from None
    except OSError as error:  # the file or a folder on the way changed since the checks
        raise CannotOpenDatabase(path, error.strerror or str(error)) from None


async def _connect_and_migrate(
    path: str,
    in_memory: bool,
    migrations: tuple[Migration, ...],
    *,
    synchronous: str,
    check_integrity: bool,
    busy_seconds: float,
) -> aiosqlite.Connection:
    latest = migrations[-1].version
    if not in_memory and path and _has_content(path):
        await _preflight(path, latest, check_integrity=check_integrity)
    conn = await _connect(path)
    try:
        conn.row_factory = aiosqlite.Row
        # A lock another connection holds is waited for this long, then the call fails.
        await conn.execute(f"PRAGMA busy_timeout = {max(1, round(busy_seconds * 1000))}")
        if not in_memory:
            await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        version = await _user_version(conn)
        pending = [m for m in migrations if m.version > version]
        if pending:
            script = "\n".join(m.sql for m in pending)
            try:
                # Foreign keys are off while a migration rebuilds a table (SQLite cannot
                # turn them off inside a transaction), and checked before the commit.
                await conn.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {latest};"
                )
                broken = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
                if broken:
                    raise sqlite3.IntegrityError(
                        f"foreign keys broken by a migration: {broken[:3]}"
                    )
                await conn.execute("COMMIT")
            except sqlite3.Error:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            log.info("database %s migrated from version %d to %d", path, version, latest)
        await conn.execute("PRAGMA foreign_keys = ON")
        if not in_memory:
            # Checkpoints run in the background instead (see engine.store.sqlite.store).
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _preflight(path: str, latest: int, *, check_integrity: bool) -> None:
    """Refuse a newer or corrupt database through a read-only connection (changes nothing).

    Its SQLite errors are told apart by :func:`_refusal`: a file that is no database, or a
    damaged one, is corrupt; a lock or an I/O error is not.
    """
    conn = await _connect(_read_only_uri(path), uri=True)
    try:
        found = await _user_version(conn)
        if found > latest:
            raise SchemaTooNew(path, found, latest)
        if check_integrity:
            rows = list(await conn.execute_fetchall("PRAGMA quick_check"))
            problems = [str(row[0]) for row in rows if row[0] != "ok"]
            if problems:
                raise CorruptDatabase(path, "; ".join(problems[:3]))
    finally:
        await conn.close()


async def _connect(database: str, *, uri: bool = False) -> aiosqlite.Connection:
    """``aiosqlite.connect`` in autocommit mode, its worker thread ended when opening fails.

    aiosqlite then stops the thread without waiting for it, and a thread still reporting to
    an event loop that closed meanwhile prints an "Event loop is closed" traceback
    (omnilib/aiosqlite#241): as it would when start-up stops at once on a bad path.
    """
    connection = aiosqlite.connect(database, uri=uri, isolation_level=None)
    try:
        return await connection
    except Exception:
        await asyncio.to_thread(connection._thread.join)
        raise


def _refuse_unusable_path(path: str) -> None:
    """Name what is wrong with a path SQLite could not use, before SQLite says it vaguely."""
    file = Path(path)
    folder = file.parent
    try:
        if file.is_dir():
            raise CannotOpenDatabase(path, "it is a directory, not a database file")
        if not folder.exists():
            raise CannotOpenDatabase(path, f"the folder {str(folder)!r} does not exist")
        if not folder.is_dir():
            raise CannotOpenDatabase(path, f"{str(folder)!r} is not a folder")
        if file.exists() and not file.is_file():
            raise CannotOpenDatabase(path, "it is not a regular file (a device, pipe or socket)")
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            raise CannotOpenDatabase(path, "not writable: this user may not read and write it")
        if not os.access(folder, os.W_OK | os.X_OK):
            # Even for an existing database: WAL mode keeps its -wal and -shm files beside it.
            raise CannotOpenDatabase(
                path, f"not writable: this user may not create files in {str(folder)!r}"
            )
    except OSError as error:  # e.g. a folder on the way that this user may not enter
        raise CannotOpenDatabase(path, error.strerror or str(error)) from None


def _refusal(path: str, error: sqlite3.Error) -> StoreError:
    """The store's error for what SQLite said while opening or migrating ``path``."""
    code = getattr(error, "sqlite_errorcode", -1) & 0xFF  # the primary code
    if code in _CANNOT_OPEN:
        return CannotOpenDatabase(path, f"{_CANNOT_OPEN[code]} ({error})")
    if code in _CORRUPT:
        return CorruptDatabase(path, str(error))
    if code == sqlite3.SQLITE_FULL:
        return StorageFull(path)
    name = getattr(error, "sqlite_errorname", None) or type(error).__name__
    return DatabaseFailure(path, f"{error} ({name})")


def _has_content(path: str) -> bool:
    """An existing, non-empty file: a database to check before touching it."""
    file = Path(path)
    return file.exists() and file.stat().st_size > 0


def _read_only_uri(path: str) -> str:
    return Path(path).resolve().as_uri() + "?mode=ro"


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])
